// The page's side of the pingmesh picture: puts a frame composed by pingmesh-worker.js on the canvas (one
// putImageData), writes the group names that fit over their bands, and says what lies under the pointer.

import {hitTest} from './pingmesh-matrix.js';

export class MatrixCanvas {
  constructor(canvas) {
    this.canvas = canvas;
    this.context = canvas.getContext('2d');
    this.frame = null;
    this.model = null;
  }

  /** Shows `frame` ({geometry, pixels, owner}) of `model` ({ports, order, bands, cells}). */
  show(frame, model) {
    const g = frame.geometry;
    if (this.canvas.width !== g.side) {
      this.canvas.width = g.side;
      this.canvas.height = g.side;
      this.canvas.style.width = g.cssSide + 'px';
      this.canvas.style.height = g.cssSide + 'px';
    }
    this.context.putImageData(new ImageData(new Uint8ClampedArray(frame.pixels.buffer), g.side, g.side), 0, 0);
    this.labels(model.bands, g);
    this.frame = frame;
    this.model = model;
  }

  /** Group names where their band is wide enough to hold some of the name (along the top, and up the left). */
  labels(bands, g) {
    const c = this.context;
    const ax = g.axis;
    c.save();
    c.font = Math.round(11 * g.ratio) + 'px system-ui, sans-serif';
    c.fillStyle = this.textColour || (this.textColour = getComputedStyle(this.canvas).color);
    c.textBaseline = 'middle';
    for (const b of bands) {
      const from = ax.start[b.start];
      const width = ax.start[b.end] - from;
      if (width < 28 * g.ratio) continue;
      const name = fit(c, b.name, width - 6 * g.ratio);
      c.fillText(name, g.origin + from + 3 * g.ratio, g.band / 2);
      c.save();
      c.translate(g.band / 2, g.origin + from + width - 3 * g.ratio);
      c.rotate(-Math.PI / 2);
      c.fillText(name, 0, 0);
      c.restore();
    }
    c.restore();
  }

  /** The theme changed: the labels take the new text colour at the next frame. */
  restyle() {
    this.textColour = null;
  }

  /** What is under the CSS pixel (x, y): see pingmesh-matrix.js `hitTest`; null before the first frame. */
  hit(x, y) {
    return this.frame ? hitTest(this.frame.geometry, this.frame.owner, this.model, x, y) : null;
  }
}

/** The longest prefix of `text` (with an ellipsis when cut) that fits `width` pixels. */
function fit(context, text, width) {
  if (context.measureText(text).width <= width) return text;
  let n = text.length;
  while (n > 1 && context.measureText(text.slice(0, n) + '…').width > width) n--;
  return text.slice(0, n) + '…';
}
