package io.rdmamon.protocol.model;

import io.rdmamon.protocol.rates.CounterGroup;
import io.rdmamon.protocol.testing.Samples;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The port facts every module uses, one table each: transport, active, GID advice, byte counters, names. */
class PortFactsTest {
    private static final String V4_GID = "0000:0000:0000:0000:0000:ffff:c0a8:0102";
    private static final String LINK_LOCAL = "fe80:0000:0000:0000:0e42:a1ff:fe12:3456";
    private static final String GLOBAL_V6 = "2001:0db8:0000:0000:0000:0000:0000:0001";
    private static final String MAC_GID = "0016:3e01:0203:0000:0000:0000:0000:0000";

    /**
     * gids: {@code ;}-separated {@code index/kind/type} where kind is v4, ll (link-local), v6 (global) or mac,
     * and type is v1, v2 or - (gid_attrs unreadable).
     */
    private static List<GidEntry> gids(String spec) {
        List<GidEntry> gids = new ArrayList<>();
        if (spec == null) {
            return gids;
        }
        for (String entry : spec.split(";")) {
            String[] f = entry.split("/");
            String gid = switch (f[1]) {
                case "v4" -> V4_GID;
                case "ll" -> LINK_LOCAL;
                case "v6" -> GLOBAL_V6;
                default -> MAC_GID;
            };
            String type = switch (f[2]) {
                case "v1" -> "IB/RoCE v1";
                case "v2" -> "RoCE v2";
                default -> null;
            };
            gids.add(new GidEntry(Integer.parseInt(f[0]), gid, type, "eth2", f[1].equals("v4") ? "192.168.1.2" : null));
        }
        return gids;
    }

    private static IbPort port(int stateId, String linkLayer, List<GidEntry> gids) {
        return Samples.rocePort().state(stateId).linkLayer(linkLayer).gids(gids).build();
    }

    @ParameterizedTest(name = "node type {0}, {1}, GIDs {2}: {3}")
    @CsvSource(nullValues = "none", value = {
            // mlx5 (a CA) on either link layer
            "1, InfiniBand, none,                 INFINIBAND",
            "1, Ethernet,   0/ll/v1;1/ll/v2,      ROCE",
            "1, Ethernet,   none,                 ROCE",
            // eRDMA (an RNIC): iWARP mode has the MAC GID without types; RoCE v2 mode has RoCE v2 GIDs
            "4, Ethernet,   0/mac/-,              IWARP",
            "4, Ethernet,   none,                 IWARP",
            "4, Ethernet,   0/mac/v1,             IWARP",
            "4, Ethernet,   0/ll/v2;1/v4/v2,      ROCE",
            // node type unreadable: not evidence of iWARP
            "0, Ethernet,   none,                 ROCE",
            "1, Unknown,    none,                 OTHER",
            "1, none,       none,                 OTHER"})
    void transportIsDecidedByLinkLayerNodeTypeAndGidTypes(int nodeTypeId, String linkLayer, String gidSpec,
                                                          PortTransport expected) {
        List<GidEntry> gids = gids(gidSpec);
        assertEquals(expected, PortTransport.of(nodeTypeId, linkLayer, gids));
        assertEquals(expected == PortTransport.IWARP, expected.needsRdmaCm());
    }

    @ParameterizedTest(name = "state {0}: active {1}")
    @CsvSource({"4, true", "5, true", "1, false", "2, false", "3, false", "0, false", "-1, false"})
    void activeIsActiveOrActiveDefer(int stateId, boolean active) {
        assertEquals(active, port(stateId, "Ethernet", List.of()).isActive());
    }

