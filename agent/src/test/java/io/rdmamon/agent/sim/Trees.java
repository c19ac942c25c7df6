package io.rdmamon.agent.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Reads simulated trees the way a test needs: raw text, unsigned numbers, ethtool maps, snapshots. */
final class Trees {
    private Trees() {
    }

    static String text(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String bytes(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A sysfs counter file: decimal digits and a newline, as unsigned 64-bit. */
    static long number(Path file) {
        String text = text(file);
        if (!text.matches("\\d+\n")) {
            throw new AssertionError(file + " is not a counter value: '" + text + "'");
        }
        return Long.parseUnsignedLong(text.strip());
    }

    static Path port(Path root, String device) {
        return root.resolve("sys/class/infiniband/" + device + "/ports/1");
    }

    static long counter(Path root, String device, String name) {
        return number(port(root, device).resolve("counters/" + name));
    }

    static long hw(Path root, String device, String name) {
        return number(port(root, device).resolve("hw_counters/" + name));
    }

    /** Parses {@code ethtool -S} text, checking the exact line format on the way. */
    static Map<String, Long> ethtool(Path root, String netdev) {
        String[] lines = text(root.resolve("ethtool/" + netdev + "/statistics")).split("\n", -1);
        if (!lines[0].equals("NIC statistics:") || !lines[lines.length - 1].isEmpty()) {
            throw new AssertionError("not ethtool -S text for " + netdev);
        }
        Map<String, Long> stats = new LinkedHashMap<>();
        for (int i = 1; i < lines.length - 1; i++) {
            if (!lines[i].matches(" {5}[a-z0-9_]+: \\d+")) {
                throw new AssertionError("bad ethtool line " + i + " for " + netdev + ": '" + lines[i] + "'");
            }
            String[] parts = lines[i].strip().split(": ");
            stats.put(parts[0], Long.parseUnsignedLong(parts[1]));
        }
        return stats;
    }

    /**
     * Every regular file below {@code root}, by relative path, with its content; bytes as ISO-8859-1 chars, since
     * module EEPROM images ({@code ethtool/<if>/module}) are binary.
     */
    static Map<String, String> snapshot(Path root) {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(Files::isRegularFile).forEach(file -> files.put(root.relativize(file).toString(), bytes(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    static boolean exists(Path root, String relative) {
        return Files.exists(root.resolve(relative));
    }
}
