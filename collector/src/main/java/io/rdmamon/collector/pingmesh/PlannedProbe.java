package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.PortKey;

/**
 * One latency probe of a round: {@code src} runs the client, {@code dst} the server.
 *
 * @param slot       the slot of the round it starts in (0-based): a round has {@code peersPerRound} slots towards
 *                   the port's own group, then {@code otherGroupsPerRound} towards other groups
 * @param ownGroup   whether both ports are of one group
 */
public record PlannedProbe(PortKey src, PortKey dst, int slot, boolean ownGroup) {
}
