// How a probe's endpoints, sizes and results read, shared by the probe form, card and history.

import * as fmt from './format.js';

export const isTerminal = (probe) => probe.terminal;
export const endpointKey = (e) => e.node + '/' + e.device + '/' + e.port;
export const endpointText = (e) => e.node + ' ' + e.device + '/' + e.port;
export const gbits = (bitsPerSecond) => bitsPerSecond == null ? '—' : fmt.bits(bitsPerSecond / 8);
// one decimal: 89.6 % must not read as a rounded-up 90 % next to a 90 % pass mark
export const ratioText = (ratio) => ratio == null ? '—' : (ratio * 100).toFixed(1) + '\u202f%';

/** 65536 → "64 KiB" (perftest sizes are powers of two, so binary units read exactly). */
export function sizeText(bytes) {
  if (bytes == null) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let i = 0;
  while (value >= 1024 && value % 1024 === 0 && i < units.length - 1) {
    value /= 1024;
    i++;
  }
  return value + '\u202f' + units[i];
}
