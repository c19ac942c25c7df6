// The pingmesh view (#/pingmesh[?group=G]): every probed pair of RDMA ports as one canvas (pingmesh-matrix.js),
// polled from GET /api/pingmesh once a probing round, the collector's verdicts above it, a tooltip for the pair under
// the pointer (pingmesh-pair.js), and a click that starts a bandwidth probe between the two ports (the Probes view's
// request and card, through the probe store main.js shares).

import * as fmt from './format.js';
import {authHeaders, requireAuth, token} from './api.js';
import {byId, el, measure, setText, text} from './dom.js';
import {refusal} from './operator.js';
import {MatrixCanvas} from './pingmesh-canvas.js';
import {CELL, LEVEL_UNPROBED, RTT_SPAN, cellAt, levelColour, lossLevel, rttLevel} from './pingmesh-matrix.js';
import {PairTooltip, portText} from './pingmesh-pair.js';
import {ProbeCard} from './probe-card.js';
import {startProbe} from './probe-form.js';

/** Until the first answer says how long a round is. */
const DEFAULT_ROUND_SECONDS = 5;

export const pingmeshHref = (group) => '#/pingmesh' + (group ? '?group=' + encodeURIComponent(group) : '');

export class Pingmesh {
  /** @param store the probes of the page (probe-store.js), shared with the Probes view */
  constructor(store) {
    this.store = store;
    this.view = byId('pingmesh-view');
    this.stage = byId('pm-stage');
    this.groupSelect = byId('pm-group');
    this.status = byId('pm-status');
    this.notice = byId('pm-notice');
    this.verdicts = byId('pm-verdicts');
    this.canvas = byId('pm-canvas');
    this.picture = new MatrixCanvas(this.canvas);
    this.tooltip = new PairTooltip(byId('pm-tooltip'));
    this.card = new ProbeCard(store);
    this.probeStatus = el('p', {className: 'probe-form-status', id: 'pm-probe-status', role: 'status', 'aria-live': 'polite'},
      'Click a cell to start a bandwidth probe between its two ports.');
    byId('pm-probe').append(this.probeStatus, this.card.root);
    byId('pm-legend').replaceChildren(...legend());
    this.worker = null;      // started when the view first opens
    this.group = '';
    this.answer = null;
    this.model = null;       // {ports, order, bands, cells (flat)} of the last answer, for the tooltip
    this.groupsShown = '';
    this.side = 0;
    this.seq = 0;
    this.waiting = 0;        // the fetch whose answer starts the next round's timer
    this.timer = null;
    this.pending = null;     // a frame waiting for the next animation frame
    this.pointer = null;
    this.probeId = null;
    this.groupSelect.addEventListener('change', () => { location.hash = pingmeshHref(this.groupSelect.value); });
    // the stage's size comes from the observer, never read back from the layout while drawing
    new ResizeObserver(([entry]) => {
      const side = Math.floor(Math.min(entry.contentRect.width, entry.contentRect.height));
      if (side === this.side) return;
      this.side = side;
      if (this.model && this.drawable()) this.worker.postMessage({type: 'draw', seq: ++this.seq, ...this.size()});
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
    if (this.view.hidden) return;
    this.view.hidden = true;
    clearTimeout(this.timer);
    this.waiting = 0;
    this.worker?.postMessage({type: 'abort'});
    this.tooltip.hide();
  }

  drawable() {
    return !this.view.hidden && !this.stage.hidden && this.side >= 40;
  }

  size() {
    return {cssSide: this.drawable() ? this.side : 0, ratio: devicePixelRatio || 1};
  }

  /** Asks the worker for the matrix; its answer sets the timer for the next round. */
  poll() {
    clearTimeout(this.timer);
    if (!this.worker) {
      this.worker = new Worker(new URL('./pingmesh-worker.js', import.meta.url), {type: 'module'});
      this.worker.onmessage = ({data}) => this.onWorker(data);
      this.worker.onerror = (e) => this.say('Pingmesh: the page\'s worker failed: ' + (e.message || 'no reason given'));
    }
    this.waiting = ++this.seq;
    this.sentToken = token();
    const url = '/api/pingmesh' + (this.group ? '?group=' + encodeURIComponent(this.group) : '');
    this.worker.postMessage({type: 'fetch', seq: this.waiting, url, headers: authHeaders(), group: this.group, ...this.size()});
  }

  onWorker(message) {
    if (message.type === 'answer') {
      this.apply(message);
    } else if (message.type === 'frame') {
      this.schedule(message.frame);
    } else if (message.type === 'error' && message.status === 401) {
      // a refusal of an older poll, or of a token since replaced, asks for nothing: the next poll carries the token
      if (message.seq === this.waiting) requireAuth(this.sentToken);
    } else if (message.type === 'error') {
      this.say(message.status === 404 && !this.group ? 'This collector has no pingmesh API (' + message.message + ').'
        : 'Pingmesh: ' + message.message);
    }
    if (message.seq === this.waiting && message.type !== 'frame' && !this.view.hidden) {
      const round = this.answer?.roundSeconds || DEFAULT_ROUND_SECONDS;
      this.timer = setTimeout(() => this.poll(), Math.max(1, round) * 1000);
    }
  }

  /** A new answer from the worker: texts now, the picture at the next animation frame. */
  apply({answer, group, ports, order, cells, median, frame, timings}) {
    const started = performance.now();
    this.answer = answer;
    this.model = {ports: ports || this.model.ports, ...(order || {order: this.model.order, bands: this.model.bands}), cells};
    const portCount = this.model.ports.length;
    const cellCount = cells.length / CELL;
    this.renderGroups(answer);
    this.renderVerdicts(answer.verdicts || [], answer.enabled);
    if (!answer.enabled) {
      this.say('Pingmesh is off: no agent runs with --allow-pingmesh, so no port is probed.');
    } else if (!portCount) {
      this.say(group ? 'Group ' + group + ' has no port in the pingmesh.' : 'No port is probed yet: the agents that run '
        + 'with --allow-pingmesh have not reported an RDMA port.');
    } else {
      this.notice.hidden = true;
      this.stage.hidden = false;
    }
    setText(this.status, [portCount + ' ports', (answer.groups || []).length + ' groups', cellCount
      + ' pairs probed in the last ' + answer.windowSeconds + '\u202fs', 'a round every ' + answer.roundSeconds + '\u202fs',
    'median p50 ' + fmt.latency(median), 'updated ' + fmt.clock(Date.now())].join(' · '));
    this.canvas.setAttribute('aria-label', 'Pingmesh matrix of ' + portCount + ' ports: rows are sources, columns '
      + 'destinations; ' + cellCount + ' pairs probed');
    if (frame) this.schedule(frame);
    else if (this.drawable()) this.worker.postMessage({type: 'draw', seq: ++this.seq, ...this.size()});
    measure('pingmesh-worker-fetch', timings.fetch);
    measure('pingmesh-worker-compose', timings.model + timings.compose);
    measure('pingmesh-apply', performance.now() - started);
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

  /**
   * The collector's verdicts (PathVerdict.toJson): the rule, the culprit as the collector describes it, its first
   * evidence line (the pattern), and the ports the rule is raised on.
   */
  renderVerdicts(verdicts, enabled) {
    const items = verdicts.map((v) => {
      const named = (v.ports || []).slice(0, 4).map(portText);
      const more = (v.ports || []).length - named.length;
      const pattern = v.evidence && v.evidence.length ? ': ' + v.evidence[0] : '';
      return el('li', {className: 'diag pm-verdict', 'data-rule': v.rule, 'data-culprit': v.culprit},
        el('code', {className: 'rule'}, v.rule), ' ', el('b', {}, v.description), pattern,
        named.length ? el('div', {className: 'where'}, named.join(', ') + (more > 0 ? ' and ' + more + ' more' : '')) : null);
    });
    if (!items.length && enabled) items.push(el('li', {className: 'sev-ok none'}, 'no verdict: no pair is bad'));
    this.verdicts.replaceChildren(...items);
  }

  /**
   * Puts `frame` on the canvas at the next animation frame (a newer frame replaces one still waiting), with the
   * model whose cells its `owner` indexes: the one current when the worker composed it.
   */
  schedule(frame) {
    const waiting = this.pending;
    this.pending = {frame, model: this.model};
    if (waiting) return;
    requestAnimationFrame(() => {
      const next = this.pending;
      this.pending = null;
      const started = performance.now();
      this.picture.show(next.frame, next.model);
      measure('pingmesh-render', performance.now() - started);
      if (this.pointer) this.hover();
    });
  }

  /** The theme changed: labels in its text colour. */
  restyle() {
    this.picture.restyle();
    if (this.model && this.drawable()) this.worker.postMessage({type: 'draw', seq: ++this.seq, ...this.size()});
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
    if (!hit) {
      this.tooltip.hide();
      return;
    }
    const {ports, cells} = this.picture.model;
    if (hit.group != null) this.tooltip.showGroup(hit.group, hit.group === this.group);
    else if (hit.port != null) this.tooltip.showPort(ports[hit.port]);
    else this.tooltip.showPair(ports[hit.src], ports[hit.dst], hit.cell >= 0 ? cellAt(cells, hit.cell) : null, this.answer.windowSeconds);
    this.tooltip.moveTo(at.clientX, at.clientY);
  }

  click(x, y) {
    const hit = this.picture.hit(x, y);
    if (!hit) return;
    if (hit.group != null) {
      location.hash = pingmeshHref(hit.group === this.group ? '' : hit.group);
    } else if (hit.src != null && hit.src !== hit.dst) {
      const src = this.picture.model.ports[hit.src];
      const dst = this.picture.model.ports[hit.dst];
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
