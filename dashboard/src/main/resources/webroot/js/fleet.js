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
    this.portKeys = new Map();   // node name → its port rows' keys, in its ports' order
    this.layout = 0;             // changes when a node comes or goes or its ports change (the fleet map's layout)
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
    const i = this.index;
    const old = this.nodes.get(node.node);
    const oldKeys = this.portKeys.get(node.node) || [];
    this.nodes.set(node.node, node);
    const keys = new Array(node.ports.length);
    let same = old !== undefined && oldKeys.length === keys.length;
    node.ports.forEach((p, j) => {
      // a node mostly keeps its ports from tick to tick: then the key string of the tick before is reused (no new
      // string to build and hash per port and tick, 16,000 of them at fleet size)
      const o = same ? old.ports[j] : undefined;
      const key = o && o[i.device] === p[i.device] && o[i.port] === p[i.port] ? oldKeys[j] : this.keyOf(node.node, p);
      same = same && key === oldKeys[j];
      keys[j] = key;
      const row = this.portRow(node, p, key);
      const previous = this.ports.get(key);
      row.ver = previous ? previous.ver + 1 : 0;
      this.ports.set(key, row);
    });
    this.portKeys.set(node.node, keys);
    if (!same) {
      this.layout++;
      const kept = new Set(keys);
      for (const key of oldKeys) if (!kept.has(key)) this.ports.delete(key);
    }
  }

  /** A port row's key, "node/device/port". */
  keyOf(name, p) {
    return name + '/' + p[this.index.device] + '/' + p[this.index.port];
  }

  removeNode(name) {
    if (!this.nodes.has(name)) return;
    for (const key of this.portKeys.get(name) || []) this.ports.delete(key);
    this.portKeys.delete(name);
    this.nodes.delete(name);
    this.layout++;
  }

  portRow(node, p, key) {
    const i = this.index;
    const row = {
      key,
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
