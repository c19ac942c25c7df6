package io.rdmamon.agent.sim.perftest;

import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.agent.probe.PerftestArguments;
import io.rdmamon.agent.probe.PerftestFailure;
import io.rdmamon.agent.probe.PerftestLatencyOutputParser;
import io.rdmamon.agent.probe.PerftestOutcome;
import io.rdmamon.agent.probe.PerftestOutputParser;
import io.rdmamon.agent.probe.PerftestReportFormat;
import io.rdmamon.agent.probe.PerftestRun;
import io.rdmamon.agent.probe.ProbeRunner;
import io.rdmamon.agent.sim.FabricSimulator;
import io.rdmamon.agent.sim.Scenario;
import io.rdmamon.agent.sim.SimulationSpec;
import io.rdmamon.protocol.probe.LatencyResult;
import io.rdmamon.protocol.probe.PerftestResult;
import io.rdmamon.protocol.probe.PerftestSpec;
import io.rdmamon.protocol.probe.PerftestTest;
import io.rdmamon.protocol.probe.ProbeRole;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The demo's in-process perftest: same argv, same output, same failures as the real one. */
class SimulatedPerftestLauncherTest {
    private static final Path ROOT = Fixtures.root("mlx5-roce");
    private final SimulatedPerftestFabric fabric = new SimulatedPerftestFabric(() -> 0.95);

    private static List<String> argv(Path root, String device, ProbeRole role, int tcpPort, boolean bidirectional) {
        return PerftestArguments.build(root, new PerftestSpec(device, 1, null, 65_536, 1, 1, bidirectional), role,
                tcpPort, role == ProbeRole.CLIENT ? "192.168.1.2" : null);
    }

    private PerftestResult pair(Path serverRoot, Path clientRoot, boolean bidirectional) throws Exception {
        int port = ProbeRunner.freeTcpPort();
        PerftestRun server = fabric.launcherFor(serverRoot).launch(PerftestTest.WRITE_BW, argv(serverRoot, "mlx5_0", ProbeRole.SERVER, port,
                bidirectional), line -> { });
        assertTrue(server.listening(port));
        assertFalse(server.listening(port + 1));
        long started = System.nanoTime();
        PerftestRun client = fabric.launcherFor(clientRoot).launch(PerftestTest.WRITE_BW, argv(clientRoot, "mlx5_1", ProbeRole.CLIENT, port,
                bidirectional), line -> { });
        assertFalse(server.listening(port), "one client, then the server stops listening");
        assertEquals(0, client.exit().get(5, TimeUnit.SECONDS));
        long elapsedMillis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(elapsedMillis >= 1_000 && elapsedMillis < 2_500, "-D 1 took " + elapsedMillis + " ms");
        assertEquals(0, server.exit().get(5, TimeUnit.SECONDS));
        assertEquals(client.output().subList(client.output().size() - 3, client.output().size()),
                server.output().subList(server.output().size() - 3, server.output().size()), "both print the table");
        return assertInstanceOf(PerftestOutcome.Measured.class, PerftestOutputParser.parse(client.output())).result();
    }

    @Test
    void bandwidthIsTheLinkRateTimesTheEfficiencyInPerftestsFormat() throws Exception {
        // mlx5-roce ports are "100 Gb/sec (4X EDR)"
        assertEquals(95e9, pair(ROOT, ROOT, false).averageBitsPerSecond(), 1e6);
        assertEquals(190e9, pair(ROOT, ROOT, true).averageBitsPerSecond(), 1e6, "both directions summed");
    }

    @Test
    void aHalfRatePortHalvesTheBandwidth(@TempDir Path dir) throws Exception {
        Path degraded = Fixtures.copy("mlx5-roce", dir.resolve("degraded"));
        Files.writeString(degraded.resolve("sys/class/infiniband/mlx5_0/ports/1/rate"), "50 Gb/sec (2X EDR)\n");
        assertEquals(47.5e9, pair(degraded, ROOT, false).averageBitsPerSecond(), 1e6);
    }

    @Test
    void failsLikePerftestForMissingDevicesAndAbsentServers(@TempDir Path empty) throws Exception {
        PerftestRun none = fabric.launcherFor(empty).launch(PerftestTest.WRITE_BW, List.of("-d", "mlx5_0", "-p", "18515"), line -> { });
        assertEquals(1, none.exit().get(1, TimeUnit.SECONDS));
        assertEquals(PerftestReportFormat.noDevices(), none.output());

        PerftestRun missing = fabric.launcherFor(ROOT).launch(PerftestTest.WRITE_BW, List.of("-d", "mlx5_9", "-p", "18515"), line -> { });
        assertEquals(1, missing.exit().get(1, TimeUnit.SECONDS));
        PerftestOutcome.Failed failed = assertInstanceOf(PerftestOutcome.Failed.class,
                PerftestOutputParser.parse(missing.output()));
        assertEquals(PerftestFailure.DEVICE_NOT_FOUND, failed.kind());
        assertEquals(List.of("IB device mlx5_9 not found", " Unable to find the Infiniband/RoCE device"), failed.lines());

        int port = ProbeRunner.freeTcpPort();
        PerftestRun lonely = fabric.launcherFor(ROOT).launch(PerftestTest.WRITE_BW, argv(ROOT, "mlx5_0", ProbeRole.CLIENT, port, false),
                line -> { });
        assertEquals(1, lonely.exit().get(1, TimeUnit.SECONDS));
        assertEquals(PerftestFailure.CONNECT_FAILED,
                ((PerftestOutcome.Failed) PerftestOutputParser.parse(lonely.output())).kind());
    }

