package io.rdmamon.collector.probe;

/**
 * The last finished (not cancelled) probe of one source → destination pair, as exported in the
 * {@code rdma_probe_*} families.
 *
 * @param srcNode                source node
 * @param srcDevice              source device
 * @param srcPort                source port
 * @param dstNode                destination node
 * @param dstDevice              destination device
 * @param dstPort                destination port
 * @param bandwidthBitsPerSecond average bandwidth; null when the probe failed before a result (absent series)
 * @param passed                 reached the pass ratio of the link rate
 * @param finishedMillis         when it finished, epoch milliseconds
 */
public record ProbeOutcome(String srcNode, String srcDevice, int srcPort, String dstNode, String dstDevice, int dstPort,
                           Double bandwidthBitsPerSecond, boolean passed, long finishedMillis) {
}
