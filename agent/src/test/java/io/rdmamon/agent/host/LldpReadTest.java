package io.rdmamon.agent.host;

import io.rdmamon.agent.lldp.LldpReader;
import io.rdmamon.agent.lldp.LldpctlCommand;
import io.rdmamon.agent.testing.SteppedClock;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.LldpNeighbor;
import io.rdmamon.protocol.model.SourceStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each Ethernet port's LLDP neighbour from {@code <root>/lldp/<if>.json} (an {@code lldpctl -f json} capture) or, on a
 * live host, from lldpctl itself (here a stand-in script, or a program that is not there).
 */
class LldpReadTest {
    private static final String NETDEV = "ens1f0np0";
    private static final LldpNeighbor LEAF_PORT_8 = new LldpNeighbor("1c:34:da:07:00:00", "mac", "leaf-07",
            "Ethernet8", "ifname", "gpu-node-13:ens1f0np0");
    /** The reader's own deadline does not matter here: reads run as they are. */
    private static final LldpReader.Watch UNWATCHED = (call, read) -> read.read();

    @TempDir
    Path root;
    @TempDir
    Path bin;

    private final SteppedClock clock = new SteppedClock(Instant.parse("2026-11-26T09:00:00Z"));

    private void capture(String netdev, String fixture) throws IOException {
        Files.createDirectories(root.resolve("lldp"));
        Files.copy(Fixtures.root("lldpctl").resolve(fixture), root.resolve("lldp/" + netdev + ".json"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static IbPort port(HostSample sample, String device) {
        return sample.devices().stream().filter(d -> d.name().equals(device)).findFirst().orElseThrow().ports().get(0);
    }

    private static List<SourceStatus> lldpStatuses(HostSample sample) {
        return sample.sources().stream().filter(s -> s.source().equals(LldpReader.SOURCE)).toList();
    }

    @Test
    void aCaptureGivesThePortItsNeighbourAndNoCaptureIsNoNeighbourAndNoStatus() throws IOException {
        Fixtures.copy("mlx5-roce", root);
        capture(NETDEV, "one-interface.json");

        HostSample sample = HostReader.forRoot(root).read("n");

        assertEquals(LEAF_PORT_8, port(sample, "mlx5_0").neighbor());
        assertNull(port(sample, "mlx5_1").neighbor(), "ens1f1np1 has no capture");
        assertEquals(List.of(SourceStatus.ok("lldp", NETDEV)), lldpStatuses(sample));
    }

    @Test
    void aCaptureOfSeveralInterfacesGivesEachPortItsOwn() throws IOException {
        Fixtures.copy("mlx5-roce", root);
        capture("ens1f1np1", "several-interfaces.json");

        HostSample sample = HostReader.forRoot(root).read("n");

        assertEquals(new LldpNeighbor("1c:34:da:07:00:00", "mac", "leaf-07", "Ethernet12", "ifname",
                "gpu-node-13:ens1f1np1"), port(sample, "mlx5_1").neighbor());
    }

    @Test
    void noNeighbourIsReadWithoutOne() throws IOException {
        Fixtures.copy("mlx5-roce", root);
        capture(NETDEV, "no-neighbor.json");

        HostSample sample = HostReader.forRoot(root).read("n");

        assertNull(port(sample, "mlx5_0").neighbor());
        assertEquals(List.of(SourceStatus.ok("lldp", NETDEV)), lldpStatuses(sample));
    }

    @Test
    void aMalformedCaptureIsAFailedStatusNamingTheFileAndThePortIsStillReported() throws IOException {
        Fixtures.copy("mlx5-roce", root);
        Files.createDirectories(root.resolve("lldp"));
        Files.writeString(root.resolve("lldp/" + NETDEV + ".json"), "Interface:    ens1f0np0, via: LLDP\n");

        HostSample sample = HostReader.forRoot(root).read("n");

        IbPort port = port(sample, "mlx5_0");
        assertNull(port.neighbor());
        assertEquals(NETDEV, port.netdev());
        assertEquals(4, port.stateId());
        List<SourceStatus> statuses = lldpStatuses(sample);
        assertEquals(1, statuses.size(), statuses.toString());
        assertEquals(SourceStatus.Outcome.FAILED, statuses.get(0).outcome());
        assertTrue(statuses.get(0).error().startsWith("lldp/ens1f0np0.json: not JSON: Unrecognized token 'Interface'"),
                statuses.get(0).error());
        assertTrue(sample.sources().stream().filter(s -> !s.source().equals("lldp")).allMatch(SourceStatus::success),
                "only the lldp source failed: " + sample.sources());
    }

    @Test
    void theAgentKeepsItOnTheSlowCadenceAndReReadsItWhenThePortChangesState() throws IOException {
        Fixtures.copy("mlx5-roce", root);
        capture(NETDEV, "one-interface.json");
        HostReader reader = HostReader.builder(root).clock(clock).lldpRefresh(Duration.ofSeconds(60)).build();
        assertEquals("leaf-07", port(reader.read("n"), "mlx5_0").neighbor().systemName());

        capture(NETDEV, "no-system-name.json");
        clock.stepSeconds(50);
        HostSample cached = reader.read("n");
        assertEquals("leaf-07", port(cached, "mlx5_0").neighbor().systemName(), "within the minute");
        assertEquals(List.of(SourceStatus.ok("lldp", NETDEV)), lldpStatuses(cached), "the status every sample");

        clock.stepSeconds(11);
        assertEquals("525", port(reader.read("n"), "mlx5_0").neighbor().portId(), "a minute on");

        capture(NETDEV, "one-interface.json");
        Files.writeString(root.resolve("sys/class/infiniband/mlx5_0/ports/1/state"), "1: DOWN\n");
        clock.stepSeconds(1);
        assertEquals("leaf-07", port(reader.read("n"), "mlx5_0").neighbor().systemName(), "recabled: the link went down");
    }

    @Test
    void withoutLldpctlALiveHostHasNoNeighbourAndNothingFailed() {
        LldpReader reader = new LldpReader(root, new LldpctlCommand(bin.resolve("no-such-lldpctl").toString(),
                Duration.ofSeconds(2)));

        LldpReader.Result result = reader.read(NETDEV, "4", UNWATCHED);

        assertNull(result.neighbor());
        assertEquals(SourceStatus.Outcome.UNSUPPORTED, result.status().outcome());
        assertTrue(result.status().unsupported().startsWith(bin.resolve("no-such-lldpctl") + " -f json ens1f0np0: "
                + "cannot run"), result.status().unsupported());
    }

    @Test
    void aLiveHostAsksLldpctlForTheInterfaceByArgv() throws IOException {
        Path lldpctl = script("lldpctl", "[ \"$*\" = \"-f json -- " + NETDEV + "\" ] || { echo \"argv: $*\" >&2; exit 3; }\n"
                + "cat '" + Fixtures.root("lldpctl").resolve("several-interfaces.json") + "'\n");
        LldpReader reader = new LldpReader(root, new LldpctlCommand(lldpctl.toString(), Duration.ofSeconds(2)));

        LldpReader.Result result = reader.read(NETDEV, "4", UNWATCHED);

        assertEquals(new LldpNeighbor("1c:34:da:07:00:00", "mac", "leaf-07", "Ethernet8", "ifname", null),
                result.neighbor());
        assertEquals(SourceStatus.ok("lldp", NETDEV), result.status());
    }

    @Test
    void lldpctlFailingIsAFailedStatusWithItsMessage() throws IOException {
        Path lldpctl = script("lldpctl", "echo 'lldpctl: unable to connect to socket /run/lldpd.socket' >&2\nexit 1\n");
        LldpReader reader = new LldpReader(root, new LldpctlCommand(lldpctl.toString(), Duration.ofSeconds(2)));

        LldpReader.Result result = reader.read(NETDEV, "4", UNWATCHED);

        assertNull(result.neighbor());
        assertEquals(SourceStatus.failed("lldp", NETDEV, lldpctl + " -f json " + NETDEV
                + ": exit 1: lldpctl: unable to connect to socket /run/lldpd.socket"), result.status());
    }

    @Test
    void lldpctlThatDoesNotAnswerIsKilledAtTheTimeout() throws IOException {
        Path lldpctl = script("lldpctl", "exec sleep 600\n");
        LldpReader reader = new LldpReader(root, new LldpctlCommand(lldpctl.toString(), Duration.ofMillis(200)));

        LldpReader.Result result = reader.read(NETDEV, "4", UNWATCHED);

        assertEquals(SourceStatus.failed("lldp", NETDEV, lldpctl + " -f json " + NETDEV
                + ": no answer within 200 ms (killed)"), result.status());
    }

    @Test
    void aCaptureWinsOverLldpctl() throws IOException {
        Path lldpctl = script("lldpctl", "echo 'must not run' >&2\nexit 1\n");
        capture(NETDEV, "one-interface.json");
        LldpReader reader = new LldpReader(root, new LldpctlCommand(lldpctl.toString(), Duration.ofSeconds(2)));

        assertEquals(LEAF_PORT_8, reader.read(NETDEV, "4", UNWATCHED).neighbor());
    }

    private Path script(String name, String body) throws IOException {
        Path file = bin.resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }
}
