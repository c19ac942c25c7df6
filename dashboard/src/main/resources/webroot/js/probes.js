// Active probes: a perftest run between two ports, started through the collector (POST /api/probes),
// followed live (the `probe` event of the push channel, with polling when that event does not come),
// cancelled (DELETE) and kept in a history. The same form and result card serve the top-level
// Probes view (#/probes[/<id>]) and the port detail's side panel (the port pre-filled as source).

import * as fmt from './format.js';
import {AuthRequired, OperatorRequired, RequestFailed, getJson, sendJson, setOperatorToken} from './api.js';

// a probe's state never goes back: an answer that arrives late must not undo a newer one. The collector
// says which states are terminal and where on the path (`steps`) a state is; nothing here re-derives it.
const rank = (probe) => probe.terminal ? Infinity : probe.step;
const HISTORY_LIMIT = 200;
const PICKER_LIMIT = 200;
// the collector pushes every change at once; quiet for this long means the event is not coming
const POLL_AFTER_MILLIS = 2500;
const PORT_ORDER = new Intl.Collator('en', {numeric: true});
// the collector's transport names (API `transport`) as the picker labels them
const TRANSPORT_LABELS = {roce: 'RoCE', infiniband: 'IB', iwarp: 'iWARP'};

export const probeHref = (id) => '#/probes/' + encodeURIComponent(id);
const isTerminal = (probe) => probe.terminal;
const endpointKey = (e) => e.node + '/' + e.device + '/' + e.port;
const endpointText = (e) => e.node + ' ' + e.device + '/' + e.port;
const gbits = (bitsPerSecond) => bitsPerSecond == null ? '—' : fmt.bits(bitsPerSecond / 8);
// one decimal: 89.6 % must not read as a rounded-up 90 % next to a 90 % pass mark
const ratioText = (ratio) => ratio == null ? '—' : (ratio * 100).toFixed(1) + '\u202f%';

/** 65536 → "64 KiB" (perftest sizes are powers of two, so binary units read exactly). */
function sizeText(bytes) {
  if (bytes == null) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let i = 0;
  while (value >= 1024 && value % 1024 === 0 && i < units.length - 1) {
    value /= 1024;
    i++;
  }
  return value + '\u202f' + units[i];
}

/** Builds an element: el('p', {className: 'x'}, 'text', child…). */
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props || {})) {
    if (value == null || value === false) continue;
    if (name in node && !name.startsWith('aria') && name !== 'role') node[name] = value;
    else node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children.filter((c) => c != null && c !== false));
  return node;
}

/** Every probe this page knows of: the history, the live `probe` events, and polls of quiet ones. */
export class ProbeStore {
  constructor() {
    this.probes = new Map();
    this.eventAt = new Map();
    this.polling = new Set();
    this.limits = null;
    this.defaults = null;  // what the collector fills in for a field left out of a request
    this.steps = [];       // state names of a probe that succeeds, in order
    this.loaded = false;
    this.error = null;
    this.unavailable = false;
    this.listeners = new Set();
    setInterval(() => this.pollQuiet(), 1000);
  }

  onChange(fn) {
    this.listeners.add(fn);
  }

  changed() {
    this.listeners.forEach((fn) => fn());
  }

  /** A probe as the collector sent it; `pushed` when it came over the push channel. */
  put(probe, pushed) {
    const old = this.probes.get(probe.id);
    if (pushed || !old) this.eventAt.set(probe.id, Date.now());
    if (old && rank(probe) < rank(old)) return;
    this.probes.set(probe.id, probe);
    this.trim();
    this.changed();
  }

  trim() {
    if (this.probes.size <= HISTORY_LIMIT) return;
    for (const probe of this.list().slice(HISTORY_LIMIT)) {
      if (isTerminal(probe)) this.probes.delete(probe.id);
    }
  }

  /** Newest first. */
  list() {
    return [...this.probes.values()].sort((a, b) => b.createdMillis - a.createdMillis);
  }

