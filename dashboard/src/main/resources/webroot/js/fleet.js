// The fleet as pushed by the collector: node rows, flattened into one row per port for the
// overview. Each port row carries a version that changes with its data, so views redraw only what
// changed. Port facts (active, transport) and each port's diagnosis badge come decided by the collector;
// nothing here re-derives them.

/** Sort rank of a badge's severity (the collector sends the name): 0 none, 1 warning, 2 critical. */
const SEVERITY = {warning: 1, critical: 2};

/** What the search matches in a port row, lower case; built when first searched (not for every row of every tick). */
export function searchText(row) {
  if (row.text === undefined) {
    row.text = (row.key + ' ' + row.netdev + ' ' + row.state + ' ' + row.linkLayer).toLowerCase();
  }
  return row.text;
}

export class Fleet {
  constructor() {
    this.nodes = new Map();      // node name → node row as sent
    this.ports = new Map();      // "node/device/port" → port row
    this.fields = [];
    this.version = 0;
    this.listeners = new Set();
    this.diagnoses = [];         // the engine's active diagnoses, critical first (live event "diagnoses")
    this.diagnosesTotal = 0;
    this.runbooks = {};          // rule → {runbook, runbookPath, runbookUrl}
  }

  /** The live "diagnoses" event: the full active list, for the panels (port rows carry their own badges). */
  setDiagnoses(message) {
    this.diagnoses = message.diagnoses;
    this.diagnosesTotal = message.total;
    Object.assign(this.runbooks, message.runbooks);
    this.version++;
    this.listeners.forEach((fn) => fn(message));
  }

  /** Diagnoses of one port, with those of its node, for the list beside its charts. */
  diagnosesFor(node, device, port) {
    return this.diagnoses.filter((d) => d.node === node && (d.scope === 'node' || (d.device === device && d.port === port)));
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
      active: p[i.active] === true, transport: p[i.transport] || 'other', linkLayer: p[i.linkLayer] || '?', rate: p[i.rateBytesPerSecond], netdev: p[i.netdev] || '',
      rx: p[i.rxBytesPerSecond], tx: p[i.txBytesPerSecond], rxp: p[i.rxPacketsPerSecond],
      txp: p[i.txPacketsPerSecond], share: p[i.losslessShare], up: node.up, connected: node.connected,
      ber: p[i.preFecBer], rxMargin: p[i.rxPowerMarginDb],
      lastSample: node.lastSampleTimestampMillis,
      badge: p[i.badge], severity: p[i.badge] ? SEVERITY[p[i.badge].severity] : 0,
    };
    return row;
  }
}
