// The fleet as pushed by the collector: node rows, flattened into one row per port for the
// overview. Each port row carries a version that changes with its data, so views redraw only what
// changed.

const SEVERITY = {ok: 0, warning: 1, critical: 2};
export const ACTIVE = 4;

export class Fleet {
  constructor() {
    this.nodes = new Map();      // node name → node row as sent
    this.ports = new Map();      // "node/device/port" → port row
    this.fields = [];
    this.version = 0;
    this.listeners = new Set();
  }

  setFields(fields) {
    this.fields = fields;
    this.index = Object.fromEntries(fields.map((f, i) => [f, i]));
  }

  onChange(fn) {
    this.listeners.add(fn);
  }

  apply(message) {
    if (message.full) {
      const seen = new Set(message.nodes.map((n) => n.node));
      for (const name of this.nodes.keys()) if (!seen.has(name)) this.removeNode(name);
    }
    message.nodes.forEach((n) => this.putNode(n));
    message.removed.forEach((name) => this.removeNode(name));
    this.version++;
    this.listeners.forEach((fn) => fn(message));
  }

  putNode(node) {
    const old = this.nodes.get(node.node);
    this.nodes.set(node.node, node);
    const keys = new Set();
    for (const p of node.ports) {
      const row = this.portRow(node, p);
      keys.add(row.key);
      const previous = this.ports.get(row.key);
      row.ver = previous ? previous.ver + 1 : 0;
      this.ports.set(row.key, row);
    }
    if (old) {
      for (const p of old.ports) {
        const key = node.node + '/' + p[this.index.device] + '/' + p[this.index.port];
        if (!keys.has(key)) this.ports.delete(key);
      }
    }
  }

  removeNode(name) {
    const node = this.nodes.get(name);
    if (!node) return;
    for (const p of node.ports) this.ports.delete(name + '/' + p[this.index.device] + '/' + p[this.index.port]);
    this.nodes.delete(name);
  }

  portRow(node, p) {
    const i = this.index;
    const row = {
      key: node.node + '/' + p[i.device] + '/' + p[i.port],
      node: node.node, device: p[i.device], port: p[i.port], state: p[i.state] || '?', stateId: p[i.stateId],
      linkLayer: p[i.linkLayer] || '?', rate: p[i.rateBytesPerSecond], netdev: p[i.netdev] || '',
      rx: p[i.rxBytesPerSecond], tx: p[i.txBytesPerSecond], rxp: p[i.rxPacketsPerSecond],
      txp: p[i.txPacketsPerSecond], share: p[i.losslessShare], up: node.up, connected: node.connected,
      lastSample: node.lastSampleTimestampMillis,
    };
    row.issues = issues(node, row);
    row.severity = row.issues.reduce((max, issue) => Math.max(max, SEVERITY[issue.severity]), 0);
    row.text = (row.key + ' ' + row.netdev + ' ' + row.state + ' ' + row.linkLayer).toLowerCase();
    return row;
  }
}

/** What is wrong with a port from the facts pushed (until the diagnosis engine reports its own). */
export function issues(node, row) {
  const found = [];
  if (!node.up) {
    found.push({severity: 'critical', text: node.lastSampleTimestampMillis ? 'agent stale' : 'no sample yet',
      since: node.lastSampleTimestampMillis});
  } else if (!node.connected) {
    found.push({severity: 'warning', text: 'agent disconnected'});
  }
  if (row && row.stateId !== ACTIVE) found.push({severity: 'critical', text: 'port ' + row.state});
  for (const [source, subject, error] of node.failures) {
    found.push({severity: 'warning', text: source + ' ' + subject + ' failed', detail: error});
  }
  return found;
}

/** Node-level issues (for the diagnoses panels). */
export function nodeIssues(node) {
  return issues(node, null);
}
