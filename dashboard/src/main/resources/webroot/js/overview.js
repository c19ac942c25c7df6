// Fleet overview: one row per port, virtualised. Only the rows in view exist in the DOM; an update
// rewrites the cells of visible rows whose data version changed, nothing else.

import * as fmt from './format.js';
import {renderDiagnoses} from './diagnoses.js';
import {byId, el, measure, text} from './dom.js';
import {portHref} from './links.js';
import {ber, marginDb} from './phys.js';
import {searchText} from './fleet.js';

const ROW_HEIGHT = 30;
const OVERSCAN = 8;

const COLUMNS = [
  {id: 'health', title: 'Diagnosis', sort: (r) => -r.severity, cell: healthCell},
  {id: 'node', title: 'Node', sort: (r) => r.node, cell: nodeCell},
  {id: 'port', title: 'Port', sort: (r) => r.device + '/' + String(r.port).padStart(3, '0'),
    text: (r) => r.device + '/' + r.port},
  {id: 'netdev', title: 'Netdev', sort: (r) => r.netdev, text: (r) => r.netdev || '—'},
  {id: 'state', title: 'State', sort: (r) => r.state, text: (r) => r.state, cls: (r) => r.active ? 'ok' : 'bad'},
  {id: 'layer', title: 'Link layer', sort: (r) => r.linkLayer, text: (r) => r.linkLayer},
  {id: 'rate', title: 'Rate', sort: (r) => -(r.rate ?? -1), text: (r) => fmt.linkRate(r.rate), num: true},
  {id: 'rx', title: 'RX', sort: (r) => -(r.rx ?? -1), text: (r) => fmt.bits(r.rx), num: true},
  {id: 'tx', title: 'TX', sort: (r) => -(r.tx ?? -1), text: (r) => fmt.bits(r.tx), num: true},
  {id: 'ber', title: 'Pre-FEC BER', sort: (r) => -(r.ber ?? -1), text: (r) => ber(r.ber), num: true},
  {id: 'margin', title: 'Rx margin', sort: (r) => r.rxMargin ?? Infinity, text: (r) => marginDb(r.rxMargin), num: true,
    cls: (r) => r.rxMargin != null && r.rxMargin < 0 ? 'bad' : '',
    help: "Worst lane's Rx power above the module's own low warning threshold (negative: below it)"},
  {id: 'share', title: 'Lossless share', sort: (r) => r.share ?? 2, text: (r) => fmt.percent(r.share), num: true,
    cls: (r) => r.share != null && r.share < 0.5 && (r.tx ?? 0) > 0 ? 'bad' : '',
    help: 'Share of transmitted per-priority bytes on PFC-enabled priorities'},
];

/** The badge the collector sent: the worst diagnosis' rule and how many more; every one with its evidence on hover. */
function healthCell(td, r) {
  const badge = r.badge;
  td.className = 'cell c-health';
  td.title = badge ? badge.issues.map((d) => d.rule + ': ' + d.evidence).join('\n') : '';
  td.replaceChildren(text('span', badge ? badge.issues[0].rule : 'ok', 'badge sev-' + (badge ? badge.severity : 'ok')));
  if (badge && badge.count > 1) td.append(' +' + (badge.count - 1));
}

function nodeCell(td, r) {
  const a = td.firstChild || td.appendChild(el('a'));
  a.href = portHref(r);
  a.textContent = r.node;
}

export class Overview {
  constructor(fleet, {onQueryChange}) {
    this.fleet = fleet;
    this.onQueryChange = onQueryChange;
    this.sortColumn = 'health';
    this.sortAscending = true;
    this.query = '';
    this.filter = 'all';
    this.rows = [];
    this.pool = [];
    this.scroll = byId('grid-scroll');
    this.canvas = byId('grid-canvas');
    this.search = byId('search');
    this.filterSelect = byId('filter');
    this.count = byId('row-count');
    this.summary = byId('summary');
    this.healthList = byId('health-list');
    this.dirty = false;
    this.buildHead();
    this.scroll.addEventListener('scroll', () => this.render());
    new ResizeObserver(() => this.render()).observe(this.scroll);
    this.search.addEventListener('input', () => this.setQuery(this.search.value, this.filter, true));
    this.filterSelect.addEventListener('change', () => this.setQuery(this.query, this.filterSelect.value, true));
    fleet.onChange(() => this.invalidate());
  }

  buildHead() {
    const head = byId('grid-head');
    for (const col of COLUMNS) {
      const button = el('button', {type: 'button', title: col.help}, col.title);
      button.addEventListener('click', () => {
        this.sortAscending = this.sortColumn === col.id ? !this.sortAscending : true;
        this.sortColumn = col.id;
        this.invalidate();
      });
      col.head = head.appendChild(el('div', {className: 'cell c-' + col.id + (col.num ? ' num' : ''), role: 'columnheader'},
        button));
    }
  }

  /** Search text and filter, from the UI or from the URL. */
  setQuery(query, filter, fromUi) {
    this.query = query;
    this.filter = filter;
    if (this.search.value !== query) this.search.value = query;
    if (this.filterSelect.value !== filter) this.filterSelect.value = filter;
    if (fromUi) this.onQueryChange(query, filter);
    this.invalidate();
  }

