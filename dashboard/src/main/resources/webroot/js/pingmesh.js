// The pingmesh view (#/pingmesh[?group=G]): every probed pair of RDMA ports as one canvas (pingmesh-matrix.js),
// polled from GET /api/pingmesh once a probing round, the collector's verdicts above it, a tooltip for the pair under
// the pointer (pingmesh-pair.js), and a click that starts a bandwidth probe between the two ports (the Probes view's
// request and card, through the probe store main.js shares).

import * as fmt from './format.js';
import {AuthRequired, getJson} from './api.js';
import {byId, el, setText, text} from './dom.js';
import {refusal} from './operator.js';
import {LEVEL_UNPROBED, MatrixPicture, RTT_SPAN, levelColour, lossLevel, medianP50, portOrder, rttLevel, samePorts}
  from './pingmesh-matrix.js';
import {PairTooltip, portText} from './pingmesh-pair.js';
import {ProbeCard} from './probe-card.js';
import {startProbe} from './probe-form.js';

/** Until the first answer says how long a round is. */
const DEFAULT_ROUND_SECONDS = 5;

export const pingmeshHref = (group) => '#/pingmesh' + (group ? '?group=' + encodeURIComponent(group) : '');

/** One measure of each name is kept (the previous is dropped), so a page left open does not collect them. */
function measure(name, start) {
  performance.clearMeasures(name);
  performance.measure(name, {start});
}

export class Pingmesh {
  /** @param store the probes of the page (probe-store.js), shared with the Probes view */
  constructor(store) {
    this.store = store;
    this.view = byId('pingmesh-view');
    this.stage = byId('pm-stage');
    this.canvas = byId('pm-canvas');
    this.groupSelect = byId('pm-group');
    this.status = byId('pm-status');
    this.notice = byId('pm-notice');
    this.verdicts = byId('pm-verdicts');
    this.picture = new MatrixPicture(this.canvas);
    this.tooltip = new PairTooltip(byId('pm-tooltip'));
    this.card = new ProbeCard(store);
    this.probeStatus = el('p', {className: 'probe-form-status', id: 'pm-probe-status', role: 'status', 'aria-live': 'polite'},
      'Click a cell to start a bandwidth probe between its two ports.');
    byId('pm-probe').append(this.probeStatus, this.card.root);
    byId('pm-legend').replaceChildren(...legend());
    this.group = '';
    this.answer = null;
    this.model = null;
    this.fleetMedian = null;
    this.groupsShown = '';
    this.side = 0;
    this.timer = null;
    this.controller = null;
    this.drawPending = false;
    this.pointer = null;
    this.probeId = null;
    this.groupSelect.addEventListener('change', () => { location.hash = pingmeshHref(this.groupSelect.value); });
    // the stage's size comes from the observer, never read back from the layout while drawing
    new ResizeObserver(([entry]) => {
      const side = Math.floor(Math.min(entry.contentRect.width, entry.contentRect.height));
      if (side !== this.side) {
        this.side = side;
        this.scheduleDraw();
      }
    }).observe(this.stage);
    this.canvas.addEventListener('pointermove', (e) => this.pointerAt(e));
    this.canvas.addEventListener('pointerleave', () => {
      this.pointer = null;
      this.tooltip.hide();
    });
    this.canvas.addEventListener('click', (e) => this.click(e.offsetX, e.offsetY));
    store.onChange(() => {
      if (this.probeId && !this.view.hidden) this.card.show(this.store.get(this.probeId) || null);
    });
  }

  open(group) {
    const changed = group !== this.group || this.view.hidden;
    this.view.hidden = false;
    this.group = group;
    if (this.groupSelect.value !== group) this.groupSelect.value = group;
    if (!this.store.loaded) this.store.refresh();
    if (changed) this.poll();
  }

  close() {
    this.view.hidden = true;
    clearTimeout(this.timer);
    this.controller?.abort();
    this.controller = null;
    this.tooltip.hide();
  }