    @ParameterizedTest(name = "{0} {1}: index {2}, ok {3}")
    @CsvSource(nullValues = "none", delimiter = '|', value = {
            "InfiniBand | 0/ll/v1                 | none | true  | InfiniBand port: NCCL_IB_GID_INDEX does not apply",
            "Ethernet   | 0/ll/v1;1/ll/v2;2/v4/v1;3/v4/v2;4/v4/v2 | 3 | true | Use NCCL_IB_GID_INDEX=3: RoCE v2 over IPv4 192.168.1.2 on eth2. Also RoCE v2 IPv4: 4.",
            "Ethernet   | 0/ll/v1;1/ll/v2;2/v6/v2 | none | false | No RoCE v2 GID with an IPv4 address",
            "Ethernet   | 0/ll/v1;1/v4/v1         | none | false | No RoCE v2 GID on this port",
            "Unknown    | none                    | none | false | Link layer Unknown",
            "RNIC       | 0/mac/-                 | none | false | iWARP port"})
    void gidAdviceNamesTheFirstRoceV2Ipv4Gid(String layer, String gidSpec, Integer index, boolean ok, String text) {
        boolean rnic = layer.equals("RNIC");
        IbPort port = port(4, rnic ? "Ethernet" : layer, gids(gidSpec));
        GidAdvice advice = GidAdvice.of(PortTransport.of(rnic ? 4 : 1, port.linkLayer(), port.gids()), port);
        assertEquals(index, advice.index());
        assertEquals(index == null ? null : "192.168.1.2", advice.ipv4());
        assertEquals(index == null ? null : V4_GID, advice.gid());
        assertEquals(ok, advice.ok());
        assertTrue(advice.text().startsWith(text), advice.text());
    }

    @ParameterizedTest(name = "{0}: routable RoCE v2 {1}")
    @CsvSource(nullValues = "none", value = {
            "0/v4/v2,         true",
            "0/v6/v2,         true",
            "0/ll/v2,         false",
            "0/v4/v1;1/ll/v2, false",
            "0/mac/-,         false",
            "none,            false"})
    void gidNoRocev2WantsARoutableRoceV2Gid(String gidSpec, boolean routable) {
        assertEquals(routable, GidAdvice.hasRoutableRoceV2(port(4, "Ethernet", gids(gidSpec))));
    }

    @ParameterizedTest(name = "{0} {1}: bytes {2}")
    @CsvSource({
            "PORT_COUNTERS, port_rcv_data,               true",
            "PORT_COUNTERS, port_xmit_data,              true",
            "PORT_COUNTERS, port_xmit_packets,           false",
            "ETHTOOL,       port_rcv_data,               false",
            "ETHTOOL,       rx_vport_rdma_unicast_bytes, true",
            "ETHTOOL,       tx_prio3_bytes,              true",
            "ETHTOOL,       rx_octets,                   true",
            "ETHTOOL,       rx_1024_to_1518_bytes_phy,   false",
            "ETHTOOL,       rx_packets_phy,              false",
            "HW_COUNTERS,   rx_bytes_cnt,                true",
            "HW_COUNTERS,   hw_rx_bytes_cnt,             true",
            "HW_COUNTERS,   np_cnp_sent,                 false"})
    void byteCountersFollowMlnxPerfPlusTheDataCounters(CounterGroup group, String name, boolean bytes) {
        assertEquals(bytes, CounterUnits.isByteCounter(group, name));
    }

    @ParameterizedTest(name = "node name \"{0}\": {1}")
    @CsvSource(nullValues = "none", value = {
            "gpu-node-001,       true",
            "node.example.com,   true",
            "n_1,                true",
            "9node,              true",
            "host:9100,          false",
            "fe80::1,            false",
            "-node,              false",
            ".node,              false",
            "'',                 false",
            "'a b',              false",
            "a/b,                false",
            "none,               false"})
    void nodeNamesAreHostNames(String name, boolean valid) {
        assertEquals(valid, Names.isNodeName(name));
    }

    @ParameterizedTest(name = "node name of {0} characters: {1}")
    @CsvSource({"253, true", "254, false"})
    void nodeNamesAreAtMost253Characters(int length, boolean valid) {
        assertEquals(valid, Names.isNodeName("n".repeat(length)));
    }

    @ParameterizedTest(name = "interface \"{0}\": {1}")
    @CsvSource(nullValues = "none", value = {
            "eth0,             true",
            "enp1s0f0np0,      true",
            "ib0.8001,         true",
            "123456789012345,  true",
            "1234567890123456, false",
            "eth0:1,           false",
            "'.',              false",
            "'..',             false",
            "a/b,              false",
            "'a b',            false",
            "'',               false",
            "none,             false"})
    void interfaceNamesAreWhatTheKernelAccepts(String name, boolean valid) {
        assertEquals(valid, Names.isInterfaceName(name));
    }
}
