// The pingmesh matrix's tooltip: one element that follows the pointer and says what is under it — a pair of ports
// with its last p50/p99/loss, and after a short dwell the pair's history (GET /api/pingmesh/pair) as a sparkline and
// both ends' counters as the collector chose them; a group band or a port's state strip.

import * as fmt from './format.js';
import {AuthRequired, getJson} from './api.js';
import {el, text} from './dom.js';

/** How long the pointer rests on a pair before its history is fetched (a sweep across the matrix fetches nothing). */
const DWELL_MILLIS = 350;
const SPARK_WIDTH = 280;
const SPARK_HEIGHT = 56;

export const portText = (p) => p.node + ' ' + p.device + '/' + p.port;

/** The query of /api/pingmesh/pair for two ports (API objects {node, device, port}). */
function pairQuery(src, dst) {
  return new URLSearchParams({srcNode: src.node, srcDevice: src.device, srcPort: String(src.port),
    dstNode: dst.node, dstDevice: dst.device, dstPort: String(dst.port)}).toString();
}

/** The last figures of a cell [src, dst, sent, lost, p50, p99, age] as one line. */
function cellText(cell, windowSeconds) {
  if (!cell) return 'not probed in the last ' + windowSeconds + '\u202fs';
  const [, , sent, lost, p50, p99, age] = cell;
  const loss = lost > 0 ? lost + ' of ' + sent + ' lost (' + fmt.percent(lost / Math.max(sent, 1)) + ')' : 'no loss in ' + sent;
  return 'p50 ' + fmt.latency(p50) + ' · p99 ' + fmt.latency(p99) + ' · ' + loss + ' · ' + fmt.duration(age * 1000) + ' ago';
}

export class PairTooltip {
  constructor(root) {
    this.root = root;
    this.key = null;
    this.timer = null;
    this.controller = null;
    this.summary = el('p', {className: 'pm-tip-summary'});
    this.extra = el('div', {className: 'pm-tip-extra'});
  }

  /** Puts the tooltip beside the pointer (viewport coordinates), on the side with more room; no layout read. */
  moveTo(clientX, clientY) {
    const flipX = clientX > innerWidth / 2;
    const flipY = clientY > innerHeight / 2;
    this.root.style.transform = 'translate(' + (clientX + (flipX ? -14 : 14)) + 'px,' + (clientY + (flipY ? -14 : 14)) + 'px)'
      + ' translate(' + (flipX ? '-100%' : '0') + ',' + (flipY ? '-100%' : '0') + ')';
    this.root.hidden = false;
  }

  hide() {
    this.root.hidden = true;
    this.forget();
  }

  forget() {
    this.key = null;
    clearTimeout(this.timer);
    this.controller?.abort();
  }

  /** A group band: its name and what a click does. */
  showGroup(name, zoomed) {
    this.replace('group ' + name, () => [text('h3', name), text('p', zoomed ? 'the group shown' : 'click: show this group only', 'muted')]);
  }

  /** A port's state strip. */
  showPort(port) {
    this.replace('port ' + portText(port), () => [text('h3', portText(port)),
      text('p', 'group ' + port.group + ' · ' + port.state, 'pm-state-' + port.state)]);
  }

  /**
   * A pair: names and last figures now (refreshed on every call, so an update under a resting pointer shows), the
   * history and counters after the dwell.
   */
  showPair(src, dst, cell, windowSeconds) {
    const key = 'pair ' + portText(src) + ' ' + portText(dst);
    if (key !== this.key) {
      this.replace(key, () => [el('h3', {className: 'pm-tip-title'}, portText(src) + ' → ' + portText(dst)),
        text('p', src.group + ' → ' + dst.group, 'muted'), this.summary, this.extra,
        text('p', src === dst ? 'the same port' : 'click: start a bandwidth probe between the two', 'muted')]);
      this.extra.replaceChildren();
      if (src !== dst) this.timer = setTimeout(() => this.fetchHistory(key, src, dst), DWELL_MILLIS);
    }
    this.summary.textContent = cellText(cell, windowSeconds);
  }

