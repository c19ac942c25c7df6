// Port detail: live charts, the counters that moved, eadm-stat style rates, the GID table, and the
// node's health. Series arrive over the push channel (history first, then each new point).

import * as fmt from './format.js';
import {getJson, AuthRequired} from './api.js';
import {PortCharts} from './charts.js';
import {renderDiagnoses} from './diagnoses.js';
import {byId, el, setText, text} from './dom.js';
import {portHref} from './links.js';
import {PhysPanel} from './phys.js';
import {TopologyPanel} from './topology.js';
import {missingQosHint, sourcesFact} from './sources.js';

const TABS = ['charts', 'counters', 'rates', 'gids', 'phys', 'topology'];
const NODE_REFRESH_MILLIS = 10000;

/**
 * Points of one port: time in seconds (uPlot's unit), one array per series; at most `capacity`. A new
 * history starts with the collector's headline rates only (throughput); `detailed` turns true with the
 * first detail point that has rates, and only from then on does a missing series mean the port lacks it.
 */
class PortData {
  constructor(capacity) {
    this.capacity = capacity;
    this.time = [];
    this.series = {};
    this.moved = [];
    this.detailed = false;
    this.detailPoints = 0;
  }

  apply(event, names) {
    if (event.reset) {
      this.time = [];
      this.series = {};
      this.detailed = false;
      this.detailPoints = 0;
    }
    this.noteDetail(event);
    const count = event.timestamps.length;
    const before = this.time.length;
    this.time.push(...event.timestamps.map((t) => t / 1000));
    for (const name of names) {
      const incoming = event.series[name];
      if (!incoming && !this.series[name]) continue;
      const column = this.series[name] || (this.series[name] = new Array(before).fill(null));
      column.push(...(incoming || new Array(count).fill(null)));
    }
    const excess = this.time.length - this.capacity;
    if (excess > 0) {
      this.time.splice(0, excess);
      for (const column of Object.values(this.series)) column.splice(0, excess);
    }
    this.moved = event.moved;
  }

  /**
   * Only detail points carry the port's `active` series. Counter rates need two samples, so the very
   * first detail point of a node that just appeared may have none: a detail point counts once it has
   * rates (its throughput) or follows another detail point.
   */
  noteDetail(event) {
    const active = event.series.active || [];
    const rx = event.series.rx_bytes || [];
    for (let i = 0; i < event.timestamps.length && !this.detailed; i++) {
      if (active[i] == null) continue;
      this.detailed = rx[i] != null || this.detailPoints > 0;
      this.detailPoints++;
    }
  }
}

/**
 * The switch port this port is cabled to: its LLDP neighbour (an Ethernet port's switch) or, for an InfiniBand port,
 * the switch port the fabric sweep found; null when neither is known.
 */
function cabledTo(port) {
  const lldp = port?.neighbor;
  if (lldp) {
    return [lldp.systemName || lldp.chassisId, lldp.portId].filter(Boolean).join(' ') + ' (LLDP)';
  }
  const fabric = port?.fabricNeighbor;
  return fabric ? `${fabric.description} port ${fabric.port} (${fabric.guid})` : null;
}

export class Detail {
  constructor(live, fleet) {
    this.live = live;
    this.fleet = fleet;
    this.key = null;
    this.names = [];
    this.capacity = 900;
    this.view = byId('detail-view');
    this.head = byId('port-head');
    this.counterSearch = byId('counter-search');
    this.counterSearch.addEventListener('input', () => this.renderCounters());
    this.charts = null;
    this.phys = new PhysPanel();
    this.topology = new TopologyPanel();
    this.drawPending = false;
    for (const button of this.view.querySelectorAll('[role=tab]')) {
      button.addEventListener('click', () => this.selectTab(button.dataset.tab, true));
      button.addEventListener('keydown', (e) => this.tabKeys(e));
    }
    fleet.onChange(() => this.key && this.renderHead());
  }

  configure(hello) {
    this.names = hello.series;
    this.capacity = hello.historyPoints;
  }

  open(node, device, port, tab) {
    const key = node + '/' + device + '/' + port;
    if (key !== this.key) {
      this.close();
      this.key = key;
      this.node = node;
      this.device = device;
      this.port = Number(port);
      this.data = new PortData(this.capacity);
      this.nodeInfo = null;
      this.charts = new PortCharts(byId('charts'), byId('charts-note'));
      this.live.watch([key]);
      this.phys.open(node, device, this.port);
      this.loadNode();
      this.refresh = setInterval(() => this.loadNode(), NODE_REFRESH_MILLIS);
      this.renderHead();
      this.renderGids();
      this.renderWorkloads();
      this.renderReporters();
      this.renderQos();
      this.renderCounters();
      this.renderRates();
    }
    this.view.hidden = false;
    this.selectTab(TABS.includes(tab) ? tab : 'charts', false);
  }

