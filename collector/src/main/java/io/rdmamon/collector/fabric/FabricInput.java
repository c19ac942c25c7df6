package io.rdmamon.collector.fabric;

import io.rdmamon.protocol.fabric.FabricLink;
import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.FabricSweep;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What the fabric rules read of one fabric: its last two sweeps (the previous one null on the first), the links seen
 * up before that the last topology no longer has, and the hosts behind its HCA ports.
 */
public final class FabricInput {
    private final String subnet;
    private final FabricSweep current;
    private final long elapsedMillis;
    private final List<LinkEnds> lost;
    private final HostPorts hosts;
    private final List<FabricLink> links;
    private final Map<String, FabricPort> previousPorts = new HashMap<>();

    /**
     * @param elapsedMillis between the two sweeps' start times; 0 when there is no previous sweep
     * @param lost          links seen up before that are gone now ({@code fabric_link_down})
     */
    public FabricInput(String subnet, FabricSweep previous, FabricSweep current, long elapsedMillis,
                       List<LinkEnds> lost, HostPorts hosts) {
        this.subnet = Objects.requireNonNull(subnet, "subnet");
        this.current = Objects.requireNonNull(current, "current");
        this.elapsedMillis = elapsedMillis;
        this.lost = List.copyOf(lost);
        this.hosts = Objects.requireNonNull(hosts, "hosts");
        this.links = current.links();
        if (previous != null) {
            for (FabricNode node : previous.nodes()) {
                node.ports().forEach(p -> previousPorts.put(node.guid() + "/" + p.number(), p));
            }
        }
    }

    public String subnet() {
        return subnet;
    }

    public FabricSweep current() {
        return current;
    }

    public long elapsedMillis() {
        return elapsedMillis;
    }

    /** Every cable of the last sweep, named by both ends. */
    public List<FabricLink> links() {
        return links;
    }

    public List<LinkEnds> lost() {
        return lost;
    }

    /**
     * How much {@code counter} of {@code end} rose since the previous sweep; empty without a previous read of it, or
     * when it went down (the counters were reset): a rise is never guessed.
     */
    public OptionalLong rise(FabricLink.End end, String counter) {
        FabricPort before = previousPorts.get(end.node().guid() + "/" + end.port().number());
        Long now = end.port().counters().get(counter);
        Long then = before == null ? null : before.counters().get(counter);
        if (now == null || then == null || Long.compareUnsigned(now, then) < 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(now - then);
    }

    /** {@code; hosts behind it: h2 mlx5_0 port 1 (workloads: ml/train-0)}, or that no agent reports either end. */
    public String hostsBehind(LinkEnds link) {
        List<String> behind = new ArrayList<>();
        for (LinkEnds.End end : List.of(link.a(), link.b())) {
            hosts.of(end.guid(), end.port()).ifPresent(h -> behind.add(h.toString()));
        }
        return behind.isEmpty() ? "; no agent reports a host behind either end"
                : "; hosts behind it: " + String.join("; ", behind);
    }
}
