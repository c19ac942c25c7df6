// The fleet map: one small cell per port, a node's ports side by side and nodes in name order, wrapped to the
// width, on one canvas — what a person reads at thousands of ports, where the table shows a screenful. A cell's
// colour says the worst first: a critical, then a warning diagnosis, then a stale agent, a port not ACTIVE, and
// otherwise how busy the port is (the larger of RX and TX over the link rate). Hover names the port, a click opens it.

import {measure} from './dom.js';
import {portHref} from './links.js';

/** Px from one cell to the next, largest first: the largest that keeps the map within HEIGHT is taken. */
const PITCHES = [16, 12, 8, 6, 4];
const HEIGHT = 160;
const NODE_GAP = 1;          // empty cells between two nodes
const CRITICAL = '#d32f2f';
const WARNING = '#f9a825';
const STALE = '#9e9e9e';
const DOWN = '#5f6368';
/** Utilisation in 8 steps, light (idle) to dark (saturated) blue. */
const BUSY = ['#d6e6f5', '#b7d2ec', '#94bde2', '#6ea6d6', '#4a8fc9', '#2e76b6', '#185d9c', '#08457e'];

const PACKED = new Map();

/** '#rrggbb' as one opaque pixel of an ImageData's Uint32Array view (bytes R, G, B, A in memory: little endian). */
function packed(hex) {
  let value = PACKED.get(hex);
  if (value === undefined) {
    const n = parseInt(hex.slice(1), 16);
    value = ((0xff << 24) | ((n & 0xff) << 16) | (n & 0xff00) | (n >>> 16)) >>> 0;
    PACKED.set(hex, value);
  }
  return value;
}

/** The colour of a port row (fleet.js), worst first. */
export function portColour(r) {
  if (r.severity >= 2) return CRITICAL;
  if (r.severity === 1) return WARNING;
  if (!r.up) return STALE;
  if (!r.active) return DOWN;
  const used = r.rate > 0 ? Math.max(r.rx ?? 0, r.tx ?? 0) / r.rate : 0;
  return BUSY[Math.min(BUSY.length - 1, Math.floor(Math.max(0, used) * BUSY.length))];
}

export class FleetMap {
  constructor(fleet) {
    this.fleet = fleet;
    this.canvas = document.getElementById('fleet-map');
    this.keys = [];           // cell index → port key, '' for a gap
    this.laidOut = null;      // the fleet's layout version and the width the keys were laid out for
    this.image = null;
    this.columns = 1;
    this.pitch = PITCHES[PITCHES.length - 1];
    this.pending = false;
    this.canvas.addEventListener('mousemove', (e) => this.hover(e));
    this.canvas.addEventListener('click', (e) => {
      const row = this.rowAt(e);
      if (row) location.hash = portHref(row);
    });
    this.width = 0;
    // the width comes from the observer, never read in draw(): reading it there forced a layout of the table the
    // overview had just rewritten in the same frame (most of the map's 25 ms at 16,000 ports)
    new ResizeObserver((entries) => {
      this.width = Math.floor(entries[entries.length - 1].contentRect.width);
      this.invalidate();
    }).observe(this.canvas.parentElement);
    fleet.onChange(() => this.invalidate());
  }

  invalidate() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      const started = performance.now();
      this.draw();
      measure('fleet-map-draw', performance.now() - started);
    });
  }

  /**
   * Lays the cells out (nodes by name, each node's ports in its order), unless the fleet's nodes and ports and the
   * width are those of the last layout, and paints them into one image, reused while the layout stands.
   */
  lay(width) {
    // a small fleet gets big cells, a large one 4-pixel cells (about 160 px high at 16,000 ports)
    const cells = this.fleet.ports.size + this.fleet.nodes.size * NODE_GAP;
    this.pitch = PITCHES.find((p) => Math.ceil(cells / Math.floor(width / p)) * p <= HEIGHT)
      || PITCHES[PITCHES.length - 1];
    this.columns = Math.max(1, Math.floor(width / this.pitch));
    const keys = [];
    for (const name of [...this.fleet.nodes.keys()].sort()) {
      const ports = this.fleet.portKeys.get(name) || [];
      // a node starts a new line rather than break across two, when it fits on one
      const column = keys.length % this.columns;
      if (column !== 0 && column + ports.length > this.columns && ports.length <= this.columns) {
        for (let i = column; i < this.columns; i++) keys.push('');
      }
      keys.push(...ports);
      if (keys.length % this.columns !== 0) for (let i = 0; i < NODE_GAP; i++) keys.push('');
    }
    this.keys = keys;
    this.ports = keys.filter(Boolean).length;
    this.image = null;
  }

  draw() {
    const width = this.width;
    if (!width) return;
    const layout = this.fleet.layout + '/' + width;
    if (this.laidOut !== layout) {
      this.lay(width);
      this.laidOut = layout;
    }
    const keys = this.keys;
    const pitch = this.pitch;
    const cell = pitch - Math.max(1, Math.round(pitch / 6));
    const rows = Math.ceil(keys.length / this.columns);
    const height = rows * pitch;
    // one pixel per CSS pixel, written straight into an image (a fill per cell cost 25 ms at 16,000 ports); a HiDPI
    // screen scales it up, kept sharp by image-rendering: pixelated
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.style.width = width + 'px';
      this.canvas.style.height = height + 'px';
      this.canvas.width = width;
      this.canvas.height = height;
    }
    if (!height) return;
    const context = this.canvas.getContext('2d');
    // the gaps stay transparent and every cell is painted again, so the image of the same layout is reused
    if (!this.image) this.image = context.createImageData(width, height);
    const image = this.image;
    const pixels = new Uint32Array(image.data.buffer);
    keys.forEach((key, i) => {
      const row = key && this.fleet.ports.get(key);
      if (!row) return;
      const colour = packed(portColour(row));
      const x = (i % this.columns) * pitch;
      const y = Math.floor(i / this.columns) * pitch;
      for (let dy = 0; dy < cell; dy++) {
        const start = (y + dy) * width + x;
        pixels.fill(colour, start, start + cell);
      }
    });
    context.putImageData(image, 0, 0);
    this.canvas.dataset.ports = String(this.ports);
  }

  /** The port row under the pointer; null over a gap or outside the cells. */
  rowAt(e) {
    const box = this.canvas.getBoundingClientRect();
    const column = Math.floor((e.clientX - box.left) / this.pitch);
    const line = Math.floor((e.clientY - box.top) / this.pitch);
    if (column < 0 || column >= this.columns || line < 0) return null;
    const key = this.keys[line * this.columns + column];
    return key ? this.fleet.ports.get(key) || null : null;
  }

  hover(e) {
    const r = this.rowAt(e);
    this.canvas.title = !r ? '' : r.key + ' · ' + (r.badge ? r.badge.issues[0].rule + ' (' + r.badge.severity + ')'
      : !r.up ? 'agent stale' : r.state);
    this.canvas.style.cursor = r ? 'pointer' : 'default';
  }
}