  get(id) {
    return this.probes.get(id);
  }

  async refresh() {
    if (this.unavailable) return;
    try {
      const answer = await getJson('/api/probes');
      this.limits = answer.limits;
      this.defaults = answer.defaults;
      this.steps = answer.steps;
      this.error = null;
      this.loaded = true;
      answer.probes.forEach((p) => this.put(p));
    } catch (e) {
      if (!(e instanceof AuthRequired)) this.error = e.message;
      // a collector without the probe API: say so once instead of asking on every view
      this.unavailable = e.status === 404;
      if (this.unavailable) this.error = 'this collector has no probe API (' + e.message + ')';
    }
    this.changed();
  }

  /** One probe by id (a deep link to a probe older than the history page, or a quiet one). */
  async load(id) {
    if (this.polling.has(id)) return;
    this.polling.add(id);
    try {
      this.put(await getJson('/api/probes/' + encodeURIComponent(id)));
    } catch (e) {
      if (!(e instanceof AuthRequired)) {
        this.missing = {id, error: e.message};
        this.changed();
      }
    } finally {
      this.polling.delete(id);
    }
  }

  pollQuiet() {
    const now = Date.now();
    for (const probe of this.probes.values()) {
      if (!isTerminal(probe) && now - (this.eventAt.get(probe.id) || 0) > POLL_AFTER_MILLIS) this.load(probe.id);
    }
  }
}

/** Asks for an operator token, saying why; resolves to whether one was given. */
function askOperatorToken(reason) {
  const dialog = document.getElementById('operator-dialog');
  const input = document.getElementById('operator-token-input');
  document.getElementById('operator-reason').textContent = reason;
  input.value = '';
  return new Promise((resolve) => {
    const form = document.getElementById('operator-form');
    const cancel = document.getElementById('operator-cancel');
    const finish = (given) => {
      form.removeEventListener('submit', submit);
      cancel.removeEventListener('click', dismiss);
      dialog.removeEventListener('cancel', dismiss);
      if (dialog.open) dialog.close();
      resolve(given);
    };
    const submit = (e) => {
      e.preventDefault();
      setOperatorToken(input.value.trim());
      finish(Boolean(input.value.trim()));
    };
    const dismiss = (e) => {
      e.preventDefault();
      finish(false);
    };
    form.addEventListener('submit', submit);
    cancel.addEventListener('click', dismiss);
    dialog.addEventListener('cancel', dismiss);
    dialog.showModal();
  });
}

/**
 * Sends an acting request; on 401/403 asks for an operator token (why: the collector's answer) and
 * tries once more with it. Throws OperatorRequired when the user gives none or it is refused too.
 */
async function asOperator(what, request) {
  try {
    return await request();
  } catch (e) {
    if (!(e instanceof OperatorRequired)) throw e;
    const reason = what + ' needs the operator role, and the collector refused this tab\'s token (HTTP ' + e.status
      + ': ' + e.message + '). The viewer token only reads. Enter an operator token; it is kept in this tab\'s '
      + 'session storage only.';
    if (!(await askOperatorToken(reason))) throw e;
    return request();
  }
}

/** The collector's refusal in its own words, with the HTTP status. */
function refusal(e, outcome) {
  if (e instanceof OperatorRequired) {
    return outcome + ': ' + e.message + ' (HTTP ' + e.status + '). This needs an operator token.';
  }
  if (e instanceof RequestFailed) {
    return outcome + ': ' + e.message + ' (HTTP ' + e.status + ')'
      + (e.retryAfterSeconds ? '; retry in ' + e.retryAfterSeconds + '\u202fs' : '') + '.';
  }
  return outcome + ': ' + e.message;
}

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
    const matches = [...this.fleet.ports.values()].filter((r) => words.every((w) => r.text.includes(w)))
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

