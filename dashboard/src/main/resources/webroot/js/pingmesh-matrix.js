// The pingmesh matrix as pixels: the ports of /api/pingmesh ordered by group, then node, device and port; every
// probed pair a colour level; the whole picture (group bands, port state strips, matrix) composed into one RGBA
// buffer that the page puts on its canvas at once. At fleet size (16,000 ports) a cell is smaller than a pixel, so a
// pixel shows the worst of the cells that fall on it and remembers which cell that was (for the hover). Pure: no DOM,
// so that pingmesh-worker.js runs it off the page's main thread.

const PORT_ORDER = new Intl.Collator('en', {numeric: true});

// Colour levels, one byte per pixel, so that "worst of the cells on a pixel" is the largest byte:
// 0 nothing (the page shows through), 1 no answer yet (grey), 2..127 round trip from the median (green) to
// RTT_SPAN doublings above it (yellow), 128..255 loss from LOSS_FLOOR (light red) to all lost (dark red).
const LEVEL_EMPTY = 0;
export const LEVEL_UNPROBED = 1;
const RTT_LOW = 2;
const RTT_HIGH = 127;
const LOSS_LOW = 128;
const LOSS_HIGH = 255;
/** Doublings of the median p50 at which a cell is fully yellow (2: four times the median). */
export const RTT_SPAN = 2;
/** Decades of loss ratio between the lightest red and the darkest (0.1 % … 100 %). */
const LOSS_DECADES = 3;

/** Port states of the API, worst last: a pixel of the state strip shows the worst port on it. */
const STATE_RANK = {unprobed: 0, ok: 1, slow: 2, loss: 3, unreachable: 4};

/** 0..1 → level of a round trip p50 relative to the fleet median (at or below it: green). */
export function rttLevel(p50, median) {
  if (!(p50 > 0) || !(median > 0)) return LEVEL_UNPROBED;
  const t = Math.min(1, Math.max(0, Math.log2(p50 / median) / RTT_SPAN));
  return RTT_LOW + Math.round(t * (RTT_HIGH - RTT_LOW));
}

/** Level of a pair that lost `lost` of `sent` probes (lost > 0): any loss is red, darker the more. */
export function lossLevel(lost, sent) {
  const ratio = Math.min(1, lost / Math.max(sent, lost, 1));
  const t = Math.min(1, Math.max(0, (Math.log10(ratio) + LOSS_DECADES) / LOSS_DECADES));
  return LOSS_LOW + Math.round(t * (LOSS_HIGH - LOSS_LOW));
}

/** Numbers per cell of the API, [src, dst, sent, lost, p50, p99, age], in the flat arrays used here. */
export const CELL = 7;

/** The API's cells, one array each, as one flat array of CELL numbers per cell (null p50/p99 become NaN). */
export function flatCells(cells) {
  const flat = new Float64Array(cells.length * CELL);
  cells.forEach((c, k) => {
    for (let i = 0; i < CELL; i++) flat[k * CELL + i] = c[i] ?? NaN;
  });
  return flat;
}

/** Cell k of a flat array, as the API sent it. */
export const cellAt = (cells, k) => Array.from(cells.subarray(k * CELL, k * CELL + CELL), (v) => Number.isNaN(v) ? null : v);

/** The level of cell k of a flat array: loss first, then the round trip. */
export function cellLevel(cells, k, median) {
  const at = k * CELL;
  const lost = cells[at + 3];
  if (lost > 0) return lossLevel(lost, cells[at + 2]);
  return rttLevel(cells[at + 4], median);
}

/** The median p50 of the cells (flat) that have one (null without any). */
export function medianP50(cells) {
  const values = new Float64Array(cells.length / CELL);
  let n = 0;
  for (let at = 4; at < cells.length; at += CELL) if (cells[at] > 0) values[n++] = cells[at];
  if (!n) return null;
  const sorted = values.subarray(0, n).sort();
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/**
 * The display order of `ports` (API objects {node, device, port, group}): by group, then node, device and port
 * (numeric where the names hold numbers). Returns the port index at each position, each port's position, and
 * the group bands [{name, start, end}] (positions, end exclusive).
 */
export function portOrder(ports) {
  const order = Int32Array.from(ports.keys()).sort((a, b) => {
    const x = ports[a];
    const y = ports[b];
    return PORT_ORDER.compare(x.group, y.group) || PORT_ORDER.compare(x.node, y.node)
      || PORT_ORDER.compare(x.device, y.device) || x.port - y.port;
  });
  const position = new Int32Array(ports.length);
  order.forEach((port, p) => { position[port] = p; });
  const bands = [];
  order.forEach((port, p) => {
    const group = ports[port].group;
    if (bands.length && bands[bands.length - 1].name === group) bands[bands.length - 1].end = p + 1;
    else bands.push({name: group, start: p, end: p + 1});
  });
  return {order, position, bands};
}

/** Whether two port lists are the same ports in the same places (then the order can be kept). */
export function samePorts(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.node !== y.node || x.device !== y.device || x.port !== y.port || x.group !== y.group) return false;
  }
  return true;
}

