// The node's source statuses (GET /api/nodes/{node} → sources: {source, subject, status, error, unsupported}) as the
// port detail shows them. A capability the NIC or kernel lacks (status "unsupported": no DCB on a virtio NIC, no
// libibverbs) is how the node is, so it is shown neutral; only a failed read is an error.

const names = (statuses) => statuses.map((s) => s.source + ' ' + s.subject).join(', ');

/** The head's "Sources" fact: [text, class]; null before the node's detail arrived. */
export function sourcesFact(sources) {
  if (!sources) return [null, ''];
  const failed = sources.filter((s) => s.status === 'failed');
  const unsupported = sources.filter((s) => s.status === 'unsupported');
  const parts = [(sources.length - failed.length - unsupported.length) + ' read'];
  if (failed.length) parts.push(failed.length + ' failed: ' + names(failed));
  if (unsupported.length) parts.push('not supported here: ' + names(unsupported));
  return [parts.join(' · '), failed.length ? 'bad' : unsupported.length ? 'muted' : 'ok'];
}

/** The QoS tab's line for a port without a QoS configuration: [text, class], from the netdev's qos status. */
export function missingQosHint(sources, netdev) {
  const status = (sources || []).find((s) => s.source === 'qos' && s.subject === netdev);
  if (status?.status === 'unsupported') {
    return ['QoS not supported on ' + netdev + ': ' + status.unsupported + '.', 'muted'];
  }
  if (status?.status === 'failed') {
    return ['QoS configuration of ' + netdev + ' could not be read: ' + status.error, 'bad'];
  }
  return ['No QoS configuration read for this port (not RoCE, or not read yet).', 'muted'];
}