  /** Fetches the matrix, then again a round later, while the view is open. */
  async poll() {
    clearTimeout(this.timer);
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    const group = this.group;
    const started = performance.now();
    let round = this.answer?.roundSeconds || DEFAULT_ROUND_SECONDS;
    try {
      const answer = await getJson('/api/pingmesh' + (group ? '?group=' + encodeURIComponent(group) : ''), controller.signal);
      if (this.controller !== controller) return;
      measure('pingmesh-fetch', started);
      round = answer.roundSeconds || round;
      this.apply(answer, group);
    } catch (e) {
      if (this.controller !== controller || e.name === 'AbortError') return;
      if (!(e instanceof AuthRequired)) {
        this.say(e.status === 404 && !group ? 'This collector has no pingmesh API (' + e.message + ').' : 'Pingmesh: ' + e.message);
      }
    }
    this.timer = setTimeout(() => this.poll(), Math.max(1, round) * 1000);
  }

  apply(answer, group) {
    const started = performance.now();
    const ports = answer.ports || [];
    const cells = answer.cells || [];
    if (!samePorts(ports, this.answer?.ports) || !this.order) this.order = portOrder(ports);
    const median = medianP50(cells);
    if (!group) this.fleetMedian = median;
    this.answer = answer;
    // colours compare with the fleet's median even when one group is shown (a slow group must not look green)
    this.model = {ports, cells, ...this.order, median: (group && this.fleetMedian) || median};
    measure('pingmesh-model', started);
    this.renderGroups(answer);
    this.renderVerdicts(answer);
    if (!answer.enabled) {
      this.say('Pingmesh is off: no agent runs with --allow-pingmesh, so no port is probed.');
    } else if (!ports.length) {
      this.say(group ? 'Group ' + group + ' has no port in the pingmesh.' : 'No port is probed yet: the agents that run '
        + 'with --allow-pingmesh have not reported an RDMA port.');
    } else {
      this.notice.hidden = true;
      this.stage.hidden = false;
    }
    setText(this.status, [ports.length + ' ports', (answer.groups || []).length + ' groups', cells.length
      + ' pairs probed in the last ' + answer.windowSeconds + '\u202fs', 'a round every ' + answer.roundSeconds + '\u202fs',
    'median p50 ' + fmt.latency(median), 'updated ' + fmt.clock(Date.now())].join(' · '));
    this.canvas.setAttribute('aria-label', 'Pingmesh matrix of ' + ports.length + ' ports: rows are sources, columns '
      + 'destinations; ' + cells.length + ' pairs probed');
    this.scheduleDraw();
  }

  /** Says why there is no matrix, in place of it. */
  say(message) {
    setText(this.notice, message);
    this.notice.hidden = false;
    this.stage.hidden = true;
    this.tooltip.hide();
  }

  renderGroups(answer) {
    const groups = answer.groups || [];
    const signature = JSON.stringify(groups.map((g) => [g.name, g.ports, g.source]));
    if (signature === this.groupsShown) return;
    this.groupsShown = signature;
    const options = groups.map((g) => el('option', {value: g.name}, g.name + ' · ' + g.ports + ' ports'
      + (g.source ? ' · ' + g.source : '')));
    // a group asked for in the URL stays selectable while the collector does not list it (yet)
    if (this.group && !groups.some((g) => g.name === this.group)) options.push(el('option', {value: this.group}, this.group));
    this.groupSelect.replaceChildren(el('option', {value: ''}, 'all groups'), ...options);
    this.groupSelect.value = this.group;
  }

  renderVerdicts(answer) {
    const ports = answer.ports || [];
    const items = (answer.verdicts || []).map((v) => {
      const named = (v.ports || []).slice(0, 4).map((i) => ports[i] ? portText(ports[i]) : '#' + i);
      const more = (v.ports || []).length - named.length;
      return el('li', {className: 'diag pm-verdict', 'data-rule': v.rule},
        el('code', {className: 'rule'}, v.rule), ' ', el('b', {}, v.culprit + ' ' + v.name), ': ', v.summary,
        named.length ? el('div', {className: 'where'}, named.join(', ') + (more > 0 ? ' and ' + more + ' more' : '')) : null);
    });
    if (!items.length && answer.enabled) items.push(el('li', {className: 'sev-ok none'}, 'no verdict: no pair is bad'));
    this.verdicts.replaceChildren(...items);
  }

