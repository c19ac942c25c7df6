package io.rdmamon.protocol.fabric;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One sweep of an InfiniBand subnet from one host: what every node and port answered, and what went wrong.
 *
 * @param subnetPrefix   the sweeping port's PortInfo {@code GidPrefix} ({@code 0x}-prefixed hex): with the SM it
 *                       names the subnet, so that two sweepers of one subnet make one fabric
 * @param smLid          the sweeping port's PortInfo {@code MasterSMLID}; null when no SM is known
 * @param smGuid         the SM's port GUID (SA SMInfo {@code GUID}); null when not known
 * @param sweeper        the node name of the sweeping agent (its {@code node} label)
 * @param timeMillis     wall-clock time at which the sweep started
 * @param durationMillis how long the sweep took
 * @param topology       whether this sweep rediscovered the topology (SMP walk); false when it only re-read the
 *                       counters of the last topology
 * @param success        whether every node answered and every output was understood
 * @param problems       one line per problem (a node that did not answer, a tool that timed out, an output that
 *                       could not be parsed), naming the node, port or tool
 * @param nodes          every node found
 */
public record FabricSweep(String subnetPrefix, Integer smLid, String smGuid, String sweeper, long timeMillis,
                          long durationMillis, boolean topology, boolean success, List<String> problems,
                          List<FabricNode> nodes) {
    public FabricSweep {
        Objects.requireNonNull(subnetPrefix, "subnetPrefix");
        Objects.requireNonNull(sweeper, "sweeper");
        problems = List.copyOf(problems);
        nodes = List.copyOf(nodes);
    }

    /** The node of {@code guid}, if found. */
    public Optional<FabricNode> node(String guid) {
        return nodes.stream().filter(n -> n.guid().equals(guid)).findFirst();
    }

    /** Every cable once, named by both ends ({@link FabricLink#of}). */
    public List<FabricLink> links() {
        return FabricLink.of(this);
    }

    /** This sweep with {@code nodes} in place of its own (a part of it on the wire). */
    public FabricSweep withNodes(List<FabricNode> nodes) {
        return new FabricSweep(subnetPrefix, smLid, smGuid, sweeper, timeMillis, durationMillis, topology, success,
                problems, nodes);
    }
}
