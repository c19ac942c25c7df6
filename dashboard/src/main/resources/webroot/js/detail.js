// Port detail: live charts, the counters that moved, eadm-stat style rates, the GID table, and the
// node's health. Series arrive over the push channel (history first, then each new point).

import * as fmt from './format.js';
import {getJson, AuthRequired} from './api.js';
import {PortCharts} from './charts.js';
import {renderDiagnoses, portHref} from './overview.js';

const TABS = ['charts', 'counters', 'rates', 'gids'];
const NODE_REFRESH_MILLIS = 10000;

/** Points of one port: time in seconds (uPlot's unit), one array per series; at most `capacity`. */
class PortData {
  constructor(capacity) {
    this.capacity = capacity;
    this.time = [];
    this.series = {};
    this.moved = [];
  }

  apply(event, names) {
    if (event.reset) {
      this.time = [];
      this.series = {};
    }
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
}

export class Detail {
  constructor(live, fleet) {
    this.live = live;
    this.fleet = fleet;
    this.key = null;
    this.names = [];
    this.capacity = 900;
    this.view = document.getElementById('detail-view');
    this.head = document.getElementById('port-head');
    this.counterSearch = document.getElementById('counter-search');
    this.counterSearch.addEventListener('input', () => this.renderCounters());
    this.charts = null;
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
      this.charts = new PortCharts(document.getElementById('charts'), document.getElementById('charts-note'));
      this.live.watch([key]);
      this.loadNode();
      this.refresh = setInterval(() => this.loadNode(), NODE_REFRESH_MILLIS);
      this.renderHead();
      this.renderGids();
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
      document.getElementById('panel-' + button.dataset.tab).hidden = !selected;
    }
    if (fromUi) history.replaceState(null, '', this.href(tab));
    if (tab === 'charts') this.draw();
  }

  tabKeys(e) {
    const i = TABS.indexOf(this.tab);
    const next = e.key === 'ArrowRight' ? (i + 1) % TABS.length : e.key === 'ArrowLeft' ? (i + TABS.length - 1) % TABS.length : -1;
    if (next < 0) return;
    e.preventDefault();
    this.selectTab(TABS[next], true);
    document.getElementById('tab-' + TABS[next]).focus();
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
    } catch (e) {
      if (key === this.key && !(e instanceof AuthRequired)) {
        this.head.querySelector('.port-error')?.remove();
        const p = document.createElement('p');
        p.className = 'port-error bad';
        p.textContent = e.message;
        this.head.appendChild(p);
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
    const crumbs = document.getElementById('crumbs');
    crumbs.replaceChildren(text('span', this.node + ' › ' + this.device + ' › port ' + this.port));
    const facts = [
      ['State', row ? row.state : port?.state, (row ? row.active : port?.active) === false ? 'bad' : 'ok'],
      ['Physical', port?.physState],
      ['Rate', port?.rate || (row ? fmt.linkRate(row.rate) : null)],
      ['Link layer', row?.linkLayer || port?.linkLayer],
      ['Netdev', row?.netdev || port?.netdev],
      ['RX', row ? fmt.bits(row.rx) + ' · ' + fmt.packets(row.rxp) : null],
      ['TX', row ? fmt.bits(row.tx) + ' · ' + fmt.packets(row.txp) : null],
      ['Lossless share', row ? fmt.percent(row.share) : null],
      ['Device', device ? [device.hcaType, device.fwVersion && 'fw ' + device.fwVersion].filter(Boolean).join(', ') : null],
      ['Agent', nodeRow ? (nodeRow.up ? 'up' : 'stale') + (nodeRow.connected ? '' : ', disconnected') : 'unknown node',
        nodeRow?.up ? 'ok' : 'bad'],
    ];
    const h1 = text('h1', this.node + ' ' + this.device + '/' + this.port);
    const back = document.createElement('a');
    back.href = '#/';
    back.className = 'back';
    back.textContent = '← Overview';
    const dl = document.createElement('dl');
    dl.className = 'facts';
    for (const [label, value, cls] of facts) {
      const div = document.createElement('div');
      div.append(text('dt', label), text('dd', value ?? '—', cls && value != null ? cls : ''));
      dl.appendChild(div);
    }
    const error = this.head.querySelector('.port-error');
    this.head.replaceChildren(back, h1, dl, ...(error ? [error] : []));
    const health = document.getElementById('node-health');
    renderDiagnoses(health, this.fleet.diagnosesFor(this.node, this.device, this.port), this.fleet.runbooks, false);
    if (!nodeRow) {
      const li = document.createElement('li');
      li.className = 'sev-critical';
      li.textContent = 'node not known to the collector';
      health.prepend(li);
    }
  }

  renderCounters() {
    const filter = this.counterSearch.value.toLowerCase();
    const tbody = document.querySelector('#counters-table tbody');
    const rows = (this.data?.moved || []).filter(([, name]) => name.toLowerCase().includes(filter)).map(
      ([group, name, perSecond, isBytes]) => {
        const tr = document.createElement('tr');
        tr.append(text('td', group), text('td', name), text('td', fmt.count(perSecond), 'num'),
          text('td', isBytes ? fmt.mbps(perSecond) : '', 'num'));
        return tr;
      });
    if (!rows.length) {
      const tr = document.createElement('tr');
      tr.append(text('td', this.data?.time.length ? 'no counter moved in the last interval' : 'waiting for samples…', 'muted'));
      tr.firstChild.colSpan = 4;
      rows.push(tr);
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
      const tr = document.createElement('tr');
      tr.append(text('th', label), text('td', unit(known[known.length - 1]), 'num'),
        text('td', unit(Math.max(...known)), 'num'), text('td', unit(sum / known.length), 'num'),
        text('td', unit(Math.min(...known)), 'num'));
      tr.firstChild.scope = 'row';
      rows.push(tr);
    }
    if (!rows.length) {
      const tr = document.createElement('tr');
      tr.append(text('td', 'waiting for samples…', 'muted'));
      tr.firstChild.colSpan = 5;
      rows.push(tr);
    }
    const span = this.data?.time.length ? this.data.time[this.data.time.length - 1] - this.data.time[0] : 0;
    document.querySelector('#rates-table').caption?.remove();
    const caption = document.querySelector('#rates-table').createCaption();
    caption.textContent = 'window ' + fmt.duration(span * 1000) + ' · rate-limit drop rows appear on eRDMA ports';
    tbody.replaceChildren(...rows);
  }

  renderGids() {
    const {port} = this.portInfo();
    const hint = document.getElementById('gid-hint');
    const tbody = document.querySelector('#gids-table tbody');
    if (!port) {
      hint.textContent = this.nodeInfo ? 'Port not found on this node.' : 'Loading…';
      tbody.replaceChildren();
      return;
    }
    const advice = port.gidAdvice;
    hint.textContent = advice.text;
    hint.className = 'hint ' + (advice.ok ? 'ok' : 'bad');
    tbody.replaceChildren(...port.gids.map((g) => {
      const tr = document.createElement('tr');
      if (g.index === advice.index) tr.className = 'recommended';
      tr.append(text('td', String(g.index), 'num'), text('td', g.gid, 'mono'), text('td', g.ipv4 || '—'),
        text('td', g.type || '—'), text('td', g.netdev || '—'));
      return tr;
    }));
  }
}

function text(tag, value, cls) {
  const el = document.createElement(tag);
  el.textContent = value;
  if (cls) el.className = cls;
  return el;
}
