// The pingmesh view's worker (a module worker of pingmesh.js): fetches GET /api/pingmesh with the headers the page
// gives it, parses it, orders the ports, and composes the picture (pingmesh-matrix.js) — at 16,000 ports several MB
// of JSON and 160,000 cells, work that would stall the page's frames if it ran there. The page gets the picture's
// pixels and the cell under each pixel as transferred buffers and only puts them on its canvas.
//
// Messages from the page: {type: 'fetch', seq, url, headers, group, cssSide, ratio} (cssSide 0: not on screen, no
// picture), {type: 'draw', seq, cssSide, ratio} (the canvas changed size), {type: 'abort'}.
// To the page: {type: 'answer', seq, answer (without ports and cells), ports and order (only when they changed, else
// null), cells (flat, see CELL), frame, timings}, {type: 'frame', seq, frame}, {type: 'error', seq, status, message}.
// A frame's `owner` indexes the cells of the last answer posted before it.

import {fetchJson} from './api.js';
import {compose, flatCells, geometry, medianP50, portOrder, samePorts} from './pingmesh-matrix.js';

let model = null;
let fleetMedian = null;
let controller = null;

/** The picture of the current model for a canvas of `cssSide` CSS pixels, and the buffers to transfer. */
function frame(cssSide, ratio) {
  const g = geometry(model.order.length, cssSide, ratio);
  const {pixels, owner} = compose(model, g);
  return [{geometry: g, pixels, owner}, [pixels.buffer, owner.buffer]];
}

async function fetchAnswer({seq, url, headers, group, cssSide, ratio}) {
  controller?.abort();
  const mine = new AbortController();
  controller = mine;
  const started = performance.now();
  let answer;
  try {
    answer = await fetchJson(url, headers, mine.signal);
  } catch (e) {
    if (controller === mine && e.name !== 'AbortError') postMessage({type: 'error', seq, status: e.status, message: e.message});
    return;
  }
  if (controller !== mine) return;
  const fetched = performance.now();
  const ports = answer.ports || [];
  const portsChanged = !model || !samePorts(ports, model.ports);
  const order = portsChanged ? portOrder(ports) : model;
  const cells = flatCells(answer.cells || []);
  const median = medianP50(cells);
  if (!group) fleetMedian = median;
  // colours compare with the fleet's median even when one group is shown (a slow group must not look green)
  model = {ports, order: order.order, position: order.position, bands: order.bands, cells,
    median: (group && fleetMedian) || median};
  const modelled = performance.now();
  const [picture, transfer] = cssSide > 0 ? frame(cssSide, ratio) : [null, []];
  const composed = performance.now();
  // the page keeps its own copy of the cells (for the tooltip); this one stays for redraws
  const cellsCopy = cells.slice();
  delete answer.ports;
  delete answer.cells;
  postMessage({type: 'answer', seq, group, answer, median: model.median,
    ports: portsChanged ? ports : null, order: portsChanged ? {order: order.order, bands: order.bands} : null,
    cells: cellsCopy, frame: picture,
    timings: {fetch: fetched - started, model: modelled - fetched, compose: composed - modelled}},
  [cellsCopy.buffer, ...transfer]);
}

onmessage = ({data}) => {
  if (data.type === 'fetch') {
    fetchAnswer(data);
  } else if (data.type === 'draw' && model) {
    const [picture, transfer] = frame(data.cssSide, data.ratio);
    postMessage({type: 'frame', seq: data.seq, frame: picture}, transfer);
  } else if (data.type === 'abort') {
    controller?.abort();
    controller = null;
  }
};