    @Test
    void withoutGidIndexTheBannerShowsTheGidPerftestWouldPick() throws Exception {
        // mlx5-roce mlx5_0 port 1: 0/1 link-local v1/v2, 2/3 IPv4-mapped v1/v2: perftest scores 3 highest
        int port = ProbeRunner.freeTcpPort();
        PerftestRun server = fabric.launcherFor(ROOT).launch(PerftestTest.WRITE_BW, argv(ROOT, "mlx5_0", ProbeRole.SERVER, port, false),
                line -> { });
        PerftestRun client = fabric.launcherFor(ROOT).launch(PerftestTest.WRITE_BW, argv(ROOT, "mlx5_0", ProbeRole.CLIENT, port, false),
                line -> { });
        assertEquals(0, client.exit().get(5, TimeUnit.SECONDS));
        assertEquals(0, server.exit().get(5, TimeUnit.SECONDS));
        for (PerftestRun side : List.of(client, server)) {
            assertTrue(side.output().stream().anyMatch(l -> l.matches(" GID index\\s+: 3")), side.output().toString());
            // GID 3 is ::ffff:192.168.1.2, printed in decimal bytes like perftest's PERF_GID_FMT
            assertEquals(2, side.output().stream()
                    .filter(" GID: 00:00:00:00:00:00:00:00:00:00:255:255:192:168:01:02"::equals).count(), side.output().toString());
        }
    }

    @Test
    void latencyPairPrintsSendLatsOutputWithTheFabricsRoundTrips(@TempDir Path trees) throws Exception {
        try (FabricSimulator simulator = FabricSimulator.create(trees,
                new SimulationSpec(8, Scenario.TOR_UPLINK_LOSS, 7, 3))) {
            SimulatedPerftestFabric lossy = new SimulatedPerftestFabric(simulator);
            // node 1 (leaf-01) to node 3 (leaf-02): across leaf-01's uplink; -u 1 keeps a retransmission short
            Path serverRoot = simulator.nodes().get(0).hostRoot();
            Path clientRoot = simulator.nodes().get(2).hostRoot();
            PerftestSpec spec = PerftestSpec.latency("mlx5_0", 1, 3, 64, 1_000, 10, 1, 106);
            int port = ProbeRunner.freeTcpPort();
            PerftestRun server = lossy.launcherFor(serverRoot).launch(PerftestTest.SEND_LAT,
                    PerftestArguments.build(serverRoot, spec, ProbeRole.SERVER, port, null), line -> { });
            PerftestRun client = lossy.launcherFor(clientRoot).launch(PerftestTest.SEND_LAT,
                    PerftestArguments.build(clientRoot, spec, ProbeRole.CLIENT, port, "10.0.0.1"), line -> { });
            assertEquals(0, client.exit().get(5, TimeUnit.SECONDS));
            assertEquals(0, server.exit().get(5, TimeUnit.SECONDS));
            assertTrue(client.output().contains("                    Send Latency Test"), client.output().toString());
            assertFalse(client.output().contains(" Test with events. Using mlx5_0_comp0"), "polling, as the probes run");
            LatencyResult result = assertInstanceOf(PerftestOutcome.MeasuredLatency.class,
                    PerftestLatencyOutputParser.parse(client.output())).latency();
            assertEquals(1_000, result.iterations());
            assertEquals(999, result.rttNanos().size(), "every gap between posts, the whole list kept");
            // about 8 µs across leaves; a retransmission adds 4.096 µs × 2^1
            long retransmitted = result.rttNanos().stream().filter(rtt -> rtt > 12_000).count();
            assertTrue(retransmitted > 60 && retransmitted < 150, retransmitted + " of 999 (about 10 %)");
            assertTrue(result.rttNanos().stream().allMatch(rtt -> rtt > 7_000 && rtt < 17_000), result.rttNanos().toString());
            assertEquals(result, assertInstanceOf(PerftestOutcome.MeasuredLatency.class,
                    PerftestLatencyOutputParser.parse(server.output())).latency(), "both sides print the ping-pong");
        }
    }

    @Test
    void killEndsARunLikeSigterm() throws Exception {
        int port = ProbeRunner.freeTcpPort();
        PerftestRun server = fabric.launcherFor(ROOT).launch(PerftestTest.WRITE_BW, argv(ROOT, "mlx5_0", ProbeRole.SERVER, port, false),
                line -> { });
        server.kill();
        assertEquals(SimulatedPerftestLauncher.KILLED_EXIT_CODE, server.exit().get(1, TimeUnit.SECONDS));
        assertFalse(server.listening(port));
    }
}
