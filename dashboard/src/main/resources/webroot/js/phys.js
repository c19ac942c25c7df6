// The port's physical layer (issue 15): FEC and pre-FEC BER with its trend, the PCIe line, the optic's lanes
// against the module's own thresholds, and the flap timeline of the collector's ledger. Every figure comes
// computed from the collector (/api/nodes/{node}: BER, dBm, margins, degraded; /events: the ledger); this module
// only lays them out.

import {getJson, AuthRequired} from './api.js';
import {byId, el, setText, text} from './dom.js';
import * as fmt from './format.js';

/** BER points kept for the trend: 30 min of the port page's 10 s node refresh. */
const BER_POINTS = 180;
const TIMELINE_HOURS = 24;

const fixed = (value, digits) => value == null ? '—' : value.toFixed(digits);
export const ber = (value) => value == null ? '—' : value === 0 ? '0' : value.toExponential(2);
export const marginDb = (value) => value == null ? '—' : (value >= 0 ? '+' : '') + value.toFixed(1) + ' dB';

export class PhysPanel {
  constructor() {
    this.key = null;
    this.trend = [];
  }

  /** A new port: the trend starts over. */
  open(node, device, port) {
    this.key = node + '/' + device + '/' + port;
    this.node = node;
    this.device = device;
    this.port = port;
    this.trend = [];
    byId('phys-flaps').replaceChildren(text('p', 'Loading…', 'muted'));
  }

  /** The node detail as the port page loaded it. */
  update(deviceInfo, portInfo, nowMillis) {
    if (!portInfo) return;
    if (portInfo.preFecBer != null) {
      this.trend.push([nowMillis, portInfo.preFecBer]);
      if (this.trend.length > BER_POINTS) this.trend.shift();
    }
    this.renderLink(deviceInfo, portInfo);
    this.renderLanes(portInfo.module);
    this.renderTrend();
  }

  renderLink(deviceInfo, portInfo) {
    const fec = portInfo.fec;
    setText(byId('phys-fec'), fec ? (fec.active || 'none active') + ' (configured: ' + (fec.configured.join(' ') || '—') + ')'
      : 'not reported by the driver');
    setText(byId('phys-ber'), portInfo.preFecBer == null ? 'no PHY counters' : ber(portInfo.preFecBer)
      + (portInfo.preFecBerEstimated ? ' (estimated from the link rate)' : ''));
    const pci = deviceInfo?.pci;
    const line = byId('phys-pcie');
    if (!pci) {
      setText(line, 'no PCI function found', 'muted');
    } else if (pci.currentLinkWidth == null && pci.maxLinkWidth == null) {
      setText(line, pci.address + ': ' + (pci.notes[0] || 'no PCIe link attributes'), 'muted');
    } else {
      setText(line, pci.address + ': ' + (pci.currentLinkSpeed || '?') + ' x' + (pci.currentLinkWidth ?? '?') + ' of '
        + (pci.maxLinkSpeed || '?') + ' x' + (pci.maxLinkWidth ?? '?') + (pci.degraded ? ' — degraded' : ''),
      pci.degraded ? 'bad' : 'ok');
    }
  }

  renderLanes(module) {
    const head = byId('phys-module');
    const tbody = document.querySelector('#phys-lanes tbody');
    if (!module) {
      setText(head, 'No transceiver read on this port (none, a DAC without DOM, or not RoCE).', 'muted');
      tbody.replaceChildren();
      return;
    }
    const rx = module.thresholds?.rxPowerWatts;
    setText(head, [module.type, module.vendor, module.part, 'serial ' + (module.serial || '?'),
      fixed(module.temperatureCelsius, 1) + ' °C',
      rx ? 'Rx warning ' + fixed(rx.lowWarningDbm, 2) + '…' + fixed(rx.highWarningDbm, 2) + ' dBm' : 'no thresholds']
      .filter(Boolean).join(' · '), '');
    tbody.replaceChildren(...module.lanes.map((lane) => {
      // below the module's own low warning is what the collector's margin says; no threshold of our own
      const cls = lane.rxMarginDb == null ? '' : lane.rxMarginDb < 0 ? 'bad' : 'ok';
      const meter = rx && lane.rxPowerDbm != null ? el('meter', {
        min: rx.lowAlarmDbm, max: rx.highAlarmDbm, low: rx.lowWarningDbm, high: rx.highWarningDbm,
        optimum: (rx.lowWarningDbm + rx.highWarningDbm) / 2, value: lane.rxPowerDbm,
        'aria-label': 'lane ' + lane.lane + ' Rx power against the module thresholds'}) : null;
      return el('tr', {'data-lane': lane.lane}, text('td', lane.lane, 'num'),
        text('td', fixed(lane.rxPowerDbm, 2), 'num ' + cls), el('td', {}, meter),
        text('td', marginDb(lane.rxMarginDb), 'num ' + cls), text('td', fixed(lane.txPowerDbm, 2), 'num'),
        text('td', lane.txBiasAmperes == null ? '—' : (lane.txBiasAmperes * 1000).toFixed(1), 'num'));
    }));
  }