  scheduleDraw() {
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => {
      this.drawPending = false;
      if (!this.model || this.view.hidden || this.stage.hidden || this.side < 40) return;
      const started = performance.now();
      this.picture.draw(this.model, this.side, devicePixelRatio || 1);
      measure('pingmesh-render', started);
      if (this.pointer) this.hover();
    });
  }

  pointerAt(e) {
    const pending = this.pointer;
    this.pointer = {x: e.offsetX, y: e.offsetY, clientX: e.clientX, clientY: e.clientY};
    if (!pending) requestAnimationFrame(() => this.hover());
  }

  /** The tooltip for what lies under the pointer (at most once a frame). */
  hover() {
    const at = this.pointer;
    if (!at) return;
    const hit = this.picture.hit(at.x, at.y);
    const {ports, cells} = this.model;
    if (!hit) {
      this.tooltip.hide();
      return;
    }
    if (hit.group != null) this.tooltip.showGroup(hit.group, hit.group === this.group);
    else if (hit.port != null) this.tooltip.showPort(ports[hit.port]);
    else this.tooltip.showPair(ports[hit.src], ports[hit.dst], hit.cell >= 0 ? cells[hit.cell] : null, this.answer.windowSeconds);
    this.tooltip.moveTo(at.clientX, at.clientY);
  }

  click(x, y) {
    const hit = this.picture.hit(x, y);
    if (!hit) return;
    if (hit.group != null) {
      location.hash = pingmeshHref(hit.group === this.group ? '' : hit.group);
    } else if (hit.src != null && hit.src !== hit.dst) {
      const src = this.model.ports[hit.src];
      const dst = this.model.ports[hit.dst];
      // confirm() would freeze the page under the pointer's tooltip: hide it first
      this.tooltip.hide();
      if (confirm('Start a bandwidth probe (ib_write_bw) from ' + portText(src) + ' to ' + portText(dst) + '?')) {
        this.startProbe(src, dst);
      }
    }
  }

  async startProbe(src, dst) {
    const endpoint = (p) => ({node: p.node, device: p.device, port: p.port});
    setText(this.probeStatus, 'Starting a probe from ' + portText(src) + ' to ' + portText(dst) + '…', 'probe-form-status');
    try {
      const probe = await startProbe(this.store, {source: endpoint(src), destination: endpoint(dst)});
      this.probeId = probe.id;
      setText(this.probeStatus, 'Started probe ' + probe.id + '.', 'probe-form-status ok');
      this.card.show(this.store.get(probe.id) || probe);
    } catch (e) {
      setText(this.probeStatus, refusal(e, 'Not started'), 'probe-form-status bad');
    }
  }
}

/** The colour scale, from the same palette the matrix is drawn with. */
function legend() {
  const swatch = (level, label) => el('li', {}, el('span', {className: 'pm-swatch', style: 'background:' + levelColour(level)}),
    ' ' + label);
  return [
    swatch(LEVEL_UNPROBED, 'not probed in the window'),
    swatch(rttLevel(1, 1), 'p50 at or below the fleet median'),
    swatch(rttLevel(2 ** (RTT_SPAN / 2), 1), 'p50 twice the median'),
    swatch(rttLevel(2 ** RTT_SPAN, 1), 'p50 ' + 2 ** RTT_SPAN + ' × the median or more'),
    swatch(lossLevel(1, 1000), '0.1 % lost or less'),
    swatch(lossLevel(1, 10), '10 % lost'),
    swatch(lossLevel(1, 1), 'all lost'),
    text('li', 'The strips along the edges: each port\'s state; the bands: its group (click one to show only it).', 'muted'),
  ];
}