  replace(key, build) {
    if (key === this.key) return;
    this.forget();
    this.key = key;
    this.root.replaceChildren(...build());
  }

  async fetchHistory(key, src, dst) {
    const controller = new AbortController();
    this.controller = controller;
    this.extra.replaceChildren(text('p', 'history…', 'muted'));
    try {
      const pair = await getJson('/api/pingmesh/pair?' + pairQuery(src, dst), controller.signal);
      if (this.key === key) this.extra.replaceChildren(...history(pair), counters(pair));
    } catch (e) {
      if (this.key === key && e.name !== 'AbortError' && !(e instanceof AuthRequired)) {
        this.extra.replaceChildren(text('p', 'history: ' + e.message, 'bad'));
      }
    }
  }
}

/** The pair's points as a sparkline: p50 and p99 (lines), loss (red bars from the bottom), failed rounds (red ticks). */
function history(pair) {
  const points = pair.points || [];
  if (!points.length) return [text('p', 'no history yet', 'muted')];
  const ratio = devicePixelRatio || 1;
  const canvas = el('canvas', {className: 'pm-spark', width: SPARK_WIDTH * ratio, height: SPARK_HEIGHT * ratio,
    role: 'img'});
  const c = canvas.getContext('2d');
  c.scale(ratio, ratio);
  const first = points[0].timestampMillis;
  const span = Math.max(1, points[points.length - 1].timestampMillis - first);
  const top = Math.max(...points.map((p) => p.p99Seconds || p.p50Seconds || 0)) || 1;
  const x = (p) => 2 + (p.timestampMillis - first) / span * (SPARK_WIDTH - 4);
  const y = (v) => SPARK_HEIGHT - 2 - v / top * (SPARK_HEIGHT - 6);
  const style = getComputedStyle(document.documentElement);
  const colour = (name) => style.getPropertyValue(name).trim();
  c.fillStyle = colour('--bad');
  for (const p of points) {
    if (p.lost > 0) {
      const h = Math.max(2, p.lost / Math.max(p.sent, 1) * SPARK_HEIGHT);
      c.fillRect(x(p) - 1, SPARK_HEIGHT - h, 2, h);
    }
    if (p.failed) c.fillRect(x(p) - 1, 0, 2, 5);
  }
  const line = (field, colour) => {
    c.strokeStyle = colour;
    c.lineWidth = 1.5;
    c.beginPath();
    let drawing = false;
    for (const p of points) {
      const v = p[field];
      if (v == null) {
        drawing = false;
        continue;
      }
      if (drawing) c.lineTo(x(p), y(v));
      else c.moveTo(x(p), y(v));
      drawing = true;
    }
    c.stroke();
  };
  line('p99Seconds', colour('--muted'));
  line('p50Seconds', colour('--accent'));
  const lost = points.reduce((n, p) => n + (p.lost || 0), 0);
  const sent = points.reduce((n, p) => n + (p.sent || 0), 0);
  const last = points[points.length - 1];
  canvas.setAttribute('aria-label', 'round trips and loss of the last ' + points.length + ' rounds');
  return [canvas, text('p', points.length + ' rounds since ' + fmt.clock(first) + ': p50 (blue) and p99 (grey) up to '
    + fmt.latency(top) + ', ' + lost + ' of ' + sent + ' lost', 'muted pm-spark-note'),
  last.failed && last.error ? text('p', 'last round failed: ' + last.error, 'bad') : null].filter(Boolean);
}

/** Both ends' counters, as the collector picked them (name → value), side by side. */
function counters(pair) {
  const table = (title, values) => el('table', {className: 'data pm-counters'},
    el('thead', {}, el('tr', {}, el('th', {scope: 'col', colSpan: 2}, title))),
    el('tbody', {}, ...Object.keys(values || {}).sort().map((name) =>
      el('tr', {}, text('td', name), text('td', fmt.count(values[name]), 'num')))));
  const c = pair.counters || {};
  return el('div', {className: 'pm-counter-tables'}, table(portText(pair.src), c.src), table(portText(pair.dst), c.dst));
}
