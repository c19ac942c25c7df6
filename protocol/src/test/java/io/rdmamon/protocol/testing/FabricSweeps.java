package io.rdmamon.protocol.testing;

import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.fabric.LinkSpeed;
import io.rdmamon.protocol.fabric.NodeType;
import io.rdmamon.protocol.fabric.PmaCounters;
import io.rdmamon.protocol.fabric.PortState;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Small fabric sweeps for tests of the fabric model and of what consumes it: one leaf switch with two HCAs, the
 * second HCA's cable trained at 1X, a down switch port, and error counters on the leaf's port to h2.
 */
public final class FabricSweeps {
    public static final String LEAF = "0x0000000000200000";
    public static final String H1 = "0x0000000000100000";
    public static final String H2 = "0x0000000000100002";

    private FabricSweeps() {
    }

    /** The fabric above, swept by {@code sweeper}. */
    public static FabricSweep leafAndTwoHosts(String sweeper) {
        FabricNode leaf = new FabricNode(LEAF, NodeType.SWITCH, "leaf1", List.of(
                up(1, 2, 4, H1, 1, counters(0, 0)),
                up(2, 2, 1, H2, 1, counters(50, 1234)),
                down(3, 2)));
        FabricNode h1 = new FabricNode(H1, NodeType.CA, "h1 mlx5_0", List.of(up(1, 1, 4, LEAF, 1, counters(0, 0))));
        FabricNode h2 = new FabricNode(H2, NodeType.CA, "h2 mlx5_0", List.of(up(1, 3, 1, LEAF, 2, counters(0, 0))));
        return new FabricSweep("0xfe80000000000000", 1, "0x0000000000100001", sweeper, 1_764_367_084_000L, 310, true,
                true, List.of(), List.of(leaf, h1, h2));
    }

    /** An Active/LinkUp port at SDR, {@code width} lanes, supporting 1X/4X/12X. */
    public static FabricPort up(int number, int lid, int width, String remoteGuid, int remotePort,
                                Map<String, Long> counters) {
        return new FabricPort(number, lid, PortState.ACTIVE, "Active", PortState.LINK_UP, "LinkUp", width,
                LinkSpeed.SDR, List.of(1, 4, 12), List.of(LinkSpeed.SDR, LinkSpeed.DDR, LinkSpeed.QDR), List.of(4),
                List.of(LinkSpeed.SDR), remoteGuid, remotePort,
                List.of(PmaCounters.PORT_COUNTERS, PmaCounters.PORT_COUNTERS_EXTENDED), counters);
    }

    /** A Down/Polling port with nothing linked. */
    public static FabricPort down(int number, int lid) {
        return new FabricPort(number, lid, 1, "Down", 2, "Polling", null, null, List.of(1, 4, 12), List.of(LinkSpeed.SDR),
                List.of(4), List.of(LinkSpeed.SDR), null, null, List.of(PmaCounters.PORT_COUNTERS), counters(0, 0));
    }

    /** Every PortCounters error counter at 0 but SymbolErrorCounter, PortXmitWait, and a 64-bit data counter. */
    public static Map<String, Long> counters(long symbolErrors, long xmitWait) {
        Map<String, Long> counters = new LinkedHashMap<>();
        PmaCounters.ERRORS.forEach(name -> counters.put(name, 0L));
        counters.put("SymbolErrorCounter", symbolErrors);
        counters.put(PmaCounters.PORT_XMIT_WAIT, xmitWait);
        counters.put("PortXmitData", -1L); // 2^64 - 1: unsigned on the wire
        return counters;
    }
}