/** Source, destination and perftest parameters; starts a probe. */
class ProbeForm {
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
      const probe = await asOperator('Starting a probe', () => sendJson('POST', '/api/probes', body));
      this.store.put(probe);
      this.say('Started probe ' + probe.id + '.', 'ok');
      this.onStarted(probe);
    } catch (e) {
      this.say(refusal(e, 'Not started'), 'bad');
    } finally {
      this.start.disabled = false;
    }
  }

  say(message, cls) {
    this.status.textContent = message;
    this.status.className = 'probe-form-status ' + cls;
  }
}

/** One probe: its state and progress while it runs, then its result against the link rate or its error. */
class ProbeCard {
  constructor(store) {
    this.store = store;
    this.probe = null;
    this.body = el('div');
    this.announce = el('p', {className: 'sr-only', 'aria-live': 'polite'});
    this.root = el('section', {className: 'probe-card'}, this.body, this.announce);
    this.lastAnnounced = '';
  }

  show(probe) {
    if (probe?.id !== this.probe?.id) this.cancelStatus = null;
    this.probe = probe;
    this.render();
  }

  render() {
    const p = this.probe;
    if (!p) {
      this.body.replaceChildren();
      return;
    }
    const focused = this.root.contains(document.activeElement) ? document.activeElement.dataset.action : null;
    const outputOpen = this.body.querySelector('details.probe-output')?.open;
    const title = el('h3', {}, el('a', {href: probeHref(p.id)}, endpointText(p.source) + ' → ' + endpointText(p.destination)));
    const state = el('span', {className: 'probe-state state-' + p.state}, p.state);
    const params = [sizeText(p.sizeBytes), p.durationSeconds + '\u202fs', p.qps + (p.qps === 1 ? ' QP' : ' QPs'),
      p.gidIndex == null ? null : 'GID ' + p.gidIndex, p.bidirectional ? 'bidirectional' : null]
      .filter(Boolean).join(' · ');
    const who = [p.requestedBy ? 'by ' + p.requestedBy : null, 'created ' + fmt.clock(p.createdMillis),
      p.finishedMillis ? 'finished ' + fmt.clock(p.finishedMillis) : null].filter(Boolean).join(' · ');
    const parts = [el('header', {}, title, state), el('p', {className: 'muted'}, params),
      el('p', {className: 'muted'}, 'Probe ', el('code', {}, p.id), ' ' + who)];
    if (!isTerminal(p)) parts.push(steps(p, this.store.steps), progress(p));
    if (p.result) parts.push(result(p));
    if (p.error || p.state === 'failed' || (p.exitCode ?? 0) !== 0) parts.push(failure(p));
    if (p.output?.length) {
      parts.push(el('details', {className: 'probe-output', open: outputOpen},
        el('summary', {}, 'perftest output (' + p.output.length + ' lines)'), el('pre', {}, p.output.join('\n'))));
    }
    if (!isTerminal(p)) {
      const cancel = el('button', {type: 'button', className: 'danger'}, 'Cancel probe');
      cancel.dataset.action = 'cancel';
      cancel.addEventListener('click', () => this.cancel(cancel));
      parts.push(el('div', {className: 'probe-actions'}, cancel));
    }
    parts.push(this.cancelStatus || el('p', {className: 'probe-cancel-status', role: 'status'}));
    this.cancelStatus = parts[parts.length - 1];
    this.body.replaceChildren(...parts);
    if (focused) this.body.querySelector('[data-action=' + focused + ']')?.focus();
    const said = p.id + ' ' + p.state + (p.result ? (p.result.passed ? ', passed' : ', below the pass ratio') : '');
    if (said !== this.lastAnnounced) {
      this.lastAnnounced = said;
      this.announce.textContent = 'Probe ' + said;
    }
  }