  invalidate() {
    if (this.dirty) return;
    this.dirty = true;
    requestAnimationFrame(() => {
      const started = performance.now();
      this.dirty = false;
      this.recompute();
      this.render();
      measure('overview-update', performance.now() - started);
    });
  }

  matches(r, notGdrReady) {
    switch (this.filter) {
      case 'gdr': return notGdrReady.has(r.node);
      case 'problems': return r.severity > 0;
      case 'down': return !r.active;
      case 'stale': return !r.up;
      case 'roce': return r.transport === 'roce';
      case 'ib': return r.transport === 'infiniband';
      default: return true;
    }
  }

  recompute() {
    const terms = this.query.toLowerCase().split(/\s+/).filter(Boolean);
    // a node is not GPUDirect-ready while any of its GPU/NIC pairs is diagnosed so (the rule is raised on NIC ports)
    const notGdrReady = new Set(this.fleet.diagnoses.filter((d) => d.rule === 'gpudirect_not_ready').map((d) => d.node));
    const rows = [];
    for (const r of this.fleet.ports.values()) {
      if (this.matches(r, notGdrReady) && (terms.length === 0 || terms.every((t) => searchText(r).includes(t)))) rows.push(r);
    }
    const col = COLUMNS.find((c) => c.id === this.sortColumn);
    const dir = this.sortAscending ? 1 : -1;
    rows.sort((a, b) => {
      const x = col.sort(a);
      const y = col.sort(b);
      if (x < y) return -dir;
      if (x > y) return dir;
      return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    });
    this.rows = rows;
    this.canvas.style.height = rows.length * ROW_HEIGHT + 'px';
    this.count.textContent = rows.length + ' of ' + this.fleet.ports.size + ' ports';
    for (const c of COLUMNS) {
      c.head.setAttribute('aria-sort', c.id === this.sortColumn ? (this.sortAscending ? 'ascending' : 'descending') : 'none');
    }
    this.renderSummary();
  }

  render() {
    const height = this.scroll.clientHeight || 600;
    const first = Math.max(0, Math.floor(this.scroll.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const visible = Math.ceil(height / ROW_HEIGHT) + 2 * OVERSCAN;
    while (this.pool.length < visible) this.pool.push(this.newRow());
    for (let i = 0; i < this.pool.length; i++) {
      const slot = this.pool[i];
      const row = this.rows[first + i];
      if (!row || i >= visible) {
        if (!slot.hidden) slot.hidden = true;
        slot.rowKey = null;
        continue;
      }
      slot.hidden = false;
      slot.style.transform = 'translateY(' + (first + i) * ROW_HEIGHT + 'px)';
      if (slot.rowKey === row.key && slot.rowVer === row.ver) continue;
      slot.rowKey = row.key;
      slot.rowVer = row.ver;
      slot.dataset.key = row.key;
      COLUMNS.forEach((col, c) => {
        const td = slot.children[c];
        if (col.cell) {
          col.cell(td, row);
        } else {
          td.textContent = col.text(row);
          td.className = 'cell c-' + col.id + (col.num ? ' num' : '') + (col.cls ? ' ' + col.cls(row) : '');
        }
      });
    }
  }

  newRow() {
    const row = el('div', {className: 'vt-row', role: 'row', hidden: true},
      ...COLUMNS.map((col) => el('div', {className: 'cell c-' + col.id, role: 'cell'})));
    row.addEventListener('click', (e) => {
      if (e.target.tagName !== 'A' && row.rowKey) location.hash = row.querySelector('a').getAttribute('href');
    });
    this.canvas.appendChild(row);
    return row;
  }

  renderSummary() {
    let up = 0;
    let stale = 0;
    for (const node of this.fleet.nodes.values()) {
      if (node.up) up++;
      else stale++;
    }
    const critical = this.fleet.diagnoses.filter((d) => d.severity === 'critical').length;
    let active = 0;
    let notActive = 0;
    for (const r of this.fleet.ports.values()) {
      if (r.active) active++;
      else notActive++;
    }
    this.summary.replaceChildren(
      stat('nodes', this.fleet.nodes.size), stat('up', up), stat('stale', stale, stale > 0),
      stat('ports', this.fleet.ports.size), stat('active', active), stat('not active', notActive, notActive > 0),
      stat('diagnoses', this.fleet.diagnosesTotal, this.fleet.diagnosesTotal > 0),
      stat('critical', critical, critical > 0));
    renderDiagnoses(this.healthList, this.fleet.diagnoses, this.fleet.runbooks, true);
    if (this.fleet.diagnosesTotal > this.fleet.diagnoses.length) {
      this.healthList.append(text('li', (this.fleet.diagnosesTotal - this.fleet.diagnoses.length)
        + ' more: GET /api/diagnoses', 'muted'));
    }
  }
}

function stat(label, value, bad) {
  return el('span', {className: 'stat' + (bad ? ' bad' : '')}, text('b', value), ' ', label);
}
