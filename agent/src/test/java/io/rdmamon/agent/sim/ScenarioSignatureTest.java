package io.rdmamon.agent.sim;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import static io.rdmamon.agent.sim.Trees.counter;
import static io.rdmamon.agent.sim.Trees.ethtool;
import static io.rdmamon.agent.sim.Trees.hw;
import static io.rdmamon.agent.sim.Trees.port;
import static io.rdmamon.agent.sim.Trees.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each scenario leaves the signature its diagnosis rule looks for, on the nodes it targets, and
 * nothing of it elsewhere. Fleets of 3 nodes (RoCE, IB, eRDMA) over 10 simulated seconds.
 * ({@code mixed} is a fleet plan of these faults; FleetPlanTest covers it.)
 */
class ScenarioSignatureTest {
    private static final String[] TRANSPORT_LOSS = {"out_of_sequence", "packet_seq_err", "local_ack_timeout_err"};
    private static final double SECONDS = 10;

    @TempDir
    Path base;

    /** Counter values before and after 10 simulated seconds, with the port states seen after each tick. */
    private record Run(FabricSimulator fleet, Map<String, Long> before, Map<String, Long> after, Set<String> states) {
        long delta(String key) {
            return after.get(key) - before.get(key);
        }

        Path root(NodeKind kind) {
            return fleet.nodes().stream().filter(node -> node.kind() == kind).findFirst().orElseThrow().hostRoot();
        }
    }

    /** Two 5-second ticks: enough for rates, cheap on a slow disk. */
    private Run run(Scenario scenario) throws IOException {
        return run(scenario, Duration.ofSeconds(5));
    }

    private Run run(Scenario scenario, Duration step) throws IOException {
        FabricSimulator fleet = FabricSimulator.create(base, new SimulationSpec(3, scenario, 11, 3));
        Path roce = fleet.nodes().get(0).hostRoot();
        Map<String, Long> before = read(fleet);
        Set<String> states = new TreeSet<>();
        for (Duration done = Duration.ZERO; done.getSeconds() < SECONDS; done = done.plus(step)) {
            fleet.advance(step);
            for (String device : List.of("mlx5_0", "mlx5_1")) {
                states.add(device + " " + text(port(roce, device).resolve("state")).strip());
            }
        }
        return new Run(fleet, before, read(fleet), states);
    }

    /** Keys: "<device> <counter>" (PMA, hw) and "<device> eth <stat>" on the RoCE node, "erdma <counter>". */
    private static Map<String, Long> read(FabricSimulator fleet) {
        Map<String, Long> values = new HashMap<>();
        Path roce = fleet.nodes().get(0).hostRoot();
        for (String device : List.of("mlx5_0", "mlx5_1")) {
            String netdev = device.equals("mlx5_0") ? "ens1f0np0" : "ens1f1np1";
            for (String name : List.of("port_xmit_data", "link_downed", "symbol_error")) {
                values.put(device + " " + name, counter(roce, device, name));
            }
            for (String name : List.of("np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled", "rp_cnp_ignored",
                    "out_of_sequence", "packet_seq_err", "local_ack_timeout_err")) {
                values.put(device + " " + name, hw(roce, device, name));
            }
            ethtool(roce, netdev).forEach((name, value) -> values.put(device + " eth " + name, value));
        }
        Path erdma = fleet.nodes().get(2).hostRoot();
        for (String name : List.of("tx_bytes_cnt", "tx_bps_limit_drop_cnt", "tx_pps_limit_drop_cnt",
                "rx_bps_limit_drop_cnt", "rx_pps_limit_drop_cnt")) {
            values.put("erdma " + name, hw(erdma, "erdma_0", name));
        }
        return values;
    }

    private static double pauseSecondsPerSecond(Run run, String device, String direction) {
        return run.delta(device + " eth " + direction + "_prio3_pause_duration") / 1e6 / SECONDS;
    }

    private static void assertNoTransportLoss(Run run, String device) {
        for (String name : TRANSPORT_LOSS) {
            assertEquals(0, run.delta(device + " " + name), device + " " + name);
        }
    }