  async cancel(button) {
    button.disabled = true;
    const id = this.probe.id;
    try {
      const probe = await asOperator('Cancelling a probe',
        () => sendJson('DELETE', '/api/probes/' + encodeURIComponent(id)));
      this.store.put(probe);
      this.cancelStatus.textContent = '';
    } catch (e) {
      button.disabled = false;
      this.cancelStatus.textContent = refusal(e, 'Not cancelled');
      this.cancelStatus.className = 'probe-cancel-status bad';
      if (e instanceof RequestFailed && e.status === 409) this.store.load(id);
    }
  }
}

function steps(p, names) {
  const at = p.step;
  return el('ol', {className: 'probe-steps', 'aria-label': 'Steps'}, ...names.map((s, i) =>
    el('li', {className: i < at ? 'past' : i === at ? 'current' : '', 'aria-current': i === at ? 'step' : null}, s)));
}

function progress(p) {
  const share = Math.max(0, Math.min(1, p.progress || 0));
  const left = p.startedMillis ? Math.max(0, p.startedMillis + p.durationSeconds * 1000 - Date.now()) : null;
  const bar = el('progress', {max: 1, value: share, 'aria-label': 'Progress'});
  return el('p', {className: 'probe-progress'}, bar, ' ' + fmt.percent(share)
    + (left != null ? ' · about ' + fmt.duration(left) + ' left' : ' · waiting for the perftest server'));
}

function result(p) {
  const r = p.result;
  const linkRate = p.linkRateBitsPerSecond;
  const reference = linkRate == null ? 'the link rate (unknown)'
    : (p.bidirectional ? '2 × ' : '') + gbits(linkRate) + ' link rate';
  const ratio = r.linkRatio;
  const pass = p.passRatio;
  const verdict = r.passed ? 'PASS' : 'FAIL';
  const bar = el('div', {className: 'probe-bar', role: 'meter', 'aria-label': 'Share of link rate',
    'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': ratio == null ? null : Math.round(ratio * 100),
    'aria-valuetext': ratioText(ratio) + ' of ' + reference});
  const fill = el('span', {className: 'fill'});
  fill.style.width = Math.min(100, Math.max(0, (ratio || 0) * 100)) + '%';
  bar.append(fill);
  if (pass != null) {
    const mark = el('span', {className: 'mark', title: 'pass at ' + fmt.percent(pass)});
    mark.style.left = pass * 100 + '%';
    bar.append(mark);
  }
  return el('div', {className: 'probe-result ' + (r.passed ? 'pass' : 'fail')},
    el('p', {className: 'probe-bw'}, el('b', {className: 'probe-bandwidth'}, gbits(r.bandwidthBitsPerSecond)),
      // perftest measures no peak in duration mode (-D) and prints 0.00 there
      ' average' + (r.peakBitsPerSecond > 0 ? ' · peak ' + gbits(r.peakBitsPerSecond) : '') + ' · '
        + fmt.count(r.messageRatePerSecond) + ' msg/s'),
    bar,
    el('p', {}, el('span', {className: 'probe-ratio'}, ratioText(ratio)), ' of ' + reference + ' — ',
      el('b', {className: 'probe-verdict ' + (r.passed ? 'ok' : 'bad')}, verdict),
      pass == null ? '' : ' (passes at ≥ ' + fmt.percent(pass) + ')'),
    el('p', {className: 'muted'}, sizeText(r.sizeBytes) + ' messages, ' + fmt.count(r.iterations) + ' iterations'
      + (p.exitCode == null ? '' : ', perftest exit code ' + p.exitCode)));
}

function failure(p) {
  return el('div', {className: 'probe-failure'},
    el('p', {}, el('b', {className: 'bad'}, p.state === 'cancelled' ? 'Cancelled' : 'Error'),
      p.exitCode == null ? '' : ' · perftest exit code ', p.exitCode == null ? '' : el('code', {className: 'probe-exit'}, String(p.exitCode))),
    p.error ? el('pre', {className: 'probe-error'}, p.error) : null);
}

