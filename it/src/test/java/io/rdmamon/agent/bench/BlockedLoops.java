package io.rdmamon.agent.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Event loops blocked beyond {@link BenchCollector#BLOCKED_LIMIT_MILLIS}, read from a collector log: Vert.x's
 * {@code BlockedThreadChecker} writes {@code Thread NAME has been blocked for N ms, time limit is L ms} (or {@code Thread Thread[NAME,…]})
 * on every check while one task runs on. One block shows as several warnings with growing N; a block is counted once,
 * at its longest, by keeping per thread the warnings whose time grew.
 *
 * @param warnings the checker's warnings
 * @param blocks   distinct blocks (a warning whose time did not grow since the thread's last one starts a new block)
 * @param maxMillis the longest time an event loop was reported blocked; 0 without warnings
 * @param lines     lines of the log read, where a later window starts
 */
record BlockedLoops(int warnings, int blocks, long maxMillis, long lines) {
    private static final Pattern WARNING = Pattern.compile(
            "Thread (?:Thread\\[(?:#\\d+,)?)?([^,\\]\\s]+)\\S* has been blocked for (\\d+) ms, time limit is \\d+ ms");

    /** The warnings in {@code log} after its first {@code fromLine} lines. */
    static BlockedLoops in(Path log, long fromLine) throws IOException {
        try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            return of(lines.skip(fromLine), fromLine);
        }
    }

    static BlockedLoops of(Stream<String> lines, long fromLine) {
        long[] read = {fromLine};
        Map<String, Long> lastByThread = new HashMap<>();
        int[] counts = new int[2];
        long[] max = new long[1];
        lines.forEach(line -> {
            read[0]++;
            Matcher m = WARNING.matcher(line);
            if (!m.find() || !m.group(1).contains("eventloop")) {
                return;
            }
            long millis = Long.parseLong(m.group(2));
            counts[0]++;
            Long last = lastByThread.put(m.group(1), millis);
            if (last == null || millis <= last) {
                counts[1]++;
            }
            max[0] = Math.max(max[0], millis);
        });
        return new BlockedLoops(counts[0], counts[1], max[0], read[0]);
    }
}
