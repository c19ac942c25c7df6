package io.rdmamon.agent.host;

import io.rdmamon.agent.sysfs.SysfsFiles;
import io.rdmamon.agent.testing.SteppedClock;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.HostSample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GID tables reused between samples: fewer reads, yet every change that matters is seen. */
class GidRefreshTest {
    private static final String PORT = "sys/class/infiniband/mlx5_0/ports/1";
    private static final String NEW_GID = "0000:0000:0000:0000:0000:ffff:0a63:0001";

    @TempDir
    Path root;

    private final AtomicInteger gidReads = new AtomicInteger();
    /** Reads of slow-cadence attribute files, by file name ({@code fw_ver}, {@code rate}, ...). */
    private final Map<String, AtomicInteger> attributeReads = new ConcurrentHashMap<>();
    private final SteppedClock clock = new SteppedClock(Instant.parse("2026-11-21T00:00:00Z"));

    private HostReader reader(Duration refresh) throws IOException {
        Fixtures.copy("mlx5-roce", root);
        return HostReader.builder(root).files(file -> {
            if (file.getParent().equals(root.resolve(PORT + "/gids"))) {
                gidReads.incrementAndGet();
            }
            attributeReads.computeIfAbsent(file.getFileName().toString(), f -> new AtomicInteger()).incrementAndGet();
            return SysfsFiles.readOnce(file);
        }).clock(clock).gidRefresh(refresh).build();
    }

    private List<GidEntry> gids(HostSample sample) {
        return sample.devices().get(0).ports().get(0).gids();
    }

    @Test
    void aFreshTableIsReusedUntilTheIntervalEnds() throws IOException {
        HostReader reader = reader(Duration.ofSeconds(30));
        HostSample first = reader.read("n");
        int readsOfTheTable = gidReads.get();
        assertTrue(readsOfTheTable > 0);
        // a new address appears on the netdev: within the interval the sample keeps the old table ...
        Files.writeString(root.resolve(PORT + "/gids/7"), NEW_GID + "\n");
        clock.stepSeconds(29);
        assertEquals(gids(first), gids(reader.read("n")));
        assertEquals(readsOfTheTable, gidReads.get(), "no gids/ file read within the interval");
        // ... and shows it once the interval is over
        clock.stepSeconds(1);
        assertTrue(gids(reader.read("n")).stream().anyMatch(g -> g.index() == 7 && g.ipv4() != null),
                "re-read after 30 s");
        assertEquals(2 * readsOfTheTable, gidReads.get());
    }

    @Test
    void aPortStateChangeReReadsTheTableAtOnce() throws IOException {
        HostReader reader = reader(Duration.ofSeconds(30));
        reader.read("n");
        int readsOfTheTable = gidReads.get();
        Files.writeString(root.resolve(PORT + "/state"), "1: DOWN\n");
        Files.writeString(root.resolve(PORT + "/gids/7"), NEW_GID + "\n");
        clock.stepSeconds(1);
        HostSample afterFlap = reader.read("n");
        assertEquals(2 * readsOfTheTable, gidReads.get());
        assertTrue(gids(afterFlap).stream().anyMatch(g -> g.index() == 7));
    }

    private int reads(String fileName) {
        return attributeReads.getOrDefault(fileName, new AtomicInteger()).get();
    }

    /** fw_ver, board_id, node_guid, rate, link_layer and the netdev mapping: on the GID table's cadence. */
    @Test
    void staticAttributesAreReadOnTheSlowCadenceAndAtOnceOnAStateChange() throws IOException {
        HostReader reader = reader(Duration.ofSeconds(30));
        HostSample first = reader.read("n");
        Map<String, Integer> once = Map.of("fw_ver", reads("fw_ver"), "board_id", reads("board_id"),
                "node_guid", reads("node_guid"), "rate", reads("rate"), "link_layer", reads("link_layer"));
        int states = reads("state");
        once.forEach((file, count) -> assertTrue(count > 0, file + " read by the first sample"));

        Files.writeString(root.resolve(PORT + "/rate"), "25 Gb/sec (1X EDR)\n");
        Files.writeString(root.resolve("sys/class/infiniband/mlx5_0/fw_ver"), "99.99.9999\n");
        clock.stepSeconds(10);
        HostSample within = reader.read("n");

        once.forEach((file, count) -> assertEquals(count, reads(file), file + " not read again within the interval"));
        assertEquals(2 * states, reads("state"), "the port state is read every sample");
        assertEquals(first.devices(), within.devices());

        Files.writeString(root.resolve(PORT + "/state"), "1: DOWN\n");
        clock.stepSeconds(1);
        HostSample afterFlap = reader.read("n");
        assertEquals("25 Gb/sec (1X EDR)", afterFlap.devices().get(0).ports().get(0).rate(), "re-read at the state change");
        assertEquals("99.99.9999", afterFlap.devices().get(0).fwVersion());
        assertEquals(first.devices().get(0).ports().get(0).netdev(), afterFlap.devices().get(0).ports().get(0).netdev());
    }

    @Test
    void aTableReadWithProblemsIsNotReusedSoTheProblemStaysVisible() throws IOException {
        HostReader reader = reader(Duration.ofSeconds(30));
        Files.writeString(root.resolve(PORT + "/gids/7"), "not a gid\n");
        HostSample broken = reader.read("n");
        assertTrue(broken.sources().stream().anyMatch(s -> !s.success() && s.error().contains("gids/7")),
                broken.sources().toString());
        clock.stepSeconds(1);
        HostSample again = reader.read("n");
        assertTrue(again.sources().stream().anyMatch(s -> !s.success() && s.error().contains("gids/7")),
                "the problem is reported on every sample, not hidden by a cached table");
    }
}