  close() {
    if (!this.key) return;
    clearInterval(this.refresh);
    this.charts.destroy();
    this.charts = null;
    this.key = null;
    this.live.watch([]);
    this.view.hidden = true;
  }

  restyle() {
    if (this.charts) this.charts.restyle(this.data);
  }

  selectTab(tab, fromUi) {
    this.tab = tab;
    for (const button of this.view.querySelectorAll('[role=tab]')) {
      const selected = button.dataset.tab === tab;
      button.setAttribute('aria-selected', String(selected));
      button.tabIndex = selected ? 0 : -1;
      byId('panel-' + button.dataset.tab).hidden = !selected;
    }
    if (fromUi) history.replaceState(null, '', this.href(tab));
    if (tab === 'charts') this.draw();
    if (tab === 'topology' && this.node) this.topology.open(this.node);
  }

  tabKeys(e) {
    const i = TABS.indexOf(this.tab);
    const next = e.key === 'ArrowRight' ? (i + 1) % TABS.length : e.key === 'ArrowLeft' ? (i + TABS.length - 1) % TABS.length : -1;
    if (next < 0) return;
    e.preventDefault();
    this.selectTab(TABS[next], true);
    byId('tab-' + TABS[next]).focus();
  }

  href(tab) {
    return portHref({node: this.node, device: this.device, port: this.port}) + (tab && tab !== 'charts' ? '/' + tab : '');
  }

  onPort(event) {
    if (event.key !== this.key) return;
    this.data.apply(event, this.names);
    this.draw();
    this.renderCounters();
    this.renderRates();
  }

  draw() {
    if (this.drawPending || !this.charts || this.tab !== 'charts') return;
    this.drawPending = true;
    requestAnimationFrame(() => {
      this.drawPending = false;
      if (this.charts) this.charts.update(this.data);
    });
  }

  async loadNode() {
    const key = this.key;
    try {
      const info = await getJson('/api/nodes/' + encodeURIComponent(this.node));
      if (key !== this.key) return;
      this.nodeInfo = info;
      this.renderHead();
      this.renderGids();
      this.renderWorkloads();
      this.renderReporters();
      this.renderQos();
      const {device, port} = this.portInfo();
      this.phys.update(device, port, Date.now());
      this.phys.loadEvents();
    } catch (e) {
      if (key === this.key && !(e instanceof AuthRequired)) {
        this.head.querySelector('.port-error')?.remove();
        this.head.append(text('p', e.message, 'port-error bad'));
      }
    }
  }

  portInfo() {
    const device = this.nodeInfo?.devices.find((d) => d.name === this.device);
    return {device, port: device?.ports.find((p) => p.port === this.port)};
  }

  renderHead() {
    const row = this.fleet.ports.get(this.key);
    const nodeRow = this.fleet.nodes.get(this.node);
    const {device, port} = this.portInfo();
    byId('crumbs').replaceChildren(text('span', this.node + ' › ' + this.device + ' › port ' + this.port));
    const facts = [
      ['State', row ? row.state : port?.state, (row ? row.active : port?.active) === false ? 'bad' : 'ok'],
      ['Physical', port?.physState],
      ['Rate', port?.rate || (row ? fmt.linkRate(row.rate) : null)],
      ['Link layer', row?.linkLayer || port?.linkLayer],
      ['Netdev', row?.netdev || port?.netdev],
      ['Cabled to', cabledTo(port)],
      ['RX', row ? fmt.bits(row.rx) + ' · ' + fmt.packets(row.rxp) : null],
      ['TX', row ? fmt.bits(row.tx) + ' · ' + fmt.packets(row.txp) : null],
      ['Lossless share', row ? fmt.percent(row.share) : null],
      ['Device', device ? [device.hcaType, device.fwVersion && 'fw ' + device.fwVersion].filter(Boolean).join(', ') : null],
      ['Agent', nodeRow ? (nodeRow.up ? 'up' : 'stale') + (nodeRow.connected ? '' : ', disconnected') : 'unknown node',
        nodeRow?.up ? 'ok' : 'bad'],
      ['Sources', ...sourcesFact(this.nodeInfo?.sources)],
    ];
    const h1 = text('h1', this.node + ' ' + this.device + '/' + this.port);
    const back = el('a', {href: '#/', className: 'back'}, '← Overview');
    const dl = el('dl', {className: 'facts'}, ...facts.map(([label, value, cls]) =>
      el('div', {}, text('dt', label), text('dd', value ?? '—', cls && value != null ? cls : ''))));
    const error = this.head.querySelector('.port-error');
    this.head.replaceChildren(back, h1, dl, ...(error ? [error] : []));
    const health = byId('node-health');
    renderDiagnoses(health, this.fleet.diagnosesFor(this.node, this.device, this.port), this.fleet.runbooks, false);
    if (!nodeRow) health.prepend(text('li', 'node not known to the collector', 'sev-critical'));
  }

