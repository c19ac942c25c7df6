package io.rdmamon.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.rdmamon.protocol.testing.Waits;
import picocli.CommandLine;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perf and stat end to end while counters move: a copy of the agent's RoCE fixture is changed
 * after the command has taken its baseline ("Sampling started." / the header is printed), within
 * a one-second interval.
 */
class MovingCountersTest {
    private static final Path FIXTURE = Path.of("..", "agent", "src", "test", "fixtures", "mlx5-roce")
            .toAbsolutePath().normalize();

    @TempDir
    Path root;

    @Test
    void perfPrintsWhatMovedWithPriorityShares() throws Exception {
        copyFixture();
        Path statistics;
        try (Stream<Path> netdevs = Files.list(root.resolve("ethtool"))) {
            statistics = netdevs.sorted().findFirst().orElseThrow().resolve("statistics");
        }
        Matcher prio = Pattern.compile("tx_prio(\\d+)_bytes: ").matcher(Files.readString(statistics));
        assertTrue(prio.find(), "fixture has per-priority counters");
        String up = prio.group(1);
        String netdev = statistics.getParent().getFileName().toString();

        String out = runWhileChanging("Sampling started.", () -> {
            bump(statistics, "tx_prio" + up + "_bytes", 1_000_000);
            bump(statistics, "tx_prio" + up + "_packets", 1_000);
        }, "perf", "-i", netdev, "-t", "1", "-c", "1");

        List<String> lines = out.lines().map(String::strip).toList();
        assertEquals(List.of("Initializing rdmamon perf...", "Sampling started."), lines.subList(0, 2), out);
        assertTrue(lines.get(2).matches("tx_prio" + up + "_bytes: [\\d,.]+ Bps\\s+= [\\d.]+ Mbps"), out);
        assertTrue(lines.get(3).matches("tx_prio" + up + "_packets: [\\d,.]+"), out);
        assertTrue(lines.get(4).matches("UP " + up + ": [\\d.]+\\s+Mbps = 100.00%"), out);
        assertTrue(lines.get(5).matches("UP " + up + ": [\\d,.]+\\s+Tran/sec = 100.00%"), out);
        assertEquals("--------", lines.get(6), out);
        assertEquals(7, lines.size(), out);
    }

    @Test
    void statShowsTheDataCounterInBytesPerSecond() throws Exception {
        copyFixture();
        Path device;
        try (Stream<Path> devices = Files.list(root.resolve("sys/class/infiniband"))) {
            device = devices.sorted().findFirst().orElseThrow();
        }
        Path rcvData = device.resolve("ports/1/counters/port_rcv_data");
        String out = runWhileChanging("time", () -> {
            // the kernel counts octets / 4: 250,000 more is 1,000,000 bytes
            long before = Long.parseLong(Files.readString(rcvData).strip());
            Files.writeString(rcvData, (before + 250_000) + "\n");
        }, "stat", "-d", device.getFileName().toString(), "-l", "-t", "1", "-c", "1");

        List<String> lines = out.lines().toList();
        Matcher live = Pattern.compile("\\d\\d:\\d\\d:\\d\\d\\s+([\\d,]+)\\s+0\\s+0\\s+0").matcher(lines.get(1));
        assertTrue(live.matches(), out);
        long bytesPerSecond = Long.parseLong(live.group(1).replace(",", ""));
        // one interval of about a second (fixed-rate ticks, measured elapsed time)
        assertTrue(bytesPerSecond > 500_000 && bytesPerSecond <= 1_100_000, out);
        assertTrue(lines.get(5).startsWith("max") && lines.get(5).contains(live.group(1)), out);
    }

    private interface Change {
        void apply() throws IOException;
    }

    /** Runs the command on the copy; applies the change once {@code marker} is printed. */
    private String runWhileChanging(String marker, Change change, String... args) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine(out, err);
        String[] withRoot = Stream.concat(Stream.of(args), Stream.of("--host-root", root.toString()))
                .toArray(String[]::new);
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cli.execute(withRoot));
        Waits.waitFor(() -> out.toString().contains(marker) || exit.isDone(), "\"" + marker + "\" printed");
        change.apply();
        assertEquals(0, exit.get(15, TimeUnit.SECONDS), () -> out + err.toString());
        return out.toString();
    }

    private static void bump(Path statistics, String key, long by) throws IOException {
        Matcher m = Pattern.compile("(?m)^(\\s*" + key + ": )(\\d+)$").matcher(Files.readString(statistics));
        assertTrue(m.find(), key + " in " + statistics);
        String changed = m.replaceFirst("$1" + (Long.parseLong(m.group(2)) + by));
        Files.writeString(statistics, changed);
    }

    private void copyFixture() throws IOException {
        try (Stream<Path> paths = Files.walk(FIXTURE)) {
            for (Path source : paths.toList()) {
                Path target = root.resolve(FIXTURE.relativize(source).toString());
                if (Files.isDirectory(source, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(target);
                } else {
                    // symlinks (device/net/<if>) are copied as links, as a capture keeps them
                    Files.copy(source, target, LinkOption.NOFOLLOW_LINKS, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