/**
 * Where `count` positions fall on `side` pixels: with room, whole cells of `cell` pixels each; without, several
 * positions share a pixel (`cell` 0) and position p lies on pixel floor(p * side / count) (`start[p]`).
 */
export function axis(count, side) {
  const cell = count > 0 && count <= side ? Math.floor(side / count) : 0;
  const start = new Int32Array(count + 1);
  for (let p = 0; p <= count; p++) start[p] = cell ? p * cell : Math.floor(p * side / count);
  return {count, side, cell, width: Math.max(1, cell), drawn: cell ? count * cell : Math.min(side, count), start};
}

/** The position a pixel of an axis shows (the first of those sharing it). */
export function positionAt(ax, pixel) {
  return Math.min(ax.count - 1, ax.cell ? Math.floor(pixel / ax.cell) : Math.ceil(pixel * ax.count / ax.side));
}

/**
 * The levels of the matrix area, `side` × `side` pixels: unprobed grey where positions meet, the worst cell
 * level of each pixel, and the index of that cell in `owner` (-1: none). Cells of `cell` ≥ 5 pixels keep a
 * one-pixel gap so that neighbours stay apart.
 */
export function rasterize(cells, position, axisInfo, median, levels, owner) {
  const {side, cell, width, drawn, start} = axisInfo;
  levels.fill(LEVEL_EMPTY);
  owner.fill(-1);
  for (let y = 0; y < drawn; y++) levels.fill(LEVEL_UNPROBED, y * side, y * side + drawn);
  for (let k = 0; k < cells.length / CELL; k++) {
    const level = cellLevel(cells, k, median);
    const y0 = start[position[cells[k * CELL]]];
    const x0 = start[position[cells[k * CELL + 1]]];
    if (!cell) {
      const i = y0 * side + x0;
      if (owner[i] < 0 || level > levels[i]) {
        levels[i] = level;
        owner[i] = k;
      }
      continue;
    }
    for (let y = y0; y < y0 + width; y++) {
      levels.fill(level, y * side + x0, y * side + x0 + width);
      owner.fill(k, y * side + x0, y * side + x0 + width);
    }
  }
  if (cell >= 5) {
    for (let p = 1; p <= drawn / cell; p++) {
      const line = p * cell - 1;
      levels.fill(LEVEL_EMPTY, line * side, line * side + drawn);
      for (let y = 0; y < drawn; y++) levels[y * side + line] = LEVEL_EMPTY;
    }
  }
}

