// The node's GPU↔NIC topology (issue 26, docs/topology.md): the matrix nvidia-smi topo -m prints, the NIC(s) NCCL
// pairs each GPU with, and every GPU↔NIC pair's GPUDirect RDMA verdict with its reasons. Everything comes evaluated
// from the agent through /api/nodes/{node}/topology; this module only lays it out.

import {getJson, AuthRequired} from './api.js';
import {byId, el, text} from './dom.js';

const VERDICT_CLASS = {ready: 'ok', degraded: 'warn', not_ready: 'bad'};

export class TopologyPanel {
  constructor() {
    this.node = null;
  }

  /** Loads the node's topology (again: the agent re-reads it on its slow cadence). */
  async open(node) {
    this.node = node;
    const body = byId('topology-body');
    if (!this.loaded || this.loaded !== node) body.replaceChildren(text('p', 'Loading…', 'muted'));
    try {
      const topology = await getJson('/api/nodes/' + encodeURIComponent(node) + '/topology');
      if (this.node !== node) return;
      this.loaded = node;
      body.replaceChildren(...render(topology));
    } catch (e) {
      if (e instanceof AuthRequired) return;
      body.replaceChildren(text('p', 'Topology not available: ' + e.message, 'muted'));
    }
  }
}

/** The panel's content for one answer of /api/nodes/{node}/topology. */
export function render(topology) {
  if (!topology.endpoints.length) {
    return [text('p', (topology.notes || []).join('; ') || 'no GPU topology', 'muted')];
  }
  const summary = topology.gdrReady
    ? text('p', 'GPUDirect RDMA ready for every GPU and the NIC(s) NCCL pairs it with.', 'ok')
    : text('p', 'GPUDirect RDMA is not ready for every GPU: see the pairs below.', 'bad');
  return [summary, matrix(topology), text('h3', 'NCCL\'s NIC per GPU'), choices(topology), text('h3', 'Pairs'),
    pairs(topology), text('h3', 'Host'), el('ul', {className: 'topology-notes'},
      ...(topology.notes || []).map((note) => text('li', note)))];
}

function matrix(topology) {
  const labels = topology.endpoints.map((e) => e.label);
  const head = el('tr', null, el('th', {scope: 'col'}), ...labels.map((l) => text('th', l)),
    el('th', {scope: 'col'}, 'CPU Affinity'), el('th', {scope: 'col'}, 'NUMA Affinity'));
  const rows = topology.endpoints.map((e, i) => el('tr', null, el('th', {scope: 'row', title: e.name + ' ' + e.address},
    e.label), ...topology.matrix[i].map((cell) => text('td', cell, 'path path-' + cell.toLowerCase())),
  text('td', e.cpus ?? 'N/A'), text('td', e.numaNode ?? 'N/A', 'num')));
  const legend = topology.endpoints.filter((e) => e.kind === 'nic').map((e) => e.label + ': ' + e.name).join(' · ');
  return el('div', null, el('table', {className: 'data topology-matrix', id: 'topology-matrix'},
    el('caption', null, 'GPU↔GPU cells are the PCIe path (NVLink is not read) · ' + legend),
    el('thead', null, head), el('tbody', null, ...rows)));
}

function choices(topology) {
  return el('ul', {className: 'topology-choices', id: 'topology-choices'}, ...topology.choices.map((c) =>
    el('li', {className: c.good ? 'ok' : 'bad'}, c.gpu + ' → ' + (c.nics || []).join(', ') + ' (' + (c.path || '—')
      + '): ' + (c.good ? 'good' : 'not good'))));
}

function pairs(topology) {
  const rows = topology.pairs.map((p) => el('tr', null, text('td', p.gpu), text('td', p.nic), text('td', p.path),
    text('td', p.verdict, VERDICT_CLASS[p.verdict] || null), text('td', p.chosen ? 'yes' : ''),
    el('td', null, ...p.reasons.map((r) => text('div', r)))));
  return el('table', {className: 'data', id: 'topology-pairs'}, el('thead', null, el('tr', null,
    ...['GPU', 'NIC', 'path', 'verdict', 'NCCL pick', 'reasons'].map((h) => el('th', {scope: 'col'}, h)))),
  el('tbody', null, ...rows));
}