  /** The BER points since the page opened, on a log scale (a PAM4 link's BER spans decades). */
  renderTrend() {
    const svg = byId('phys-ber-trend');
    const points = this.trend.filter(([, v]) => v > 0);
    if (points.length < 2) {
      svg.replaceChildren();
      setText(byId('phys-ber-note'), this.trend.length >= 2 && points.length === 0
        ? 'BER trend: no bit corrected in the last ' + this.trend.length + ' refreshes'
        : 'BER trend: collecting (one point per refresh)…', 'muted');
      return;
    }
    const logs = points.map(([, v]) => Math.log10(v));
    const lo = Math.floor(Math.min(...logs));
    const hi = Math.max(lo + 1, Math.ceil(Math.max(...logs)));
    const t0 = points[0][0];
    const span = Math.max(1, points[points.length - 1][0] - t0);
    const xy = points.map(([t], i) => [(t - t0) / span * 300, 60 - (logs[i] - lo) / (hi - lo) * 60]);
    const ns = 'http://www.w3.org/2000/svg';
    const line = document.createElementNS(ns, 'polyline');
    line.setAttribute('points', xy.map(([x, y]) => x.toFixed(1) + ',' + y.toFixed(1)).join(' '));
    line.setAttribute('class', 'ber-line');
    svg.replaceChildren(line);
    setText(byId('phys-ber-note'), 'BER trend over ' + fmt.duration(span) + ', 1e' + lo + ' … 1e' + hi, 'muted');
  }

  /** The port's flap ledger: marks on a 24 h strip, then each event with its time and what rose. */
  async loadEvents() {
    const key = this.key;
    let body;
    try {
      body = await getJson('/api/nodes/' + encodeURIComponent(this.node) + '/events');
    } catch (e) {
      if (key === this.key && !(e instanceof AuthRequired)) byId('phys-flaps').replaceChildren(text('p', e.message, 'bad'));
      return;
    }
    if (key !== this.key) return;
    const entry = body.ports.find((p) => p.device === this.device && p.port === Number(this.port));
    const events = entry ? entry.events : [];
    const now = Date.now();
    const from = now - TIMELINE_HOURS * 3600 * 1000;
    const strip = el('div', {className: 'flap-strip', role: 'img',
      'aria-label': events.length + ' flap events in the last ' + TIMELINE_HOURS + ' h'},
    ...events.filter((e) => e.timestampMillis >= from).map((e) => el('span', {className: 'flap-mark',
      title: fmt.clock(e.timestampMillis) + ': ' + e.flaps + ' flap(s)',
      style: 'left:' + ((e.timestampMillis - from) / (now - from) * 100).toFixed(2) + '%'})));
    const list = el('ol', {className: 'flap-list'}, ...events.slice(-10).reverse().map((e) => el('li', {},
      text('time', fmt.clock(e.timestampMillis)), ' ', e.flaps + ' flap' + (e.flaps === 1 ? '' : 's') + ' — ',
      e.changes.map((c) => c.counter + ' ' + c.from + '→' + c.to + (c.saturated ? ' (saturated)' : '')).join(', '))));
    const saturated = entry && entry.saturatedCounters.length
      ? text('p', 'stuck at 255, cannot show more flaps: ' + entry.saturatedCounters.join(', '), 'bad') : null;
    byId('phys-flaps').replaceChildren(...[text('p', events.length ? events.length + ' flap events kept (24 h)'
      : 'no flap in the ledger', events.length ? 'bad' : 'ok'), strip, list, saturated].filter(Boolean));
  }
}
