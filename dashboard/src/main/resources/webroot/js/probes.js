// Active probes: a perftest run between two ports, started through the collector (POST /api/probes),
// followed live (the `probe` event of the push channel, with polling when that event does not come),
// cancelled (DELETE) and kept in a history. The same form and result card serve the top-level
// Probes view (#/probes[/<id>]) and the port detail's side panel (the port pre-filled as source).
// This module composes them: probe-store.js holds the probes, probe-form.js, probe-card.js and
// probe-history.js draw them.

import {byId, el} from './dom.js';
import {probeHref} from './links.js';
import {ProbeCard} from './probe-card.js';
import {ProbeForm} from './probe-form.js';
import {historyTable, recentItems} from './probe-history.js';
import {ProbeStore} from './probe-store.js';
import {endpointKey, isTerminal} from './probe-text.js';

/** The top-level view and the port detail's panel, sharing one store. */
export class Probes {
  constructor(fleet) {
    this.fleet = fleet;
    this.store = new ProbeStore();
    this.view = byId('probes-view');
    this.viewForm = new ProbeForm(fleet, this.store, 'pv', (p) => { location.hash = probeHref(p.id); });
    this.viewCard = new ProbeCard(this.store);
    this.viewSelected = null;
    byId('probes-form').append(this.viewForm.root);
    byId('probes-selected').append(this.viewCard.root);
    this.panel = byId('probe-panel-body');
    this.panelForm = new ProbeForm(fleet, this.store, 'pp', (p) => this.showInPanel(p.id));
    this.panelCard = new ProbeCard(this.store);
    this.panelRecent = el('ul', {className: 'probe-recent'});
    this.panel.append(this.panelForm.root, this.panelCard.root,
      el('h3', {}, 'Recent on this port'), this.panelRecent, el('p', {}, el('a', {href: '#/probes'}, 'All probes →')));
    this.portKey = null;
    this.panelProbeId = null;
    this.store.onChange(() => this.render());
    fleet.onChange(() => this.renderPickers());
  }

  /** A `probe` event of the push channel. */
  onEvent(probe) {
    this.store.put(probe, true);
  }

  /** The push channel (re)connected: what happened meanwhile comes from the history. */
  onConnected() {
    if (this.store.loaded || this.portKey || !this.view.hidden) this.store.refresh();
  }

  openView(id) {
    this.view.hidden = false;
    this.viewSelected = id || null;
    if (id && !this.store.get(id)) this.store.load(id);
    this.store.refresh();
    this.viewForm.render();
    this.render();
  }

  closeView() {
    this.view.hidden = true;
  }

  openPort(node, device, port) {
    const key = node + '/' + device + '/' + port;
    if (key === this.portKey) return;
    this.portKey = key;
    this.panelProbeId = null;
    this.panelForm.source.set(key);
    this.panelForm.destination.set('');
    this.panelForm.say('', '');
    this.store.refresh();
    this.render();
  }

  closePort() {
    this.portKey = null;
  }

  showInPanel(id) {
    this.panelProbeId = id;
    this.render();
  }

  renderPickers() {
    if (!this.view.hidden) this.viewForm.render();
    if (this.portKey) this.panelForm.render();
  }

  render() {
    const probes = this.store.list();
    if (!this.view.hidden) {
      const selected = this.viewSelected ? this.store.get(this.viewSelected) : null;
      const placeholder = byId('probes-placeholder');
      placeholder.hidden = Boolean(selected);
      placeholder.textContent = this.viewSelected && !selected
        ? (this.store.missing?.id === this.viewSelected ? this.store.missing.error : 'Loading probe ' + this.viewSelected + '…')
        : 'Start a probe, or pick one from the history.';
      this.viewCard.show(selected);
      const error = this.store.error ? el('p', {className: 'bad'}, 'Probe history: ' + this.store.error) : null;
      byId('probes-history').replaceChildren(...[error, historyTable(probes, this.viewSelected)]
        .filter(Boolean));
    }
    if (this.portKey) {
      const mine = probes.filter((p) => endpointKey(p.source) === this.portKey || endpointKey(p.destination) === this.portKey);
      const shown = this.panelProbeId ? this.store.get(this.panelProbeId) : mine.find((p) => !isTerminal(p));
      this.panelCard.show(shown || null);
      this.panelRecent.replaceChildren(...recentItems(mine, this.portKey, this.store.error));
    }
  }
}
