package io.rdmamon.agent.host;

import io.rdmamon.agent.testing.SteppedClock;
import io.rdmamon.protocol.model.FecMode;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each port's FEC encoding from {@code <root>/ethtool/<if>/fec} (an {@code ethtool --show-fec} capture). */
class FecReadTest {
    private static final String NETDEV = "ens1f0np0";

    @TempDir
    Path root;

    private final SteppedClock clock = new SteppedClock(Instant.parse("2026-11-23T09:00:00Z"));

    private void capture(String active, String configured) throws IOException {
        Files.writeString(root.resolve("ethtool/" + NETDEV + "/fec"), "FEC parameters for " + NETDEV + ":\n"
                + "Supported/Configured FEC encodings: " + configured + "\nActive FEC encoding: " + active + "\n");
    }

    private static IbPort port(HostSample sample) {
        return sample.devices().get(0).ports().get(0);
    }

    @Test
    void theCapturedEncodingIsOnThePortAndNoCaptureIsNoFec() throws IOException {
        Fixtures.copy("mlx5-roce", root);
        assertNull(port(HostReader.forRoot(root).read("n")).fec(), "no capture: no FEC, and no failure");

        capture("LLRS", "Auto RS LLRS");
        HostSample sample = HostReader.forRoot(root).read("n");

        assertEquals(new FecMode("LLRS", List.of("Auto", "RS", "LLRS")), port(sample).fec());
        assertTrue(sample.sources().stream().allMatch(SourceStatus::success), sample.sources().toString());
    }

    @Test
    void theAgentKeepsItOnTheSlowCadenceAndReReadsItWhenThePortChangesState() throws IOException {
        Fixtures.copy("mlx5-roce", root);
        capture("RS", "Auto RS");
        HostReader reader = HostReader.builder(root).clock(clock).gidRefresh(Duration.ofSeconds(30)).build();
        assertEquals("RS", port(reader.read("n")).fec().active());

        capture("BaseR", "BaseR");
        clock.stepSeconds(20);
        assertEquals("RS", port(reader.read("n")).fec().active(), "within the interval");

        Files.writeString(root.resolve("sys/class/infiniband/mlx5_0/ports/1/state"), "1: DOWN\n");
        clock.stepSeconds(1);
        assertEquals("BaseR", port(reader.read("n")).fec().active(), "the link retrained");
    }

    @Test
    void anUnreadableCaptureIsAFailedFecStatusNamingItAndCostsOnlyTheEncoding() throws IOException {
        Fixtures.copy("mlx5-roce", root);
        capture("Reed-Solomon", "Auto");

        HostSample sample = HostReader.forRoot(root).read("n");

        assertNull(port(sample).fec());
        assertEquals(NETDEV, port(sample).netdev());
        assertTrue(sample.sources().contains(SourceStatus.failed("fec", NETDEV, "ethtool/" + NETDEV + "/fec: \"Reed-Solomon\""
                + " in \"Active FEC encoding: Reed-Solomon\" is not an ethtool FEC encoding (None, Auto, Off, RS, BaseR,"
                + " LLRS)")), sample.sources().toString());
    }
}
