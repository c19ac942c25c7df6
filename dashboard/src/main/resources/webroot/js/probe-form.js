// The form that starts a probe: a source and a destination port picked from the fleet, perftest's
// parameters with the collector's defaults and limits, and the collector's answer.

import * as fmt from './format.js';
import {sendJson} from './api.js';
import {el, setText} from './dom.js';
import {asOperator, refusal} from './operator.js';
import {sizeText} from './probe-text.js';
import {searchText} from './fleet.js';

const PICKER_LIMIT = 200;
const PORT_ORDER = new Intl.Collator('en', {numeric: true});
// the collector's transport names (API `transport`) as the picker labels them
const TRANSPORT_LABELS = {roce: 'RoCE', infiniband: 'IB', iwarp: 'iWARP'};

/** A port picker: a filter field over the fleet's ports and a list of the matches. */
class PortPicker {
  constructor(fleet, id, legend) {
    this.fleet = fleet;
    this.selected = '';
    this.shown = '';
    this.filter = el('input', {type: 'search', id: id + '-filter', autocomplete: 'off', placeholder: 'node, device, netdev…'});
    this.select = el('select', {id, size: 5, required: true});
    this.note = el('span', {className: 'muted picker-note', id: id + '-note'});
    this.select.setAttribute('aria-describedby', this.note.id);
    this.root = el('fieldset', {className: 'picker'}, el('legend', {}, legend),
      el('label', {htmlFor: this.filter.id, className: 'sr-only'}, 'Filter ' + legend.toLowerCase() + ' ports'),
      this.filter, el('label', {htmlFor: id, className: 'sr-only'}, legend + ' port'), this.select, this.note);
    this.filter.addEventListener('input', () => this.render());
    // ↓ or Enter goes from the filter to the list (Enter must not submit the whole form from here)
    this.filter.addEventListener('keydown', (e) => {
      if ((e.key === 'ArrowDown' || e.key === 'Enter') && this.select.options.length) {
        e.preventDefault();
        if (!this.select.value) this.select.selectedIndex = 0;
        this.selected = this.select.value;
        this.select.focus();
      } else if (e.key === 'Enter') {
        e.preventDefault();
      }
    });
    this.select.addEventListener('change', () => { this.selected = this.select.value; });
  }

  get value() {
    return this.fleet.ports.get(this.selected);
  }

  set(key) {
    this.selected = key;
    this.render();
  }

  /** Redraws only when the matching ports or their labels changed, so a selection is not disturbed. */
  render() {
    const words = this.filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const matches = [...this.fleet.ports.values()].filter((r) => words.every((w) => searchText(r).includes(w)))
      .sort((a, b) => PORT_ORDER.compare(a.key, b.key));
    const shown = matches.slice(0, PICKER_LIMIT);
    const chosen = this.fleet.ports.get(this.selected);
    if (chosen && !shown.includes(chosen)) shown.unshift(chosen);
    const options = shown.map((r) => [r.key, optionText(r), !r.connected]);
    const signature = JSON.stringify(options);
    this.note.textContent = matches.length > PICKER_LIMIT
      ? PICKER_LIMIT + ' of ' + matches.length + ' ports; narrow the filter'
      : matches.length + (matches.length === 1 ? ' port' : ' ports');
    if (signature === this.shown) return;
    this.shown = signature;
    this.select.replaceChildren(...options.map(([key, label, away]) =>
      el('option', {value: key, title: label, className: away ? 'away' : null}, label)));
    this.select.value = this.selected;
  }
}

function optionText(row) {
  const layer = TRANSPORT_LABELS[row.transport] || row.linkLayer;
  const notes = [row.active ? null : row.state, row.connected ? null : 'agent disconnected'].filter(Boolean);
  return row.node + ' ' + row.device + '/' + row.port + ' · ' + layer + ' ' + fmt.linkRate(row.rate)
    + (notes.length ? ' · ' + notes.join(', ') : '');
}

/**
 * Asks the collector for a probe (POST /api/probes, as an operator: docs/probes.md) and adds the answer to
 * `store`; resolves to the probe, rejects with the refusal (see operator.js `refusal`).
 */
export async function startProbe(store, body) {
  const probe = await asOperator('Starting a probe', () => sendJson('POST', '/api/probes', body));
  store.put(probe);
  return probe;
}