  renderCounters() {
    const filter = this.counterSearch.value.toLowerCase();
    const tbody = document.querySelector('#counters-table tbody');
    const rows = (this.data?.moved || []).filter(([, name]) => name.toLowerCase().includes(filter)).map(
      ([group, name, perSecond, isBytes]) => el('tr', {}, text('td', group), text('td', name),
        text('td', fmt.count(perSecond), 'num'), text('td', isBytes ? fmt.mbps(perSecond) : '', 'num')));
    if (!rows.length) {
      rows.push(el('tr', {}, el('td', {className: 'muted', colSpan: 4},
        this.data?.time.length ? 'no counter moved in the last interval' : 'waiting for samples…')));
    }
    tbody.replaceChildren(...rows);
  }

  renderRates() {
    const s = this.data?.series || {};
    const lines = [
      ['RX bytes', s.rx_bytes, fmt.bytes], ['TX bytes', s.tx_bytes, fmt.bytes],
      ['RX packets', s.rx_packets, fmt.packets], ['TX packets', s.tx_packets, fmt.packets],
      ['TX bandwidth-limit drops', s.tx_bps_limit_drop_cnt, fmt.perSecond],
      ['RX bandwidth-limit drops', s.rx_bps_limit_drop_cnt, fmt.perSecond],
      ['TX packet-rate-limit drops', s.tx_pps_limit_drop_cnt, fmt.perSecond],
      ['RX packet-rate-limit drops', s.rx_pps_limit_drop_cnt, fmt.perSecond],
    ];
    const tbody = document.querySelector('#rates-table tbody');
    const rows = [];
    for (const [label, values, unit] of lines) {
      const known = (values || []).filter((v) => v != null);
      if (!known.length) continue;
      const sum = known.reduce((a, b) => a + b, 0);
      rows.push(el('tr', {}, el('th', {scope: 'row'}, label), text('td', unit(known[known.length - 1]), 'num'),
        text('td', unit(Math.max(...known)), 'num'), text('td', unit(sum / known.length), 'num'),
        text('td', unit(Math.min(...known)), 'num')));
    }
    if (!rows.length) rows.push(el('tr', {}, el('td', {className: 'muted', colSpan: 5}, 'waiting for samples…')));
    const span = this.data?.time.length ? this.data.time[this.data.time.length - 1] - this.data.time[0] : 0;
    const table = byId('rates-table');
    table.caption?.remove();
    table.createCaption().textContent = 'window ' + fmt.duration(span * 1000) + ' · rate-limit drop rows appear on eRDMA ports';
    tbody.replaceChildren(...rows);
  }

  renderGids() {
    const {port} = this.portInfo();
    const hint = byId('gid-hint');
    const tbody = document.querySelector('#gids-table tbody');
    if (!port) {
      hint.textContent = this.nodeInfo ? 'Port not found on this node.' : 'Loading…';
      tbody.replaceChildren();
      return;
    }
    const advice = port.gidAdvice;
    const truncated = port.gidsDropped > 0
      ? ` GID table truncated: the agent sent the first ${port.gids.length} entries, ${port.gidsDropped} more were left out.`
      : '';
    setText(hint, advice.text + truncated, 'hint ' + (advice.ok && !truncated ? 'ok' : 'bad'));
    tbody.replaceChildren(...port.gids.map((g) => el('tr', {className: g.index === advice.index ? 'recommended' : null},
      text('td', g.index, 'num'), text('td', g.gid, 'mono'), text('td', g.ipv4 || '—'), text('td', g.type || '—'),
      text('td', g.netdev || '—'))));
  }

