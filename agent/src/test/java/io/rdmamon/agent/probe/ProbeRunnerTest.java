package io.rdmamon.agent.probe;

import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.agent.probe.standin.StandInBinary;
import io.rdmamon.protocol.probe.PerftestSpec;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.testing.Waits;
import io.rdmamon.protocol.wire.Frame;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The probe runner driving real child processes: the stand-in perftest and Debian's ib_write_bw. */
class ProbeRunnerTest {
    private static final Path ROOT = Fixtures.root("mlx5-roce");
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private final ProbeReports reports = new ProbeReports();
    private ProbeRunner runner;

    @AfterEach
    void close() {
        if (runner != null) {
            runner.close();
        }
    }

    private ProbeRunner runner(String binary) {
        runner = new ProbeRunner(ProbeSettings.enabled(new ProcessPerftestLauncher(binary), ROOT, Duration.ofSeconds(60)),
                reports);
        return runner;
    }

    private static Frame.ProbeStart server(String id, String device, long timeoutMillis) {
        return new Frame.ProbeStart(id, ProbeRole.SERVER, spec(device, 1), null, 0, timeoutMillis);
    }

    private static PerftestSpec spec(String device, int duration) {
        return new PerftestSpec(device, 1, null, 65_536, duration, 1, false);
    }

    @Test
    void serverListensAndClientMeasuresOverLoopback() throws Exception {
        runner(StandInBinary.write(dir, Map.of("STANDIN_GBITS", "93.5")).toString());
        runner.start(server("pair-1", "mlx5_0", 30_000));
        Frame.ProbeReport listening = reports.await("pair-1", ProbeRole.SERVER, ProbePhase.LISTENING, WAIT);
        assertTrue(listening.tcpPort() > 1024, "the agent picked an ephemeral port: " + listening.tcpPort());

        runner.start(new Frame.ProbeStart("pair-1", ProbeRole.CLIENT, spec("mlx5_1", 1), "127.0.0.1",
                listening.tcpPort(), 30_000));
        Frame.ProbeReport client = reports.awaitTerminal("pair-1", ProbeRole.CLIENT, WAIT);
        assertEquals(ProbePhase.DONE, client.phase(), client.toString());
        assertEquals(0, client.exitCode());
        assertEquals(93.5e9, client.result().averageBitsPerSecond(), 1);
        assertEquals(65_536, client.result().sizeBytes());
        assertTrue(client.output().contains(PerftestReportFormat.HEADER_GBITS), client.output().toString());

        reports.await("pair-1", ProbeRole.SERVER, ProbePhase.RUNNING, WAIT);
        Frame.ProbeReport serverDone = reports.awaitTerminal("pair-1", ProbeRole.SERVER, WAIT);
        assertEquals(ProbePhase.DONE, serverDone.phase(), serverDone.toString());
        assertEquals(93.5e9, serverDone.result().averageBitsPerSecond(), 1);
        assertEquals(0, runner.running());
    }

    @Test
    void timeoutKillsTheWholeProcessGroupOfAServerWithoutClient() throws Exception {
        String marker = marker();
        runner(StandInBinary.write(dir, Map.of("STANDIN_GRANDCHILD_SLEEP", marker)).toString());
        runner.start(server("lonely-1", "mlx5_0", 1_500));
        reports.await("lonely-1", ProbeRole.SERVER, ProbePhase.LISTENING, WAIT);
        assertTrue(Processes.anyWithArgument(marker), "the stand-in started its grandchild");

        Frame.ProbeReport failed = reports.awaitTerminal("lonely-1", ProbeRole.SERVER, WAIT);
        assertEquals(ProbePhase.FAILED, failed.phase());
        assertTrue(failed.error().contains("did not finish within 1500 ms"), failed.error());
        assertEquals(143, failed.exitCode(), "ended by SIGTERM");
        Waits.waitFor(() -> !Processes.anyWithArgument(marker), "grandchild killed with the group", Duration.ofSeconds(5));
    }

    @Test
    void cancelKillsTheRunAndItsChildren() throws Exception {
        String marker = marker();
        runner(StandInBinary.write(dir, Map.of("STANDIN_GRANDCHILD_SLEEP", marker)).toString());
        runner.start(server("cancel-1", "mlx5_0", 60_000));
        reports.await("cancel-1", ProbeRole.SERVER, ProbePhase.LISTENING, WAIT);
        runner.cancel(new Frame.ProbeCancel("cancel-1", "operator cancelled"));

        Frame.ProbeReport cancelled = reports.awaitTerminal("cancel-1", ProbeRole.SERVER, WAIT);
        assertEquals(ProbePhase.CANCELLED, cancelled.phase());
        assertEquals("operator cancelled", cancelled.error());
        Waits.waitFor(() -> !Processes.anyWithArgument(marker), "no stand-in process left", Duration.ofSeconds(5));
    }

