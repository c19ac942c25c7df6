// Time-series charts of one port (uPlot). A chart shows only the series the port actually has; a
// chart with none is left out and named in a note. Link state changes are drawn on every chart.

import uPlot from '../vendor/uplot/uPlot.esm.js';
import * as fmt from './format.js';
import {el} from './dom.js';

const PRIORITY_COLORS = ['#8c8c8c', '#e6a23c', '#2f9e44', '#1c7ed6', '#ae3ec9', '#f76707', '#0ca678', '#d6336c'];
const PAIR_COLORS = ['#1c7ed6', '#e8590c', '#2f9e44', '#c2255c', '#7048e8', '#0c8599'];
const prios = [0, 1, 2, 3, 4, 5, 6, 7];
const COLLECTING = 'collecting… (the per-priority, PFC, congestion and transport charts appear with the first detail sample)';

export const CHARTS = [
  {id: 'throughput', title: 'Throughput', unit: fmt.bits, series: [
    {name: 'rx_bytes', label: 'RX'}, {name: 'tx_bytes', label: 'TX'}]},
  {id: 'rx-prio', title: 'RX per priority (stacked)', unit: fmt.bits, stacked: true, why: 'per-priority counters',
    series: prios.map((p) => ({name: 'rx_prio' + p + '_bytes', label: 'prio ' + p, color: PRIORITY_COLORS[p]}))},
  {id: 'tx-prio', title: 'TX per priority (stacked)', unit: fmt.bits, stacked: true, why: 'per-priority counters',
    series: prios.map((p) => ({name: 'tx_prio' + p + '_bytes', label: 'prio ' + p, color: PRIORITY_COLORS[p]}))},
  {id: 'pfc-frames', title: 'PFC pause frames', unit: fmt.perSecond, why: 'PFC pause counters',
    series: prios.flatMap((p) => [
      {name: 'rx_prio' + p + '_pause', label: 'RX p' + p, color: PRIORITY_COLORS[p]},
      {name: 'tx_prio' + p + '_pause', label: 'TX p' + p, color: PRIORITY_COLORS[p], dash: [6, 3]}])},
  {id: 'pfc-duration', title: 'PFC pause duration', unit: fmt.pausePerSecond, why: 'PFC pause duration counters',
    series: prios.flatMap((p) => [
      {name: 'rx_prio' + p + '_pause_duration', label: 'RX p' + p, color: PRIORITY_COLORS[p]},
      {name: 'tx_prio' + p + '_pause_duration', label: 'TX p' + p, color: PRIORITY_COLORS[p], dash: [6, 3]}])},
  {id: 'congestion', title: 'ECN / CNP', unit: fmt.perSecond, why: 'RoCE congestion counters', series: [
    {name: 'np_ecn_marked_roce_packets', label: 'ECN marked'}, {name: 'np_cnp_sent', label: 'CNP sent'},
    {name: 'rp_cnp_handled', label: 'CNP handled'}, {name: 'rp_cnp_ignored', label: 'CNP ignored'}]},
  {id: 'transport', title: 'Transport errors', unit: fmt.perSecond, why: 'transport error counters', series: [
    {name: 'out_of_sequence', label: 'out_of_sequence'}, {name: 'packet_seq_err', label: 'packet_seq_err'},
    {name: 'local_ack_timeout_err', label: 'local_ack_timeout_err'},
    {name: 'rnr_nak_retry_err', label: 'rnr_nak_retry_err'}]},
];

const css = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

/** Draws the link state on the plot: shaded where not active, a line at each change. */
function linkStatePlugin(getChanges) {
  return {
    hooks: {
      draw: (u) => {
        const {changes, downs} = getChanges();
        const {ctx} = u;
        const {top, height, left, width} = u.bbox;
        ctx.save();
        ctx.fillStyle = css('--down-fill');
        for (const [from, to] of downs) {
          const x0 = Math.max(left, u.valToPos(from, 'x', true));
          const x1 = Math.min(left + width, u.valToPos(to, 'x', true));
          if (x1 > x0) ctx.fillRect(x0, top, x1 - x0, height);
        }
        ctx.strokeStyle = css('--bad');
        ctx.setLineDash([4, 3]);
        ctx.lineWidth = 1;
        for (const t of changes) {
          const x = Math.round(u.valToPos(t, 'x', true));
          if (x < left || x > left + width) continue;
          ctx.beginPath();
          ctx.moveTo(x, top);
          ctx.lineTo(x, top + height);
          ctx.stroke();
        }
        ctx.restore();
      },
    },
  };
}

/** The charts of one port; {@link update} with the port's series (time in seconds). */
export class PortCharts {
  constructor(container, note) {
    this.container = container;
    this.note = note;
    this.charts = new Map(); // id → {plot, signature, el}
    this.states = {changes: [], downs: []};
    this.resize = new ResizeObserver(() => this.fit());
    this.resize.observe(container);
    this.note.textContent = COLLECTING;
  }