    @Test
    void healthyShowsNoFaultSignature() throws IOException {
        Run run = run(Scenario.HEALTHY);
        for (String device : List.of("mlx5_0", "mlx5_1")) {
            long rdmaBytes = run.delta(device + " port_xmit_data") * 4;
            assertTrue(Math.abs(run.delta(device + " eth tx_prio3_bytes") - rdmaBytes) < 4, "RDMA on the lossless priority");
            // only light TCP on priority 0: well under 10 % of 200 Gb/s
            assertTrue(run.delta(device + " eth tx_prio0_bytes") < 0.1 * 25e9 * SECONDS, "TCP on priority 0");
            assertTrue(pauseSecondsPerSecond(run, device, "rx") < 0.01 && pauseSecondsPerSecond(run, device, "tx") < 0.01);
            assertEquals(0, run.delta(device + " eth tx_pause_storm_warning_events"));
            assertEquals(0, run.delta(device + " eth tx_pause_storm_error_events"));
            assertTrue(run.delta(device + " np_ecn_marked_roce_packets") > 0, "ECN marks under load");
            assertTrue(run.delta(device + " np_cnp_sent") > 0 && run.delta(device + " rp_cnp_handled") > 0);
            assertEquals(0, run.delta(device + " rp_cnp_ignored"));
            assertEquals(0, run.delta(device + " link_downed"));
            assertEquals(0, run.delta(device + " eth rx_prio0_discards"));
            assertNoTransportLoss(run, device);
        }
        assertEquals(Set.of("mlx5_0 4: ACTIVE", "mlx5_1 4: ACTIVE"), run.states());
        Path roce = run.root(NodeKind.ROCE_MLX5);
        assertEquals(text(port(roce, "mlx5_0").resolve("rate")), text(port(roce, "mlx5_1").resolve("rate")));
        assertTrue(run.delta("erdma tx_bytes_cnt") > 0);
        assertEquals(0, run.delta("erdma tx_bps_limit_drop_cnt") + run.delta("erdma rx_pps_limit_drop_cnt"));
    }

    @Test
    void wrongPriorityPutsRdmaBytesOnAPriorityWithoutPauseCounters() throws IOException {
        Run run = run(Scenario.WRONG_PRIORITY);
        for (String device : List.of("mlx5_0", "mlx5_1")) {
            long rdmaBytes = run.delta(device + " port_xmit_data") * 4;
            assertTrue(rdmaBytes > 0);
            assertTrue(run.delta(device + " eth tx_prio0_bytes") >= rdmaBytes - 4, "RDMA bytes land on priority 0");
            assertEquals(0, run.delta(device + " eth tx_prio3_bytes"), "nothing on the lossless priority");
            assertTrue(run.after().containsKey(device + " eth rx_prio3_pause"), "PFC still enabled on 3");
            assertFalse(run.after().containsKey(device + " eth rx_prio0_pause"), "no PFC on 0");
        }
        assertEquals(Scenario.WRONG_PRIORITY, run.fleet().nodes().get(0).fault());
    }

    @Test
    void pfcStormSaturatesTxPauseOnTheLosslessPriorityAndCountsStormEvents() throws IOException {
        Run run = run(Scenario.PFC_STORM);
        for (String device : List.of("mlx5_0", "mlx5_1")) {
            double paused = pauseSecondsPerSecond(run, device, "tx");
            assertTrue(paused > 0.95 && paused <= 1.0, device + " paused " + paused + " s/s");
            assertTrue(run.delta(device + " eth tx_pause_storm_warning_events") > 0);
            assertTrue(run.delta(device + " eth tx_pause_storm_error_events") > 0);
            assertTrue(run.delta(device + " out_of_sequence") > 0, "storms lose packets");
        }
        assertEquals(List.of(Scenario.PFC_STORM, Scenario.HEALTHY, Scenario.HEALTHY),
                run.fleet().nodes().stream().map(SimulatedNode::fault).toList());
    }

