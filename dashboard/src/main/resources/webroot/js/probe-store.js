// Every probe this page knows of, from the collector's probe API (GET /api/probes[/<id>]), the `probe`
// events of the push channel, and polls of probes whose events stay away.

import {AuthRequired, getJson} from './api.js';
import {isTerminal} from './probe-text.js';

// a probe's state never goes back: an answer that arrives late must not undo a newer one. The collector
// says which states are terminal and where on the path (`steps`) a state is; nothing here re-derives it.
const rank = (probe) => probe.terminal ? Infinity : probe.step;
const HISTORY_LIMIT = 200;
// the collector pushes every change at once; quiet for this long means the event is not coming
const POLL_AFTER_MILLIS = 2500;

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