/** Source, destination and perftest parameters; starts a probe. */
export class ProbeForm {
  constructor(fleet, store, prefix, onStarted) {
    this.store = store;
    this.onStarted = onStarted;
    this.source = new PortPicker(fleet, prefix + '-source', 'Source');
    this.destination = new PortPicker(fleet, prefix + '-destination', 'Destination');
    const number = (name, label, value, min) => {
      const input = el('input', {type: 'number', id: prefix + '-' + name, name, min, step: 1, value, inputMode: 'numeric'});
      input.addEventListener('input', () => { input.dataset.edited = 'yes'; });
      return [input, el('label', {htmlFor: input.id}, label, input)];
    };
    // empty until the collector's defaults arrive (applyLimits); an empty field is left out of the request
    const [size, sizeLabel] = number('size', 'Message size (bytes)', '', 1);
    const [duration, durationLabel] = number('duration', 'Duration (s)', '', 1);
    const [qps, qpsLabel] = number('qps', 'QPs', '', 1);
    const [gid, gidLabel] = number('gid', 'GID index', '', 0);
    gid.placeholder = 'auto';
    gid.title = 'Empty: the collector picks the source port\'s RoCE v2 IPv4 GID';
    this.inputs = {size, duration, qps, gid};
    this.bidirectional = el('input', {type: 'checkbox', id: prefix + '-bidirectional'});
    this.start = el('button', {type: 'submit', className: 'primary'}, 'Start probe');
    this.status = el('p', {className: 'probe-form-status', role: 'status', 'aria-live': 'polite'});
    this.limitsNote = el('p', {className: 'muted probe-limits'});
    this.root = el('form', {className: 'probe-form', 'aria-label': 'Start a probe'},
      this.source.root, this.destination.root,
      el('div', {className: 'probe-params'}, sizeLabel, durationLabel, qpsLabel, gidLabel),
      el('label', {className: 'check'}, this.bidirectional, ' Bidirectional (compared with 2 × link rate)'),
      el('div', {className: 'probe-actions'}, this.start), this.status, this.limitsNote);
    this.root.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit();
    });
    store.onChange(() => this.applyLimits());
  }

  render() {
    this.source.render();
    this.destination.render();
  }

  applyLimits() {
    const d = this.store.defaults;
    if (d) {
      // the collector's defaults, shown until the user types something else
      for (const [input, value] of [[this.inputs.size, d.sizeBytes], [this.inputs.duration, d.durationSeconds],
        [this.inputs.qps, d.qps]]) {
        input.placeholder = String(value);
        if (input.value === '' && !input.dataset.edited) input.value = value;
      }
    }
    const l = this.store.limits;
    if (!l) return;
    this.inputs.size.max = l.maxSizeBytes;
    this.inputs.duration.max = l.maxDurationSeconds;
    this.inputs.qps.max = l.maxQps;
    this.limitsNote.textContent = 'Limits: ' + l.maxConcurrent + ' at a time, one per port; at most '
      + l.maxDurationSeconds + '\u202fs, ' + l.maxQps + ' QPs, ' + sizeText(l.maxSizeBytes) + '; '
      + l.cooldownSeconds + '\u202fs cooldown per pair. Passes at ≥ ' + fmt.percent(l.passRatio) + ' of link rate.';
  }

  body() {
    const source = this.source.value;
    const destination = this.destination.value;
    if (!source || !destination) throw new Error('choose a ' + (!source ? 'source' : 'destination') + ' port');
    if (source.key === destination.key) throw new Error('source and destination are the same port');
    for (const input of Object.values(this.inputs)) {
      if (!input.checkValidity()) {
        input.focus();
        throw new Error(input.labels[0].firstChild.textContent + ': ' + input.validationMessage);
      }
    }
    const endpoint = (r) => ({node: r.node, device: r.device, port: r.port});
    const body = {source: endpoint(source), destination: endpoint(destination),
      bidirectional: this.bidirectional.checked};
    if (this.inputs.size.value !== '') body.sizeBytes = Number(this.inputs.size.value);
    if (this.inputs.duration.value !== '') body.durationSeconds = Number(this.inputs.duration.value);
    if (this.inputs.qps.value !== '') body.qps = Number(this.inputs.qps.value);
    if (this.inputs.gid.value !== '') body.gidIndex = Number(this.inputs.gid.value);
    return body;
  }

  async submit() {
    let body;
    try {
      body = this.body();
    } catch (e) {
      this.say(e.message, 'bad');
      return;
    }
    this.start.disabled = true;
    this.say('Starting…', '');
    try {
      const probe = await startProbe(this.store, body);
      this.say('Started probe ' + probe.id + '.', 'ok');
      this.onStarted(probe);
    } catch (e) {
      this.say(refusal(e, 'Not started'), 'bad');
    } finally {
      this.start.disabled = false;
    }
  }

  say(message, cls) {
    setText(this.status, message, 'probe-form-status ' + cls);
  }
}
