package io.rdmamon.agent.probe;

import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.agent.probe.standin.StandInBinary;
import io.rdmamon.protocol.probe.PerftestSpec;
import io.rdmamon.protocol.probe.PerftestTest;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.testing.Waits;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.HostTextFrames;
import io.rdmamon.protocol.wire.WireFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

    /**
     * A perftest that prints a 10 MB line with no newline and then escapes: the run keeps bounded lines, and the
     * failure report it produces is one the collector accepts once the stream's sanitiser has made it printable
     * (before, the 10 MB line went whole into the report and the collector closed the agent with 1009).
     */
    @Test
    void aTenMegabyteLineIsCutAndTheReportStaysWithinTheWireLimits() throws Exception {
        Path binary = dir.resolve("ib_write_bw");
        Files.writeString(binary, "#!/bin/sh\nhead -c 10000000 /dev/zero | tr '\\0' x\nprintf '\\n\\033[31mfatal\\n'\nexit 1\n");
        Files.setPosixFilePermissions(binary, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        runner(binary.toString());
        runner.start(new Frame.ProbeStart("long-1", ProbeRole.CLIENT, spec("mlx5_0", 1), "127.0.0.1", 18_515, 30_000));
        Frame.ProbeReport failed = reports.awaitTerminal("long-1", ProbeRole.CLIENT, WAIT);
        assertEquals(ProbePhase.FAILED, failed.phase());
        assertTrue(failed.output().stream().allMatch(line -> line.length() <= BoundedLines.DEFAULT_MAX_CHARS + 64),
                "every kept line is bounded");
        assertTrue(failed.output().get(0).endsWith("(" + (10_000_000 - BoundedLines.DEFAULT_MAX_CHARS)
                + " more characters cut)"), failed.output().get(0).substring(BoundedLines.DEFAULT_MAX_CHARS));
        byte[] encoded = new FrameCodec().encode(HostTextFrames.sanitize(failed));
        assertTrue(encoded.length < WireFormat.DEFAULT_MAX_FRAME_BYTES, encoded.length + " bytes");
        assertTrue(new FrameCodec().decode(encoded) instanceof Frame.ProbeReport, "the collector's codec reads it");
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

    private ProbeRunner runner(String binary, Set<PerftestTest> allowed) {
        runner = new ProbeRunner(new ProbeSettings(allowed, new ProcessPerftestLauncher(binary), ROOT,
                Duration.ofSeconds(60)), reports);
        return runner;
    }

    private static Frame.ProbeStart latencyServer(String id) {
        return new Frame.ProbeStart(id, ProbeRole.SERVER, latencySpec("mlx5_0"), null, 0, 30_000);
    }

    private static PerftestSpec latencySpec(String device) {
        return PerftestSpec.latency(device, 1, null, 64, 7, 10, 13, null);
    }

    @Test
    void latencyPairReportsEveryRoundTripAndLeavesThemOutOfTheOutput() throws Exception {
        // a retransmission at -u 13 among plain exchanges
        runner(StandInBinary.write(dir, Map.of("STANDIN_HALF_RTT_USEC", "2.5,33556.4,2.25")).toString(),
                EnumSet.of(PerftestTest.SEND_LAT));
        runner.start(latencyServer("lat-1"));
        Frame.ProbeReport listening = reports.await("lat-1", ProbeRole.SERVER, ProbePhase.LISTENING, WAIT);
        runner.start(new Frame.ProbeStart("lat-1", ProbeRole.CLIENT, latencySpec("mlx5_1"), "127.0.0.1",
                listening.tcpPort(), 30_000));

        Frame.ProbeReport client = reports.awaitTerminal("lat-1", ProbeRole.CLIENT, WAIT);
        assertEquals(ProbePhase.DONE, client.phase(), client.toString());
        assertNull(client.result(), "no bandwidth row");
        assertEquals(64, client.latency().sizeBytes());
        assertEquals(7, client.latency().iterations());
        assertEquals(List.of(5_000L, 67_112_800L, 4_500L, 5_000L, 67_112_800L, 4_500L), client.latency().rttNanos());
        assertTrue(client.output().contains(PerftestReportFormat.HEADER_LATENCY), client.output().toString());
        assertFalse(client.output().stream().anyMatch(PerftestLatencyOutputParser::isRoundTrip),
                "the round trips travel in the result, not twice: " + client.output());
        Frame.ProbeReport server = reports.awaitTerminal("lat-1", ProbeRole.SERVER, WAIT);
        assertEquals(ProbePhase.DONE, server.phase(), server.toString());
        assertEquals(6, server.latency().rttNanos().size(), "the server times the ping-pong too");
    }

    @Test
    void debianSendLatTakesTheArgvAndFailsVerbatimWithoutDevices() throws Exception {
        Path binary = Path.of("/usr/bin/ib_send_lat");
        Assumptions.assumeTrue(Files.isExecutable(binary), "Debian perftest is not installed (/usr/bin/ib_send_lat)");
        // found beside --perftest; every option parsed (a bad one would print "Invalid Command or flag.")
        runner("/usr/bin/ib_write_bw", EnumSet.of(PerftestTest.SEND_LAT));
        runner.start(new Frame.ProbeStart("debian-lat", ProbeRole.CLIENT,
                PerftestSpec.latency("mlx5_0", 1, 3, 64, 100, 10, 10, 106), "127.0.0.1", 18_600, 30_000));
        Frame.ProbeReport failed = reports.awaitTerminal("debian-lat", ProbeRole.CLIENT, WAIT);
        assertEquals(ProbePhase.FAILED, failed.phase());
        assertEquals(1, failed.exitCode());
        assertEquals(" Did not detect devices \n If device exists, check if driver is up\n"
                + " Unable to find the Infiniband/RoCE device", failed.error());
    }

    @Test
    void eachKindOfProbeNeedsItsOwnConsent() throws Exception {
        runner(StandInBinary.write(dir, Map.of()).toString(), EnumSet.of(PerftestTest.WRITE_BW));
        runner.start(latencyServer("mesh-1"));
        Frame.ProbeReport refused = reports.awaitTerminal("mesh-1", ProbeRole.SERVER, WAIT);
        assertEquals(ProbePhase.FAILED, refused.phase());
        assertEquals(ProbeRunner.PINGMESH_DISABLED, refused.error());
        assertTrue(refused.error().contains("--allow-pingmesh"));
        runner.close();

        runner(StandInBinary.write(dir, Map.of()).toString(), EnumSet.of(PerftestTest.SEND_LAT));
        runner.start(server("bw-1", "mlx5_0", 30_000));
        assertEquals(ProbeRunner.DISABLED, reports.awaitTerminal("bw-1", ProbeRole.SERVER, WAIT).error());
    }

    @Test
    void bandwidthAndLatencyProbesNeverShareAPort() throws Exception {
        runner(StandInBinary.write(dir, Map.of()).toString(), EnumSet.allOf(PerftestTest.class));
        runner.start(latencyServer("lat-2"));
        reports.await("lat-2", ProbeRole.SERVER, ProbePhase.LISTENING, WAIT);
        runner.start(server("bw-2", "mlx5_0", 30_000));
        assertEquals("mlx5_0 port 1 is already in latency probe lat-2 (a bandwidth probe would distort it, and it the"
                + " bandwidth)", reports.awaitTerminal("bw-2", ProbeRole.SERVER, WAIT).error());
        runner.cancel(new Frame.ProbeCancel("lat-2", "done with it"));
        reports.awaitTerminal("lat-2", ProbeRole.SERVER, WAIT);
        Waits.waitFor(() -> runner.running() == 0, "the latency probe gone", WAIT);

        runner.start(server("bw-3", "mlx5_0", 30_000));
        reports.await("bw-3", ProbeRole.SERVER, ProbePhase.LISTENING, WAIT);
        runner.start(latencyServer("lat-3"));
        assertEquals("mlx5_0 port 1 is in bandwidth probe bw-3 (a latency probe would measure its queues, not the path)",
                reports.awaitTerminal("lat-3", ProbeRole.SERVER, WAIT).error());
    }

    @Test
    void aPortRunsFourLatencyProbesAtOnceNotFive() throws Exception {
        runner(StandInBinary.write(dir, Map.of()).toString(), EnumSet.of(PerftestTest.SEND_LAT));
        for (int i = 1; i <= ProbeRunner.MAX_LATENCY_PROBES_PER_PORT; i++) {
            runner.start(latencyServer("peer-" + i));
        }
        for (int i = 1; i <= ProbeRunner.MAX_LATENCY_PROBES_PER_PORT; i++) {
            reports.await("peer-" + i, ProbeRole.SERVER, ProbePhase.LISTENING, WAIT);
        }
        runner.start(latencyServer("peer-5"));
        assertEquals("mlx5_0 port 1 already runs 4 latency probes (peer-1, peer-2, peer-3, peer-4), the most one port"
                + " runs at once", reports.awaitTerminal("peer-5", ProbeRole.SERVER, WAIT).error());
        runner.start(new Frame.ProbeStart("other-port", ProbeRole.SERVER, latencySpec("mlx5_1"), null, 0, 30_000));
        reports.await("other-port", ProbeRole.SERVER, ProbePhase.LISTENING, WAIT);
    }

    /** A sleep duration nobody else uses, to find the grandchild among all processes. */
    private static String marker() {
        return "300." + Math.abs(UUID.randomUUID().getLeastSignificantBits() % 1_000_000_000L)
                + ThreadLocalRandom.current().nextInt(10);
    }
}
