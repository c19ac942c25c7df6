// The fleet as pushed by the collector: node rows, flattened into one row per port for the
// overview, badged with the diagnosis engine's findings. Each port row carries a version that changes with its data, so views redraw only what
// changed. Port facts (active, transport) come decided by the collector; nothing here re-derives them.

const SEVERITY = {ok: 0, warning: 1, critical: 2};

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
    this.byPort = new Map();     // "node/device/port" → diagnoses of the port
    this.byNode = new Map();     // node → node-level diagnoses (agent_stale)
  }

  /** The live "diagnoses" event: the full active list; every port row is re-badged. */
  setDiagnoses(message) {
    this.diagnoses = message.diagnoses;
    this.diagnosesTotal = message.total;
    Object.assign(this.runbooks, message.runbooks);
    this.byPort = new Map();
    this.byNode = new Map();
    for (const d of message.diagnoses) {
      const key = d.scope === 'node' ? d.node : d.node + '/' + d.device + '/' + d.port;
      const map = d.scope === 'node' ? this.byNode : this.byPort;
      if (!map.has(key)) map.set(key, []);
      map.get(key).push(d);
    }
    for (const row of this.ports.values()) {
      this.badge(row);
      row.ver++;
    }
    this.version++;
    this.listeners.forEach((fn) => fn(message));
  }

  /** Diagnoses of one port, with those of its node. */
  diagnosesFor(node, device, port) {
    return [...(this.byNode.get(node) || []), ...(this.byPort.get(node + '/' + device + '/' + port) || [])];
  }

  badge(row) {
    row.issues = this.diagnosesFor(row.node, row.device, row.port);
    row.severity = worstSeverity(row.issues);
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
      lastSample: node.lastSampleTimestampMillis,
    };
    this.badge(row);
    row.text = (row.key + ' ' + row.netdev + ' ' + row.state + ' ' + row.linkLayer).toLowerCase();
    return row;
  }
}

/** Highest severity of a list of diagnoses: 0 none, 1 warning, 2 critical. */
export const worstSeverity = (list) => list.reduce((max, d) => Math.max(max, SEVERITY[d.severity] || 0), 0);
