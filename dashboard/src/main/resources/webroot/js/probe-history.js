// Lists of probes: the history table of the Probes view and the port panel's recent probes of one port.

import * as fmt from './format.js';
import {el} from './dom.js';
import {probeHref} from './links.js';
import {endpointKey, endpointText, gbits, ratioText, sizeText} from './probe-text.js';

/** The history, newest first; each probe links to its detail. */
export function historyTable(probes, selectedId) {
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

/** The port panel's list: the last five probes from or to the port `portKey`, or why there is none. */
export function recentItems(probes, portKey, error) {
  const items = probes.slice(0, 5).map((p) => el('li', {}, el('a', {href: probeHref(p.id)},
    fmt.clock(p.createdMillis) + ' ' + (endpointKey(p.source) === portKey ? '→ ' + endpointText(p.destination)
      : '← ' + endpointText(p.source))), ' ' + p.state
    + (p.result ? ' · ' + gbits(p.result.bandwidthBitsPerSecond) + ' (' + ratioText(p.result.linkRatio) + ')' : '')));
  if (!items.length) items.push(el('li', {className: error ? 'bad' : 'muted'}, error || 'none'));
  return items;
}
