// The InfiniBand fabric (#/fabric[?subnet=S][&link=<guid>/<port>], docs/dashboard.md): GET /api/fabric drawn as one
// SVG, nodes in rows by tier (spines on top, then leaves, then hosts), each link a line coloured by its worst verdict;
// clicking a link shows both ends' counters over the last sweeps (GET /api/fabric/link). Node descriptions come from
// the hosts and switches, so they are only ever set as text (dom.js), never as markup.

import {getJson, AuthRequired} from './api.js';
import {byId, el, text, measure} from './dom.js';
import * as fmt from './format.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Rows from the top: tier 2 (spines), 1 (leaves), 0 (hosts); docs/collector.md's `tier`. */
const TIERS = [2, 1, 0];
const TIER_NAMES = {2: 'spines', 1: 'leaves', 0: 'hosts'};
/** A link's colour class by its verdicts: a cable losing bits or gone is red, a slow or congested one amber. */
const RULE_CLASS = {fabric_link_down: 'bad', fabric_cable_errors: 'bad', fabric_link_degraded: 'warn',
  fabric_congestion: 'warn'};
/** The view's coordinate space: a row's nodes are spread over WIDTH, the rows ROW_GAP apart. */
const WIDTH = 1000;
const ROW_GAP = 120;
const MARGIN = 20;
/** The view reads the fabric again this often while open: a sweeper sends counters every 15 s by default. */
const REFRESH_MILLIS = 15_000;

const svg = (tag, attrs) => {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, String(value));
  return node;
};

export const fabricHref = (subnet, link) => {
  const params = new URLSearchParams();
  if (subnet) params.set('subnet', subnet);
  if (link) params.set('link', link);
  const query = params.toString();
  return '#/fabric' + (query ? '?' + query : '');
};

/** The colour class of a link: its worst verdict's, else `down` or `ok`. */
export function linkClass(link) {
  const classes = (link.verdicts || []).map((rule) => RULE_CLASS[rule] || 'warn');
  if (classes.includes('bad')) return 'bad';
  if (classes.length) return 'warn';
  return link.up ? 'ok' : 'down';
}

/** Each node's position: nodes of a tier in one row, in the order the collector lists them. */
export function layout(nodes) {
  const rows = new Map(TIERS.map((t) => [t, []]));
  for (const node of nodes) (rows.get(node.tier) || rows.get(0)).push(node);
  const used = TIERS.filter((t) => rows.get(t).length);
  const positions = new Map();
  used.forEach((tier, row) => {
    const members = rows.get(tier);
    const step = (WIDTH - 2 * MARGIN) / members.length;
    members.forEach((node, i) => positions.set(node.guid, {x: MARGIN + step * (i + 0.5), y: MARGIN + row * ROW_GAP, tier}));
  });
  return {positions, rows: used.map((t) => ({tier: t, count: rows.get(t).length})),
    height: 2 * MARGIN + Math.max(0, used.length - 1) * ROW_GAP};
}

const endName = (end) => (end.description || end.guid) + ' port ' + end.port;
const endKey = (end) => end.guid + '/' + end.port;

export class Fabric {
  constructor() {
    this.view = byId('fabric-view');
    this.generation = 0;
    byId('fab-subnet').addEventListener('change', (e) => { location.hash = fabricHref(e.target.value); });
  }

  /**
   * Shows the fabric of `subnet` (the first when not given) and, when given, the link at `linkEnd` (guid/port). A link
   * opened on the fabric already drawn does not read the fabric again (at 2,000 hosts that is a second or more); the
   * timer does, every REFRESH_MILLIS.
   */
  async open(subnet, linkEnd, refresh) {
    const drawn = !this.view.hidden && this.shown && (this.shown === subnet || !subnet);
    this.view.hidden = false;
    this.wanted = {subnet, linkEnd}; // what the timer reads again
    if (drawn && !refresh) {
      const generation = ++this.generation;
      if (linkEnd) await this.showLink(this.shown, linkEnd, generation);
      else byId('fab-link').replaceChildren();
      return;
    }
    const generation = ++this.generation;
    clearTimeout(this.timer);
    this.shown = null;
    const status = byId('fab-status');
    status.textContent = 'Loading…';
    try {
      const answer = await getJson('/api/fabric');
      if (generation !== this.generation) return;
      const fabrics = answer.fabrics || [];
      this.renderPicker(fabrics, subnet);
      if (!fabrics.length) {
        status.textContent = 'no fabric swept yet (run an agent with --fabric)';
        byId('fab-map').replaceChildren();
        byId('fab-link').replaceChildren();
        byId('fab-flagged').replaceChildren();
        return;
      }
      const fabric = fabrics.find((f) => f.subnet === subnet) || fabrics[0];
      const started = performance.now();
      this.render(fabric);
      this.shown = fabric.subnet;
      measure('fabric-render', performance.now() - started);
      status.textContent = fabric.nodes.length + ' nodes, ' + fabric.links.length + ' links; last sweep '
        + (fabric.lastSweepMillis ? fmt.clock(fabric.lastSweepMillis) : '—') + (fabric.stale ? ' (stale: no sweeper)' : '');
      if (linkEnd) await this.showLink(fabric.subnet, linkEnd, generation);
      else byId('fab-link').replaceChildren();
    } catch (e) {
      if (e instanceof AuthRequired || generation !== this.generation) return;
      status.textContent = 'Fabric not available: ' + e.message;
    } finally {
      if (generation === this.generation) {
        this.timer = setTimeout(() => this.open(this.wanted.subnet, this.wanted.linkEnd, true), REFRESH_MILLIS);
      }
    }
  }