  destroy() {
    this.resize.disconnect();
    for (const c of this.charts.values()) c.plot.destroy();
    this.charts.clear();
    this.container.replaceChildren();
  }

  /** Rebuilds every chart (after a theme change). */
  restyle(data) {
    for (const c of this.charts.values()) c.plot.destroy();
    this.charts.clear();
    this.container.replaceChildren();
    this.update(data);
  }

  width() {
    return Math.max(320, Math.floor(this.container.clientWidth / (this.container.clientWidth > 1100 ? 2 : 1)) - 16);
  }

  fit() {
    const width = this.width();
    for (const c of this.charts.values()) {
      if (c.plot.width !== width) c.plot.setSize({width, height: 200});
    }
  }

  update(data) {
    this.states = stateChanges(data.time, data.series.state, data.series.active);
    const missing = [];
    for (const spec of CHARTS) {
      const present = spec.series.filter((s) => hasData(data.series[s.name]));
      if (!present.length) {
        missing.push(spec.why || spec.title);
        this.remove(spec.id);
        continue;
      }
      const signature = present.map((s) => s.name).join(',');
      let chart = this.charts.get(spec.id);
      if (chart && chart.signature !== signature) {
        this.remove(spec.id);
        chart = null;
      }
      const raw = present.map((s) => data.series[s.name]);
      const columns = spec.stacked ? stack(raw) : raw;
      const plotData = [data.time, ...(spec.stacked ? columns.slice().reverse() : columns)];
      if (!chart) {
        chart = this.create(spec, spec.stacked ? present.slice().reverse() : present, raw, signature);
      }
      chart.raw = spec.stacked ? raw.slice().reverse() : raw;
      chart.plot.setData(plotData);
    }
    // before the first detail sample every detail series is missing: that says nothing about the port yet
    this.note.textContent = !data.detailed ? COLLECTING
      : missing.length ? 'This port has no ' + [...new Set(missing)].join(', ') + '.' : '';
  }

  remove(id) {
    const chart = this.charts.get(id);
    if (chart) {
      chart.plot.destroy();
      chart.el.remove();
      this.charts.delete(id);
    }
  }

  create(spec, series, raw, signature) {
    const figure = el('figure', {className: 'chart', 'data-chart': spec.id});
    figure.style.order = String(CHARTS.findIndex((c) => c.id === spec.id));
    this.container.appendChild(figure);
    const axis = {stroke: css('--muted'), grid: {stroke: css('--grid'), width: 1}, ticks: {stroke: css('--grid')}};
    const chart = {el: figure, signature, raw};
    const opts = {
      title: spec.title,
      width: this.width(),
      height: 200,
      scales: {x: {time: true}, y: {range: (u, min, max) => [0, max > 0 ? max * 1.1 : 1]}},
      axes: [axis, {...axis, size: 78, values: (u, ticks) => ticks.map((v) => spec.unit(v))}],
      series: [{value: (u, v) => (v == null ? '—' : fmt.clock(v * 1000))}, ...series.map((s, i) => ({
        label: s.label,
        stroke: s.color || PAIR_COLORS[i % PAIR_COLORS.length],
        width: 1.5,
        dash: s.dash,
        fill: spec.stacked ? (s.color || PAIR_COLORS[i % PAIR_COLORS.length]) + '99' : undefined,
        spanGaps: false,
        value: (u, v, si, idx) => (idx == null ? '—' : spec.unit(chart.raw[si - 1][idx])),
      }))],
      cursor: {sync: {key: 'port'}},
      legend: {live: true},
      plugins: [linkStatePlugin(() => this.states)],
    };
    chart.plot = new uPlot(opts, [[], ...series.map(() => [])], figure);
    this.charts.set(spec.id, chart);
    return chart;
  }
}

function hasData(values) {
  return values != null && values.some((v) => v != null);
}

/** Cumulative sums per point (a null counts as 0 once any series has a value there). */
function stack(columns) {
  const out = [];
  let running = columns[0].map(() => null);
  for (const column of columns) {
    running = column.map((v, i) => (v == null && running[i] == null ? null : (running[i] ?? 0) + (v ?? 0)));
    out.push(running);
  }
  return out;
}

/** Link state changes (seconds) and the intervals the port was not active (the collector's `active` series: 1 or 0). */
export function stateChanges(time, states, actives) {
  const changes = [];
  const downs = [];
  if (!states || !actives) return {changes, downs};
  let previous = null;
  let downFrom = null;
  for (let i = 0; i < time.length; i++) {
    const s = states[i];
    if (s == null) continue;
    if (previous != null && s !== previous) changes.push(time[i]);
    const active = actives[i] === 1;
    if (!active && downFrom == null) downFrom = time[i];
    if (active && downFrom != null) {
      downs.push([downFrom, time[i]]);
      downFrom = null;
    }
    previous = s;
  }
  if (downFrom != null) downs.push([downFrom, time[time.length - 1]]);
  return {changes, downs};
}
