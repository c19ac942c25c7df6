// The fleet's change log (#/timeline[?node=N&kind=K&severity=S], docs/dashboard.md): GET /api/events, newest first,
// then every `change` event of the live feed put on top. The port page's "Changes" panel (PortChanges) is the same
// list for one port. Text from hosts is only ever set as text (dom.js), never as markup.

import {getJson, AuthRequired} from './api.js';
import {byId, el, text} from './dom.js';
import {portHref} from './links.js';
import * as fmt from './format.js';

/** The kinds of GET /api/events (docs/collector.md "Change log"), in the order the filter lists them. */
export const KINDS = ['link_flap', 'link_state', 'device_vanished', 'device_appeared', 'module_inserted',
  'module_removed', 'module_swapped', 'firmware_changed', 'gid_change', 'qos_change', 'topology_verdict',
  'agent_restart', 'diagnosis_raised', 'diagnosis_cleared', 'kernel_event', 'devlink_reporter'];
const SEVERITIES = ['info', 'warning', 'critical'];
/** Rows a list keeps: the newest; older entries stay in the collector (GET /api/events?since=…). */
const MAX_ROWS = 500;

export const timelineHref = (filters) => {
  const params = new URLSearchParams();
  for (const name of ['node', 'kind', 'severity']) if (filters[name]) params.set(name, filters[name]);
  const query = params.toString();
  return '#/timeline' + (query ? '?' + query : '');
};

/** One entry as a list item: time, place (a link to the port page), kind, severity, text. */
function row(entry) {
  const place = entry.device && entry.port > 0
    ? el('a', {href: portHref(entry)}, entry.node + ' ' + entry.device + '/' + entry.port)
    : el('a', {href: '#/?q=' + encodeURIComponent(entry.node)}, entry.node + (entry.device ? ' ' + entry.device : ''));
  return el('li', {className: 'change sev-' + entry.severity, 'data-kind': entry.kind, 'data-id': String(entry.id)},
    el('time', {dateTime: new Date(entry.timeMillis).toISOString(), title: new Date(entry.timeMillis).toISOString()},
      fmt.clock(entry.timeMillis)),
    ' ', place, ' ', text('span', entry.kind, 'badge kind'), ' ', text('span', entry.severity, 'badge sev-' + entry.severity),
    ' ', text('span', entry.text, 'change-text'));
}

/** A newest-first list of entries that a filter keeps, fed by a fetch and then by live events. */
class ChangeList {
  constructor(list, status) {
    this.list = list;
    this.status = status;
    this.entries = [];
    this.accepts = () => false;
    this.generation = 0;
  }

  async load(path, accepts) {
    const generation = ++this.generation;
    this.accepts = accepts;
    this.status.textContent = 'Loading…';
    try {
      const answer = await getJson(path);
      if (generation !== this.generation) return;
      const live = this.entries.filter((e) => accepts(e));
      const seen = new Set(answer.events.map((e) => e.id));
      // entries the live feed brought while the answer was on its way, newer than it
      this.entries = [...live.filter((e) => !seen.has(e.id)), ...answer.events.filter(accepts)].slice(0, MAX_ROWS);
      this.status.textContent = '';
      this.render();
    } catch (e) {
      if (e instanceof AuthRequired || generation !== this.generation) return;
      this.status.textContent = 'Changes not available: ' + e.message;
    }
  }

  add(entry) {
    if (!this.accepts(entry) || this.entries.some((e) => e.id === entry.id)) return;
    this.entries.unshift(entry);
    this.entries.length = Math.min(this.entries.length, MAX_ROWS);
    this.list.prepend(row(entry));
    while (this.list.children.length > MAX_ROWS) this.list.lastElementChild.remove();
  }

  render() {
    this.list.replaceChildren(...this.entries.map(row));
    if (!this.entries.length) this.status.textContent = 'No changes.';
  }

  stop() {
    this.generation++;
    this.accepts = () => false;
  }
}

/** The fleet-wide Timeline view. */
export class Timeline {
  constructor() {
    this.view = byId('timeline-view');
    this.changes = new ChangeList(byId('tl-list'), byId('tl-status'));
    this.filters = {};
    const kind = byId('tl-kind');
    kind.append(...KINDS.map((k) => el('option', {value: k}, k)));
    const severity = byId('tl-severity');
    severity.append(...SEVERITIES.map((s) => el('option', {value: s}, s + (s === 'critical' ? '' : ' and above'))));
    const apply = () => {
      location.hash = timelineHref({node: byId('tl-node').value.trim(), kind: kind.value, severity: severity.value});
    };
    kind.addEventListener('change', apply);
    severity.addEventListener('change', apply);
    byId('tl-node').addEventListener('change', apply);
  }

  /** Shows the view with these filters ({node, kind, severity}, each optional). */
  open(filters) {
    this.view.hidden = false;
    this.filters = filters;
    byId('tl-node').value = filters.node || '';
    byId('tl-kind').value = filters.kind || '';
    byId('tl-severity').value = filters.severity || '';
    const params = new URLSearchParams({limit: String(MAX_ROWS)});
    for (const name of ['node', 'kind', 'severity']) if (filters[name]) params.set(name, filters[name]);
    const least = SEVERITIES.indexOf(filters.severity || 'info');
    this.changes.load('/api/events?' + params, (e) => (!filters.node || e.node === filters.node)
      && (!filters.kind || e.kind === filters.kind) && SEVERITIES.indexOf(e.severity) >= least);
  }

  close() {
    this.view.hidden = true;
    this.changes.stop();
  }

  /** A `change` event of the live feed. */
  onChange(entry) {
    this.changes.add(entry);
  }
}

/** The port page's slice: the changes of one port and of its device and node as a whole. */
export class PortChanges {
  constructor() {
    this.changes = new ChangeList(byId('port-changes'), byId('port-changes-status'));
  }

  open(node, device, port) {
    byId('port-changes-all').href = timelineHref({node});
    const mine = (e) => e.node === node && (e.device == null || e.device === device) && (e.port === 0
      || String(e.port) === String(port));
    this.changes.load('/api/events?limit=' + MAX_ROWS + '&node=' + encodeURIComponent(node), mine);
  }

  close() {
    this.changes.stop();
  }

  onChange(entry) {
    this.changes.add(entry);
  }
}