  close() {
    this.view.hidden = true;
    this.shown = null;
    this.generation++;
    clearTimeout(this.timer);
  }

  renderPicker(fabrics, subnet) {
    const picker = byId('fab-subnet');
    picker.replaceChildren(...fabrics.map((f) => el('option', {value: f.subnet}, f.subnet)));
    picker.value = subnet && fabrics.some((f) => f.subnet === subnet) ? subnet : (fabrics[0] || {}).subnet || '';
    byId('fab-picker').hidden = fabrics.length < 2;
  }

  render(fabric) {
    const {positions, rows, height} = layout(fabric.nodes);
    const map = svg('svg', {viewBox: `0 0 ${WIDTH} ${height}`, role: 'img', 'aria-label': 'fabric by tier',
      preserveAspectRatio: 'none', class: 'fabric-map'});
    map.style.height = Math.max(80, height) + 'px';
    const lines = svg('g', {class: 'fab-links'});
    for (const link of fabric.links) {
      const a = positions.get(link.a.guid);
      const b = positions.get(link.b.guid);
      if (!a || !b) continue;
      const line = svg('line', {x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: 'fab-link ' + linkClass(link),
        'data-link': link.id, 'data-end': endKey(link.a)});
      const title = svg('title');
      title.textContent = endName(link.a) + ' ↔ ' + endName(link.b)
        + ((link.verdicts || []).length ? ' — ' + link.verdicts.join(', ') : '');
      line.append(title);
      lines.append(line);
    }
    const dots = svg('g', {class: 'fab-nodes'});
    for (const node of fabric.nodes) {
      const at = positions.get(node.guid);
      const dot = svg('circle', {cx: at.x, cy: at.y, r: node.tier === 0 ? 3 : 6, class: 'fab-node tier-' + at.tier,
        'data-guid': node.guid, 'data-tier': at.tier});
      const title = svg('title');
      title.textContent = (node.description || node.guid) + ' (' + node.type + ', ' + node.guid + ')';
      dot.append(title);
      dots.append(dot);
    }
    map.append(lines, dots);
    map.addEventListener('click', (e) => {
      const end = e.target.closest && e.target.closest('.fab-link');
      if (end) location.hash = fabricHref(fabric.subnet, end.dataset.end);
    });
    byId('fab-rows').replaceChildren(...rows.map((r) => text('li', r.count + ' ' + TIER_NAMES[r.tier], 'tier-' + r.tier)));
    byId('fab-map').replaceChildren(map);
    this.renderFlagged(fabric);
  }

  /** The links with a verdict as a list: each one can be opened without finding its line. */
  renderFlagged(fabric) {
    const flagged = fabric.links.filter((l) => (l.verdicts || []).length);
    byId('fab-flagged').replaceChildren(...flagged.map((link) => el('li', {'data-link': link.id},
      el('a', {href: fabricHref(fabric.subnet, endKey(link.a)), className: linkClass(link)},
        endName(link.a) + ' ↔ ' + endName(link.b)), ' ', ...link.verdicts.map((rule) => text('span', rule, 'badge')))));
  }

  async showLink(subnet, end, generation) {
    const slash = end.lastIndexOf('/');
    const params = new URLSearchParams({subnet, guid: end.slice(0, slash), port: end.slice(slash + 1)});
    const panel = byId('fab-link');
    try {
      const answer = await getJson('/api/fabric/link?' + params);
      if (generation !== this.generation) return;
      const {a, b} = answer.link;
      panel.replaceChildren(el('h2', {}, endName(a) + ' ↔ ' + endName(b)),
        ...[a, b].map((side) => this.endTable(side, answer.times, answer.ends[endKey(side)] || {})));
      panel.dataset.link = answer.link.id;
    } catch (e) {
      if (e instanceof AuthRequired || generation !== this.generation) return;
      panel.replaceChildren(text('p', 'Link not available: ' + e.message, 'muted'));
    }
  }

  /** One end's counters: a row per counter, a column per sweep (oldest first). */
  endTable(end, times, counters) {
    const head = el('tr', {}, text('th', 'counter'), ...times.map((t) => text('th', fmt.clock(t), 'num')));
    const body = Object.entries(counters).map(([name, values]) => el('tr', {'data-counter': name}, text('th', name),
      ...values.map((v) => text('td', v == null ? '—' : String(v), 'num'))));
    return el('table', {className: 'fab-end', 'data-end': endKey(end)},
      el('caption', {}, endName(end)), el('thead', {}, head), el('tbody', {}, ...body));
  }
}