  /**
   * Who holds the port's QPs (docs/workloads.md), as /api/nodes/{node} lists them: a pod as namespace/name (its UID
   * while the agent cannot name it), else the process; the reason shown beside a `none` or incomplete attribution.
   */
  renderWorkloads() {
    const {port} = this.portInfo();
    const hint = byId('workloads-hint');
    const tbody = document.querySelector('#workloads-table tbody');
    const workloads = port?.workloads;
    const empty = !port ? '' : workloads ? 'No QPs on this port.' : 'QPs not read (RDMA netlink on a live host only).';
    // the hint is styled as a note: hidden, not blank, while the table speaks
    hint.hidden = workloads?.length > 0 || !empty;
    if (!workloads || workloads.length === 0) {
      setText(hint, empty, 'hint muted');
      tbody.replaceChildren();
      return;
    }
    tbody.replaceChildren(...workloads.map((w) => el('tr', null,
      text('td', w.qps, 'num'),
      text('td', w.pod ? (w.namespace ? w.namespace + '/' : '') + w.pod + (w.container ? ' · ' + w.container : '')
        : (w.comm || '—')),
      text('td', w.attribution + (w.reason ? ': ' + w.reason : '')))));
  }

  /**
   * The devlink health reporters of the port's device (fw, fw_fatal) and of the port itself (tx, rx), as
   * /api/nodes/{node} lists them; a reporter in error is red.
   */
  renderReporters() {
    const hint = byId('reporters-hint');
    const tbody = document.querySelector('#reporters-table tbody');
    const all = this.nodeInfo?.healthReporters;
    const port = String(this.port);
    const mine = (all || []).filter((r) => r.device === this.device && (r.port == null || r.port === port));
    hint.hidden = mine.length > 0 || !this.nodeInfo;
    setText(hint, all ? 'No devlink health reporter on this port.' : 'No devlink health reported by the agent.', 'hint muted');
    tbody.replaceChildren(...mine.map((r) => el('tr', {className: r.state === 'error' ? 'bad' : null},
      text('td', r.reporter), text('td', r.handle, 'mono'), text('td', r.state, r.state === 'error' ? 'sev-critical' : 'ok'),
      text('td', r.errors, 'num'), text('td', r.recovers, 'num'))));
  }

  /** Trust, the PFC row, the DSCPs of the lossless priorities and ETS, as the API reports them (no rule logic here). */
  renderQos() {
    const {port} = this.portInfo();
    const hint = byId('qos-hint');
    const tbody = document.querySelector('#qos-table tbody');
    const qos = port?.qos;
    if (!qos) {
      const [message, cls] = port ? missingQosHint(this.nodeInfo.sources, port.netdev) : ['', 'muted'];
      setText(hint, message, 'hint ' + cls);
      tbody.replaceChildren();
      return;
    }
    const lossless = port.lossless.priorities;
    const dscps = lossless.map((p) => 'priority ' + p + ': DSCP ' + ((qos.losslessDscps[p] || []).join(',') || '—'));
    setText(hint, 'trust ' + qos.trust + ' · lossless ' + (lossless.length ? lossless.join(',') : 'none')
      + ' (from ' + port.lossless.source + ') · ' + (dscps.join(' · ') || 'no lossless priority')
      + ' · read via ' + qos.source, 'hint ' + (qos.trust === 'dscp' && lossless.length ? 'ok' : 'bad'));
    const row = (label, cells) => el('tr', {}, text('th', label), ...cells.map((c) => text('td', c, 'num')));
    const rows = [];
    if (qos.pfc) rows.push(row('PFC', qos.pfc.map((on) => (on ? '1' : '0'))));
    if (qos.priorityTc) rows.push(row('TC', qos.priorityTc.map(String)));
    if (qos.priorityTc && qos.tcBandwidthPercent) {
      rows.push(row('TC bw / tsa', qos.priorityTc.map((tc) => qos.tcBandwidthPercent[tc] + '% ' + qos.tcTsa[tc])));
    }
    if (qos.ecn) rows.push(row('ECN np/rp', [0, 1, 2, 3, 4, 5, 6, 7].map((p) =>
      (qos.ecn.np[p] === undefined ? '—' : qos.ecn.np[p] ? '1' : '0') + '/' + (qos.ecn.rp[p] === undefined ? '—' : qos.ecn.rp[p] ? '1' : '0'))));
    tbody.replaceChildren(...rows);
  }
}