    @Test
    void clientWithoutServerFailsWithPerftestsOwnLines() throws Exception {
        runner(StandInBinary.write(dir, Map.of()).toString());
        int closedPort = ProbeRunner.freeTcpPort();
        runner.start(new Frame.ProbeStart("noserver-1", ProbeRole.CLIENT, spec("mlx5_0", 1), "127.0.0.1", closedPort,
                30_000));
        Frame.ProbeReport failed = reports.awaitTerminal("noserver-1", ProbeRole.CLIENT, WAIT);
        assertEquals(ProbePhase.FAILED, failed.phase());
        assertEquals(1, failed.exitCode());
        assertEquals("Couldn't connect to 127.0.0.1:" + closedPort + "\n Unable to init the socket connection",
                failed.error());
    }

    @Test
    void debianPerftestOnAHostWithoutDevicesFailsVerbatim() throws Exception {
        Path binary = Path.of("/usr/bin/ib_write_bw");
        Assumptions.assumeTrue(Files.isExecutable(binary), "Debian perftest is not installed (/usr/bin/ib_write_bw)");
        runner(binary.toString());
        runner.start(new Frame.ProbeStart("debian-1", ProbeRole.CLIENT, spec("mlx5_0", 1), "127.0.0.1", 18_515, 30_000));
        Frame.ProbeReport failed = reports.awaitTerminal("debian-1", ProbeRole.CLIENT, WAIT);
        assertEquals(ProbePhase.FAILED, failed.phase());
        assertEquals(1, failed.exitCode());
        assertTrue(failed.error().startsWith(" Did not detect devices \n"), failed.error());
        assertTrue(failed.output().contains(" Unable to find the Infiniband/RoCE device"), failed.output().toString());
    }

    @Test
    void disabledAgentRefusesWithoutStartingAnything() throws Exception {
        runner = new ProbeRunner(ProbeSettings.disabled(), reports);
        runner.start(server("off-1", "mlx5_0", 30_000));
        Frame.ProbeReport refused = reports.awaitTerminal("off-1", ProbeRole.SERVER, WAIT);
        assertEquals(ProbePhase.FAILED, refused.phase());
        assertEquals(ProbeRunner.DISABLED, refused.error());
        assertNull(refused.exitCode());
    }

    @Test
    void badDevicePortGidAndLimitsAreRefusedNamingTheCulprit() throws Exception {
        runner(StandInBinary.write(dir, Map.of()).toString());
        runner.start(server("bad-dev", "mlx5_9", 30_000));
        runner.start(new Frame.ProbeStart("bad-port", ProbeRole.SERVER,
                new PerftestSpec("mlx5_0", 2, null, 65_536, 1, 1, false), null, 0, 30_000));
        runner.start(new Frame.ProbeStart("bad-gid", ProbeRole.SERVER,
                new PerftestSpec("mlx5_0", 1, 200, 65_536, 1, 1, false), null, 0, 30_000));
        runner.start(new Frame.ProbeStart("empty-gid", ProbeRole.SERVER,
                new PerftestSpec("mlx5_1", 1, 7, 65_536, 1, 1, false), null, 0, 30_000));
        runner.start(new Frame.ProbeStart("too-long", ProbeRole.SERVER, spec("mlx5_0", 61), null, 0, 30_000));
        assertEquals("RDMA device mlx5_9 does not exist on this host (devices: mlx5_0, mlx5_1)",
                reports.awaitTerminal("bad-dev", ProbeRole.SERVER, WAIT).error());
        assertEquals("mlx5_0 has no port 2 (ports: 1)", reports.awaitTerminal("bad-port", ProbeRole.SERVER, WAIT).error());
        assertTrue(reports.awaitTerminal("bad-gid", ProbeRole.SERVER, WAIT).error()
                .startsWith("GID index 200 of mlx5_0 port 1 is not in its GID table"));
        assertEquals("GID index 7 of mlx5_1 port 1 is an empty GID table entry",
                reports.awaitTerminal("empty-gid", ProbeRole.SERVER, WAIT).error());
        assertEquals("durationSeconds 61 exceeds this agent's limit of 60s (--probe-max-duration)",
                reports.awaitTerminal("too-long", ProbeRole.SERVER, WAIT).error());
    }

    @Test
    void onePortServesOneProbeAtATime() throws Exception {
        runner(StandInBinary.write(dir, Map.of()).toString());
        runner.start(server("first-1", "mlx5_0", 30_000));
        reports.await("first-1", ProbeRole.SERVER, ProbePhase.LISTENING, WAIT);
        runner.start(server("second-1", "mlx5_0", 30_000));
        Frame.ProbeReport refused = reports.awaitTerminal("second-1", ProbeRole.SERVER, WAIT);
        assertEquals("mlx5_0 port 1 is already in probe first-1", refused.error());
        assertFalse(reports.all().stream().anyMatch(r -> r.probeId().equals("first-1") && r.phase().terminal()),
                "the first probe runs on");
    }

    /** A sleep duration nobody else uses, to find the grandchild among all processes. */
    private static String marker() {
        return "300." + Math.abs(UUID.randomUUID().getLeastSignificantBits() % 1_000_000_000L)
                + ThreadLocalRandom.current().nextInt(10);
    }
}