/** The history, newest first; each probe links to its detail. */
function historyTable(probes, selectedId) {
  const head = el('tr', {}, ...['Created', 'Source', 'Destination', 'Parameters', 'State', 'Bandwidth', '% of link', 'Result']
    .map((t, i) => el('th', {scope: 'col', className: i >= 5 && i <= 6 ? 'num' : ''}, t)));
  const rows = probes.map((p) => {
    const link = el('a', {href: probeHref(p.id), 'aria-current': p.id === selectedId ? 'true' : null}, fmt.clock(p.createdMillis));
    const verdict = p.result ? (p.result.passed ? 'pass' : 'fail') : p.state === 'failed' ? 'error' : '';
    return el('tr', {className: p.id === selectedId ? 'selected' : '', 'data-id': p.id},
      el('td', {}, link), el('td', {}, endpointText(p.source)), el('td', {}, endpointText(p.destination)),
      el('td', {}, sizeText(p.sizeBytes) + ' · ' + p.durationSeconds + '\u202fs · ' + p.qps + ' QP'
        + (p.bidirectional ? ' · bidir' : '')),
      el('td', {className: 'probe-state state-' + p.state}, p.state),
      el('td', {className: 'num'}, p.result ? gbits(p.result.bandwidthBitsPerSecond) : '—'),
      el('td', {className: 'num'}, p.result ? ratioText(p.result.linkRatio) : '—'),
      el('td', {className: verdict === 'pass' ? 'ok' : verdict ? 'bad' : ''}, verdict));
  });
  if (!rows.length) rows.push(el('tr', {}, el('td', {colSpan: 8, className: 'muted'}, 'No probe yet.')));
  return el('table', {className: 'data probe-history'}, el('thead', {}, head), el('tbody', {}, ...rows));
}

/** The top-level view and the port detail's panel, sharing one store. */
export class Probes {
  constructor(fleet) {
    this.fleet = fleet;
    this.store = new ProbeStore();
    this.view = document.getElementById('probes-view');
    this.viewForm = new ProbeForm(fleet, this.store, 'pv', (p) => { location.hash = probeHref(p.id); });
    this.viewCard = new ProbeCard(this.store);
    this.viewSelected = null;
    document.getElementById('probes-form').append(this.viewForm.root);
    document.getElementById('probes-selected').append(this.viewCard.root);
    this.panel = document.getElementById('probe-panel-body');
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
      const placeholder = document.getElementById('probes-placeholder');
      placeholder.hidden = Boolean(selected);
      placeholder.textContent = this.viewSelected && !selected
        ? (this.store.missing?.id === this.viewSelected ? this.store.missing.error : 'Loading probe ' + this.viewSelected + '…')
        : 'Start a probe, or pick one from the history.';
      this.viewCard.show(selected);
      const error = this.store.error ? el('p', {className: 'bad'}, 'Probe history: ' + this.store.error) : null;
      document.getElementById('probes-history').replaceChildren(...[error, historyTable(probes, this.viewSelected)]
        .filter(Boolean));
    }
    if (this.portKey) {
      const mine = probes.filter((p) => endpointKey(p.source) === this.portKey || endpointKey(p.destination) === this.portKey);
      const shown = this.panelProbeId ? this.store.get(this.panelProbeId) : mine.find((p) => !isTerminal(p));
      this.panelCard.show(shown || null);
      const items = mine.slice(0, 5).map((p) => el('li', {}, el('a', {href: probeHref(p.id)},
        fmt.clock(p.createdMillis) + ' ' + (endpointKey(p.source) === this.portKey ? '→ ' + endpointText(p.destination)
          : '← ' + endpointText(p.source))), ' ' + p.state
        + (p.result ? ' · ' + gbits(p.result.bandwidthBitsPerSecond) + ' (' + ratioText(p.result.linkRatio) + ')' : '')));
      if (!items.length) items.push(el('li', {className: this.store.error ? 'bad' : 'muted'}, this.store.error || 'none'));
      this.panelRecent.replaceChildren(...items);
    }
  }
}
