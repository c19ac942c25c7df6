// Fleet overview: one row per port, virtualised. Only the rows in view exist in the DOM; an update
// rewrites the cells of visible rows whose data version changed, nothing else.

import * as fmt from './format.js';

const ROW_HEIGHT = 30;
const OVERSCAN = 8;

export const portHref = (row) =>
  '#/port/' + [row.node, row.device, row.port].map(encodeURIComponent).join('/');

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
  {id: 'share', title: 'Lossless share', sort: (r) => r.share ?? 2, text: (r) => fmt.percent(r.share), num: true,
    cls: (r) => r.share != null && r.share < 0.5 && (r.tx ?? 0) > 0 ? 'bad' : '',
    help: 'Share of transmitted per-priority bytes on PFC-enabled priorities'},
];

/** The badge of a port: its worst diagnosis' rule and how many more; every one with its evidence on hover. */
function healthCell(td, r) {
  const worst = r.issues[0];
  td.className = 'cell c-health';
  td.title = r.issues.map((d) => d.rule + ': ' + d.evidence).join('\n');
  const badge = document.createElement('span');
  badge.className = 'badge sev-' + (worst ? worst.severity : 'ok');
  badge.textContent = worst ? worst.rule : 'ok';
  td.replaceChildren(badge);
  if (r.issues.length > 1) td.append(' +' + (r.issues.length - 1));
}

function nodeCell(td, r) {
  let a = td.firstChild;
  if (!a) {
    a = document.createElement('a');
    td.appendChild(a);
  }
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
    this.scroll = document.getElementById('grid-scroll');
    this.canvas = document.getElementById('grid-canvas');
    this.search = document.getElementById('search');
    this.filterSelect = document.getElementById('filter');
    this.count = document.getElementById('row-count');
    this.summary = document.getElementById('summary');
    this.healthList = document.getElementById('health-list');
    this.dirty = false;
    this.buildHead();
    this.scroll.addEventListener('scroll', () => this.render());
    new ResizeObserver(() => this.render()).observe(this.scroll);
    this.search.addEventListener('input', () => this.setQuery(this.search.value, this.filter, true));
    this.filterSelect.addEventListener('change', () => this.setQuery(this.query, this.filterSelect.value, true));
    fleet.onChange(() => this.invalidate());
  }

  buildHead() {
    const head = document.getElementById('grid-head');
    for (const col of COLUMNS) {
      const cell = document.createElement('div');
      cell.className = 'cell c-' + col.id + (col.num ? ' num' : '');
      cell.setAttribute('role', 'columnheader');
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = col.title;
      if (col.help) button.title = col.help;
      button.addEventListener('click', () => {
        this.sortAscending = this.sortColumn === col.id ? !this.sortAscending : true;
        this.sortColumn = col.id;
        this.invalidate();
      });
      cell.appendChild(button);
      head.appendChild(cell);
      col.head = cell;
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
      this.dirty = false;
      this.recompute();
      this.render();
    });
  }

  matches(r) {
    switch (this.filter) {
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
    const rows = [];
    for (const r of this.fleet.ports.values()) {
      if (this.matches(r) && terms.every((t) => r.text.includes(t))) rows.push(r);
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
      const el = this.pool[i];
      const row = this.rows[first + i];
      if (!row || i >= visible) {
        if (!el.hidden) el.hidden = true;
        el.rowKey = null;
        continue;
      }
      el.hidden = false;
      el.style.transform = 'translateY(' + (first + i) * ROW_HEIGHT + 'px)';
      if (el.rowKey === row.key && el.rowVer === row.ver) continue;
      el.rowKey = row.key;
      el.rowVer = row.ver;
      el.dataset.key = row.key;
      COLUMNS.forEach((col, c) => {
        const td = el.children[c];
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
    const el = document.createElement('div');
    el.className = 'vt-row';
    el.setAttribute('role', 'row');
    el.hidden = true;
    for (const col of COLUMNS) {
      const td = document.createElement('div');
      td.setAttribute('role', 'cell');
      td.className = 'cell c-' + col.id;
      el.appendChild(td);
    }
    el.addEventListener('click', (e) => {
      if (e.target.tagName !== 'A' && el.rowKey) location.hash = el.querySelector('a').getAttribute('href');
    });
    this.canvas.appendChild(el);
    return el;
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
      const li = document.createElement('li');
      li.className = 'muted';
      li.textContent = (this.fleet.diagnosesTotal - this.fleet.diagnoses.length) + ' more: GET /api/diagnoses';
      this.healthList.appendChild(li);
    }
  }
}

function stat(label, value, bad) {
  const el = document.createElement('span');
  el.className = 'stat' + (bad ? ' bad' : '');
  el.innerHTML = '<b></b> ';
  el.firstChild.textContent = value;
  el.append(label);
  return el;
}

/**
 * Fills a list with diagnoses as the engine sorts them (critical first, then the oldest): severity, rule,
 * place (a link to the port), since when, evidence, and the runbook text with a link to its page.
 */
export function renderDiagnoses(list, diagnoses, runbooks, withPlace) {
  const items = diagnoses.slice(0, 200).map((d) => {
    const li = document.createElement('li');
    li.className = 'diag sev-' + d.severity;
    li.dataset.rule = d.rule;
    li.dataset.node = d.node;
    const head = document.createElement('div');
    const badge = document.createElement('span');
    badge.className = 'badge sev-' + d.severity;
    badge.textContent = d.severity;
    const rule = document.createElement('code');
    rule.className = 'rule';
    rule.textContent = d.rule;
    head.append(badge, ' ', rule);
    const where = document.createElement('div');
    where.className = 'where';
    if (withPlace) {
      const a = document.createElement('a');
      if (d.scope === 'node') {
        a.href = '#/?q=' + encodeURIComponent(d.node);
        a.textContent = d.node;
      } else {
        a.href = portHref(d);
        a.textContent = d.node + ' ' + d.device + '/' + d.port;
      }
      where.append(a, ' · ');
    } else if (d.scope === 'port') {
      where.append(d.device + '/' + d.port + ' · ');
    }
    where.append('since ' + fmt.clock(d.sinceMillis) + ' (' + fmt.duration(Date.now() - d.sinceMillis) + ')');
    where.title = d.since;
    const evidence = document.createElement('div');
    evidence.className = 'evidence';
    evidence.textContent = d.evidence;
    li.append(head, where, evidence);
    const book = runbooks[d.rule];
    if (book) {
      const details = document.createElement('details');
      const summary = document.createElement('summary');
      summary.textContent = 'Runbook';
      const text = document.createElement('p');
      text.className = 'runbook';
      text.textContent = book.runbook;
      const link = document.createElement('a');
      link.href = book.runbookUrl;
      link.target = '_blank';
      link.rel = 'noopener';
      link.textContent = book.runbookPath;
      details.append(summary, text, link);
      li.appendChild(details);
    }
    return li;
  });
  if (!items.length) {
    const li = document.createElement('li');
    li.className = 'sev-ok none';
    li.textContent = 'no active diagnoses';
    items.push(li);
  }
  list.replaceChildren(...items);
}
