// The push channel: server-sent events from /api/live, read with fetch so that the viewer token can
// go in the Authorization header (EventSource and WebSocket cannot send one). Reconnects by itself
// with jittered backoff; a stream that goes silent for several ticks counts as lost.

import {authHeaders, requireAuth, onTokenChange, token} from './api.js';
import {measure} from './dom.js';

export class LiveStream {
  constructor({onEvent, onStatus}) {
    this.onEvent = onEvent;
    this.onStatus = onStatus;
    this.watching = [];
    this.controller = null;
    this.attempt = 0;
    this.disconnectedSince = null;
    this.lastEventAt = 0;
    this.silenceLimit = 5000;
    this.retryTimer = null;
    onTokenChange(() => this.restart());
    setInterval(() => this.checkSilence(), 1000);
  }

  /** Ports to receive detail for, as "node/device/port" keys; reconnects only when the set changes. */
  watch(keys) {
    const next = [...keys].sort();
    if (next.join('\n') === this.watching.join('\n') && this.controller) return;
    this.watching = next;
    this.restart();
  }

  restart() {
    if (this.controller) this.controller.abort();
    clearTimeout(this.retryTimer);
    this.connect();
  }

  url() {
    const params = new URLSearchParams();
    this.watching.forEach((k) => params.append('watch', k));
    const query = params.toString();
    return '/api/live' + (query ? '?' + query : '');
  }

  async connect() {
    const controller = new AbortController();
    this.controller = controller;
    const sent = token();
    try {
      const response = await fetch(this.url(), {
        headers: {Accept: 'text/event-stream', ...authHeaders()},
        signal: controller.signal,
        cache: 'no-store',
      });
      if (response.status === 401) {
        requireAuth(sent); // a new token restarts the stream (onTokenChange)
        throw new Error('viewer token required');
      }
      if (!response.ok) throw new Error('collector answered ' + response.status);
      this.lastEventAt = Date.now();
      await this.read(response.body.getReader(), controller);
      throw new Error('stream ended');
    } catch (e) {
      if (this.controller !== controller) return; // replaced by a newer connection on purpose
      this.lost(e.name === 'AbortError' ? 'no update for ' + Math.round(this.silenceLimit / 1000) + ' s' : e.message);
    }
  }

  async read(reader, controller) {
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const {value, done} = await reader.read();
      if (done || this.controller !== controller) return;
      // a 2 MB fleet event comes in dozens of reads: the end of an event is looked for in what arrived since the
      // last look (and the newline before it), not from the start of the buffer again at every read
      let from = Math.max(0, buffer.length - 1);
      buffer += decoder.decode(value, {stream: true});
      let end;
      while ((end = buffer.indexOf('\n\n', from)) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        from = 0;
        this.dispatch(block);
      }
    }
  }

  dispatch(block) {
    const started = performance.now();
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (!data) return;
    this.lastEventAt = Date.now();
    if (event === 'hello') {
      const hello = JSON.parse(data);
      this.silenceLimit = Math.max(5000, hello.tickMillis * 5);
      this.attempt = 0;
      this.disconnectedSince = null;
      this.onStatus({connected: true});
    }
    this.onEvent(event, JSON.parse(data));
    // parse and model update of each event, by event (the overview redraws in its next animation frame)
    measure('live-' + event, performance.now() - started);
  }

  checkSilence() {
    if (this.controller && !this.disconnectedSince && this.lastEventAt
        && Date.now() - this.lastEventAt > this.silenceLimit) {
      this.controller.abort();
    }
  }

  lost(reason) {
    this.controller = null;
    if (!this.disconnectedSince) this.disconnectedSince = Date.now();
    const delay = Math.min(15000, 500 * 2 ** this.attempt) * (0.5 + Math.random() / 2);
    this.attempt = Math.min(this.attempt + 1, 6);
    this.onStatus({connected: false, since: this.disconnectedSince, reason, retryAt: Date.now() + delay});
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }
}
