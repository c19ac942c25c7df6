// Human formatting of rates and counts. Rates arrive in base units per second (bytes, packets,
// microseconds); network throughput is shown in bits (Gb/s), as link rates are.

const NBSP = '\u202f';

function scaled(value, units, step) {
  if (value == null || Number.isNaN(value)) return '—';
  let i = 0;
  let v = value;
  while (Math.abs(v) >= step && i < units.length - 1) {
    v /= step;
    i++;
  }
  const digits = Math.abs(v) >= 100 || i === 0 && Number.isInteger(v) ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  return v.toFixed(digits) + NBSP + units[i];
}

/** bytes/s → b/s … Tb/s */
export const bits = (bytesPerSecond) =>
  bytesPerSecond == null ? '—' : scaled(bytesPerSecond * 8, ['b/s', 'kb/s', 'Mb/s', 'Gb/s', 'Tb/s'], 1000);

/** bytes/s → B/s … GB/s (decimal, as eadm stat) */
export const bytes = (bytesPerSecond) => scaled(bytesPerSecond, ['B/s', 'kB/s', 'MB/s', 'GB/s', 'TB/s'], 1000);

/** packets/s → pps, kpps, Mpps */
export const packets = (perSecond) => scaled(perSecond, ['pps', 'kpps', 'Mpps', 'Gpps'], 1000);

/** events/s → /s, k/s, M/s */
export const perSecond = (value) => scaled(value, ['/s', 'k/s', 'M/s', 'G/s'], 1000);

/** µs of pause per second → µs/s, ms/s, s/s */
export const pausePerSecond = (micros) => scaled(micros, ['µs/s', 'ms/s', 's/s'], 1000);

/** seconds → ns, µs, ms, s (round trips) */
export const latency = (seconds) => seconds == null ? '—' : scaled(seconds * 1e9, ['ns', 'µs', 'ms', 's'], 1000);

/** 0..1 → % */
export const percent = (share) =>
  share == null || Number.isNaN(share) ? '—' : (share * 100).toFixed(share >= 0.995 || share < 0.1 ? 1 : 0) + NBSP + '%';

/** bytes/s → Mb/s, plain number as mlnx_perf prints it */
export const mbps = (bytesPerSecond) => (bytesPerSecond * 8 / 1e6).toLocaleString('en-US', {maximumFractionDigits: 2}) + NBSP + 'Mb/s';

/** plain number with thousands separators */
export const count = (value) =>
  value == null ? '—' : value.toLocaleString('en-US', {maximumFractionDigits: value < 10 ? 2 : 0});

/** link rate in bytes/s → "200 Gb/s" */
export const linkRate = (bytesPerSecond) => bytesPerSecond == null ? '—' : bits(bytesPerSecond);

/** milliseconds → "3 m 12 s" */
export function duration(millis) {
  if (millis == null || millis < 0) return '—';
  const s = Math.floor(millis / 1000);
  if (s < 60) return s + NBSP + 's';
  const m = Math.floor(s / 60);
  if (m < 60) return m + NBSP + 'm ' + (s % 60) + NBSP + 's';
  const h = Math.floor(m / 60);
  if (h < 48) return h + NBSP + 'h ' + (m % 60) + NBSP + 'm';
  return Math.floor(h / 24) + NBSP + 'd ' + (h % 24) + NBSP + 'h';
}

/** epoch ms → local wall-clock time "03:12:44" */
export const clock = (millis) => new Date(millis).toLocaleTimeString('en-GB', {hour12: false});
