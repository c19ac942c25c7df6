package io.rdmamon.agent.sim;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.SourceStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.rdmamon.agent.sim.Trees.ethtool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The simulated QoS configuration, read back through the real {@link HostReader}, and the counters that go with it.
 * Lossless priority 5 (not the textbook 3): the fleet's RoCE DSCP 26 must be remapped onto it.
 */
class SimulatedQosTest {
    private static final int LOSSLESS = 5;

    @TempDir
    Path base;

    /** Six nodes: RoCE 1..4 (node 4 a ConnectX-5 host with MLNX_OFED), one IB, one eRDMA. */
    private FabricSimulator fleet(Scenario scenario) throws Exception {
        FabricSimulator fleet = FabricSimulator.create(base, new SimulationSpec(6, scenario, 7, LOSSLESS));
        fleet.advance(Duration.ofSeconds(5));
        return fleet;
    }

    private static HostSample read(SimulatedNode node) throws Exception {
        return HostReader.forRoot(node.hostRoot()).read(node.name());
    }

    private static IbPort port(HostSample sample, String device) {
        return sample.devices().stream().filter(d -> d.name().equals(device)).findFirst().orElseThrow().ports().get(0);
    }

    @Test
    void healthyRoceNodesTrustDscpWithPfcOnTheLosslessPriorityOnly() throws Exception {
        FabricSimulator fleet = fleet(Scenario.HEALTHY);
        for (SimulatedNode node : fleet.nodes()) {
            HostSample sample = read(node);
            if (node.kind() != NodeKind.ROCE_MLX5) {
                assertTrue(sample.devices().stream().flatMap(d -> d.ports().stream()).allMatch(p -> p.qos() == null),
                        node.name());
                continue;
            }
            for (String device : List.of("mlx5_0", "mlx5_1")) {
                QosConfig qos = port(sample, device).qos();
                assertEquals("dscp", qos.trust(), node.name());
                assertEquals(List.of(LOSSLESS), qos.pfcPriorities());
                assertEquals(LOSSLESS, qos.priorityOfDscp(SimulationSpec.ROCE_DSCP), "RoCE DSCP remapped");
                assertEquals(2, qos.priorityOfDscp(18), "the rest as d >> 3");
                assertEquals(64, qos.app().size());
                assertEquals(QosConfig.DCBX_HOST, qos.dcbx() & QosConfig.DCBX_HOST);
                assertEquals(50, qos.ets().tcBandwidthPercent().get(qos.ets().priorityTc().get(LOSSLESS)));
            }
            assertTrue(sample.sources().stream().filter(s -> s.source().equals("qos")).allMatch(SourceStatus::success),
                    sample.sources().toString());
            assertEquals(Map.of("NCCL_IB_TC", String.valueOf(SimulationSpec.ROCE_DSCP * 4), "NCCL_IB_GID_INDEX", "3"),
                    sample.ncclConf());
        }
        QosConfig ofed = port(read(fleet.nodes().get(3)), "mlx5_0").qos();
        assertEquals(true, ofed.ecn().notificationPoint().get(LOSSLESS));
        assertEquals(true, ofed.ecn().reactionPoint().get(LOSSLESS));
        assertEquals(SimulationSpec.ROCE_DSCP * 4, ofed.trafficClass());
        assertEquals(SimulationSpec.ROCE_DSCP * 4, ofed.defaultRoceTos());
        QosConfig upstream = port(read(fleet.nodes().get(0)), "mlx5_0").qos();
        assertNull(upstream.ecn(), "no OFED files on upstream hosts");
        assertNull(upstream.defaultRoceTos());
    }

    @Test
    void pfcLostLooksLikeARebootAndItsTrafficLandsOnALossyPriority() throws Exception {
        FabricSimulator fleet = fleet(Scenario.PFC_LOST);
        SimulatedNode lost = fleet.nodes().get(0);
        assertEquals(Scenario.PFC_LOST, lost.fault());
        QosConfig qos = port(read(lost), "mlx5_1").qos();
        assertEquals(List.of(), qos.pfcPriorities());
        assertEquals(List.of(), qos.app());
        assertEquals("pcp", qos.trust());
        assertEquals(List.of(1, 0, 2, 3, 4, 5, 6, 7), qos.ets().priorityTc());
        assertTrue(qos.ets().tcTsa().stream().allMatch("vendor"::equals));
        Map<String, Long> stats = ethtool(lost.hostRoot(), "ens1f1np1");
        assertFalse(stats.keySet().stream().anyMatch(name -> name.contains("_pause")
                && name.startsWith("rx_prio")), "no PFC, no pause counters: " + stats.keySet());
        assertTrue(stats.get("tx_prio0_bytes") > 10 * stats.get("tx_prio" + LOSSLESS + "_bytes"), "RDMA on priority 0");

        QosConfig peer = port(read(fleet.nodes().get(1)), "mlx5_1").qos();
        assertEquals(List.of(LOSSLESS), peer.pfcPriorities(), "the rest of the fleet keeps its configuration");
    }

    @Test
    void trustPcpKeepsPfcButTheTrafficMissesIt() throws Exception {
        FabricSimulator fleet = fleet(Scenario.TRUST_PCP);
        SimulatedNode node = fleet.nodes().get(0);
        QosConfig qos = port(read(node), "mlx5_0").qos();
        assertEquals("pcp", qos.trust());
        assertEquals(List.of(LOSSLESS), qos.pfcPriorities());
        Map<String, Long> stats = ethtool(node.hostRoot(), "ens1f0np0");
        assertTrue(stats.containsKey("rx_prio" + LOSSLESS + "_pause"));
        assertEquals(0, stats.get("tx_prio" + LOSSLESS + "_bytes"), "nothing on the lossless priority");
    }

    @Test
    void dscpMapWrongSendsTheRoceDscpToAPriorityWithoutPfc() throws Exception {
        FabricSimulator fleet = fleet(Scenario.DSCP_MAP_WRONG);
        SimulatedNode node = fleet.nodes().get(0);
        QosConfig qos = port(read(node), "mlx5_0").qos();
        int mapped = qos.priorityOfDscp(SimulationSpec.ROCE_DSCP);
        assertEquals("dscp", qos.trust());
        assertFalse(qos.pfc().enabled(mapped), "DSCP " + SimulationSpec.ROCE_DSCP + " -> " + mapped);
        Map<String, Long> stats = ethtool(node.hostRoot(), "ens1f0np0");
        assertEquals(0, stats.get("tx_prio" + LOSSLESS + "_bytes"));
        assertTrue(stats.get("tx_prio" + mapped + "_bytes") > 0);
    }

    @Test
    void ecnOffShowsInTheOfedFilesOfTheHostsThatHaveThem() throws Exception {
        FabricSimulator fleet = fleet(Scenario.ECN_OFF);
        QosConfig ofed = port(read(fleet.nodes().get(3)), "mlx5_0").qos();
        assertEquals(false, ofed.ecn().notificationPoint().get(LOSSLESS));
        assertEquals(false, ofed.ecn().reactionPoint().get(LOSSLESS));
    }
}