    @Test
    void ecnOffHasSustainedPausesAndNoEcnOrCnpAtAll() throws IOException {
        Run run = run(Scenario.ECN_OFF);
        for (String device : List.of("mlx5_0", "mlx5_1")) {
            assertTrue(run.delta(device + " eth rx_prio3_pause") >= 3000, "pauses every tick");
            assertTrue(pauseSecondsPerSecond(run, device, "rx") > 0.01, "sustained");
            for (String name : List.of("np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled")) {
                assertEquals(0, run.after().get(device + " " + name), device + " " + name + " stays 0");
            }
            assertNoTransportLoss(run, device);
        }
    }

    @Test
    void linkDegradedRunsOnePortAtHalfRateAndFlapsIt() throws IOException {
        Run run = run(Scenario.LINK_DEGRADED, Duration.ofSeconds(1));
        Path roce = run.root(NodeKind.ROCE_MLX5);
        assertEquals("200 Gb/sec (4X HDR)\n", text(port(roce, "mlx5_0").resolve("rate")));
        assertEquals("100 Gb/sec (4X EDR)\n", text(port(roce, "mlx5_1").resolve("rate")));
        assertEquals(Set.of("mlx5_0 4: ACTIVE", "mlx5_1 1: DOWN", "mlx5_1 4: ACTIVE"), run.states());
        // t = 10 s is a down moment (speed unknown); one second later the link is back at half rate
        assertEquals("-1\n", text(roce.resolve("sys/class/net/ens1f1np1/speed")));
        run.fleet().advance(Duration.ofSeconds(1));
        assertEquals("100000\n", text(roce.resolve("sys/class/net/ens1f1np1/speed")));
        assertEquals("up\n", text(roce.resolve("sys/class/net/ens1f1np1/operstate")));
        assertEquals((long) (SECONDS / Mlx5Device.FLAP_PERIOD_SECONDS), run.delta("mlx5_1 link_downed"));
        assertEquals(run.delta("mlx5_1 link_downed"), run.delta("mlx5_1 eth link_down_events_phy"));
        assertTrue(run.delta("mlx5_1 symbol_error") > 0);
        assertTrue(run.delta("mlx5_1 out_of_sequence") > 0 && run.delta("mlx5_1 local_ack_timeout_err") > 0);
        assertEquals(0, run.delta("mlx5_0 link_downed"));
        assertNoTransportLoss(run, "mlx5_0");
    }

    @Test
    void gidMissingLeavesOnePortWithoutARoceV2Ipv4Gid() throws IOException {
        Run run = run(Scenario.GID_MISSING);
        Path roce = run.root(NodeKind.ROCE_MLX5);
        Function<String, List<String>> roceV2Ipv4Gids = device -> {
            Path port = port(roce, device);
            List<String> found = new ArrayList<>();
            for (int index = 0; index < 255; index++) {
                Path type = port.resolve("gid_attrs/types/" + index);
                String gid = text(port.resolve("gids/" + index));
                if (Files.exists(type) && text(type).equals("RoCE v2\n") && gid.startsWith("0000:0000:0000:0000:0000:ffff:")) {
                    found.add(gid.strip());
                }
            }
            return found;
        };
        assertEquals(List.of("0000:0000:0000:0000:0000:ffff:0a01:0001"), roceV2Ipv4Gids.apply("mlx5_0"));
        assertEquals(List.of(), roceV2Ipv4Gids.apply("mlx5_1"));
        assertEquals("RoCE v2\n", text(port(roce, "mlx5_1").resolve("gid_attrs/types/1")), "link-local v2 remains");
    }

    @Test
    void erdmaRatelimitDropsOnBothLimitersBothWays() throws IOException {
        Run run = run(Scenario.ERDMA_RATELIMIT);
        for (String name : List.of("tx_bps_limit_drop_cnt", "tx_pps_limit_drop_cnt", "rx_bps_limit_drop_cnt",
                "rx_pps_limit_drop_cnt")) {
            assertTrue(run.delta("erdma " + name) > 0, name);
        }
        assertTrue(run.delta("erdma tx_bytes_cnt") > 0, "traffic still flows up to the cap");
        assertEquals(List.of(Scenario.HEALTHY, Scenario.HEALTHY, Scenario.ERDMA_RATELIMIT),
                run.fleet().nodes().stream().map(SimulatedNode::fault).toList());
    }
}
