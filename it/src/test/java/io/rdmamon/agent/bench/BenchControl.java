package io.rdmamon.agent.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The child side of {@link BenchChild}: answers one-line commands from stdin on stdout, until stdin
 * closes (the driver is gone), then exits. Built in: {@code heap} (used/committed now) and {@code gc}
 * (a full collection, then used/committed: the live set).
 */
final class BenchControl {
    static final String PREFIX = "bench ";

    private BenchControl() {
    }

    static void answer(String line) {
        System.out.println(PREFIX + line);
        System.out.flush();
    }

    /** Blocks the calling thread serving {@code commands}; returns when stdin closes. */
    static void serve(Map<String, Supplier<String>> commands) throws IOException {
        Map<String, Supplier<String>> all = new HashMap<>(commands);
        all.put("heap", BenchControl::heap);
        all.put("gc", () -> {
            System.gc();
            return heap();
        });
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            Supplier<String> command = all.get(line.strip());
            answer(command == null ? "error unknown command '" + line.strip() + "'" : command.get());
        }
    }

    static String heap() {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return "heapUsed=" + heap.getUsed() + " heapCommitted=" + heap.getCommitted();
    }

    /** {@code key=value} pairs of an answer. */
    static Map<String, String> fields(String answer) {
        Map<String, String> fields = new HashMap<>();
        for (String pair : answer.split(" ")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                fields.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return fields;
    }
}