/** RGBA of a level as one little-endian 32-bit pixel (ImageData's byte order on every platform we serve). */
function rgba(r, g, b, a) {
  return ((Math.round(a * 255) << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

function hsl(h, s, l, a) {
  const k = (n) => (n + h / 30) % 12;
  const f = (n) => l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return rgba(Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255), a);
}

/** The 256 colours of the levels; the same in dark and light (grey is translucent over the panel). */
function palette() {
  const colours = new Uint32Array(256);
  colours[LEVEL_UNPROBED] = rgba(128, 128, 128, 0.3);
  for (let level = RTT_LOW; level <= RTT_HIGH; level++) {
    const t = (level - RTT_LOW) / (RTT_HIGH - RTT_LOW);
    colours[level] = hsl(130 - 78 * t, 0.62, 0.44, 1);
  }
  for (let level = LOSS_LOW; level <= LOSS_HIGH; level++) {
    const t = (level - LOSS_LOW) / (LOSS_HIGH - LOSS_LOW);
    colours[level] = hsl(0, 0.78, 0.66 - 0.34 * t, 1);
  }
  return colours;
}

const COLOURS = palette();
const STATE_COLOURS = [COLOURS[LEVEL_UNPROBED], COLOURS[RTT_LOW], COLOURS[RTT_HIGH], COLOURS[LOSS_LOW + 64], COLOURS[LOSS_HIGH]];
const BAND_COLOURS = [rgba(128, 128, 128, 0.16), rgba(128, 128, 128, 0.34)];

/** The CSS colour of a level, for the legend. */
export function levelColour(level) {
  const c = COLOURS[level];
  return 'rgba(' + (c & 255) + ',' + ((c >>> 8) & 255) + ',' + ((c >>> 16) & 255) + ',' + (((c >>> 24) & 255) / 255).toFixed(2) + ')';
}

/** Sizes in CSS pixels of what surrounds the matrix: the group band (labels) and the port state strip. */
const BAND = 18;
const STRIP = 5;

/**
 * Where things go on a square canvas of `cssSide` CSS pixels at `ratio` device pixels per CSS pixel: the group
 * band along the top and left edges, then the state strip, then (from `origin`) the matrix of `count` positions.
 */
export function geometry(count, cssSide, ratio) {
  const side = Math.max(1, Math.round(cssSide * ratio));
  const band = Math.round(BAND * ratio);
  const strip = Math.max(2, Math.round(STRIP * ratio));
  const origin = band + strip + 1;
  return {cssSide, ratio, side, band, strip, origin, axis: axis(count, Math.max(1, side - origin))};
}

/**
 * The whole picture of `model` ({ports, order, position, bands, cells (flat), median}) for geometry `g`: RGBA
 * pixels of the canvas (one 32-bit value per pixel, as ImageData holds them) and, per matrix pixel, the cell it
 * shows (`owner`, -1 for none).
 */
export function compose(model, g) {
  const {side, band, strip, origin} = g;
  const ax = g.axis;
  const matrixSide = ax.side;
  const levels = new Uint8Array(matrixSide * matrixSide);
  const owner = new Int32Array(matrixSide * matrixSide);
  rasterize(model.cells, model.position, ax, model.median, levels, owner);
  const pixels = new Uint32Array(side * side);
  // group bands, alternating shades, along both edges
  model.bands.forEach((b, i) => {
    const from = ax.start[b.start];
    const to = Math.min(matrixSide, Math.max(from + 1, ax.start[b.end]));
    const colour = BAND_COLOURS[i % 2];
    for (let y = 0; y < band; y++) pixels.fill(colour, y * side + origin + from, y * side + origin + to);
    for (let y = from; y < to; y++) pixels.fill(colour, (origin + y) * side, (origin + y) * side + band);
  });
  // the port state strip: the worst state of the ports on each pixel; where ports share pixels, a port with loss or
  // unreachable is marked a pixel wider on each side, so that one bad port among 16,000 can be found by eye
  const worst = new Uint8Array(ax.drawn);
  for (let p = 0; p < ax.count; p++) {
    const rank = STATE_RANK[model.ports[model.order[p]].state] || 0;
    const grow = !ax.cell && rank >= STATE_RANK.loss ? 1 : 0;
    const to = Math.min(ax.drawn, ax.start[p] + ax.width + grow);
    for (let x = Math.max(0, ax.start[p] - grow); x < to; x++) if (rank > worst[x]) worst[x] = rank;
  }
  for (let x = 0; x < ax.drawn; x++) {
    const colour = STATE_COLOURS[worst[x]];
    for (let y = band; y < band + strip; y++) pixels[y * side + origin + x] = colour;
    pixels.fill(colour, (origin + x) * side + band, (origin + x) * side + band + strip);
  }
  // the matrix
  for (let y = 0; y < ax.drawn; y++) {
    const row = (origin + y) * side + origin;
    const from = y * matrixSide;
    for (let x = 0; x < ax.drawn; x++) pixels[row + x] = COLOURS[levels[from + x]];
  }
  return {pixels, owner};
}

/**
 * What is under the CSS pixel (x, y) of a canvas drawn with geometry `g`: {cell: index of the cell shown (-1: none,
 * unprobed), src, dst} (port indices) in the matrix, {group} on a band, {port} on a state strip, or null.
 */
export function hitTest(g, owner, model, x, y) {
  const px = Math.floor(x * g.ratio);
  const py = Math.floor(y * g.ratio);
  const ax = g.axis;
  const mx = px - g.origin;
  const my = py - g.origin;
  const inside = (v) => v >= 0 && v < ax.drawn;
  const {order, bands, cells} = model;
  if (!ax.count) return null;
  if (inside(mx) && inside(my)) {
    const k = owner[my * ax.side + mx];
    if (k >= 0) return {cell: k, src: cells[k * CELL], dst: cells[k * CELL + 1]};
    return {cell: -1, src: order[positionAt(ax, my)], dst: order[positionAt(ax, mx)]};
  }
  // the top edge (columns) or the left edge (rows): along the axis, and across into the band or the strip
  const top = inside(mx) && py >= 0 && py < g.origin;
  const left = inside(my) && px >= 0 && px < g.origin;
  if (!top && !left) return null;
  const position = positionAt(ax, top ? mx : my);
  if ((top ? py : px) < g.band) return {group: bands.find((b) => position >= b.start && position < b.end).name};
  return {port: order[position]};
}
