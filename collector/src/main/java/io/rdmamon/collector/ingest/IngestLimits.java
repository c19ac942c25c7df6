package io.rdmamon.collector.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.ConfigException;

import java.time.Duration;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code "ingest"} section of the collector config: how much one agent may announce, and how long its
 * stream may stay silent. A hello or layout beyond a limit is refused (close 1008, the reason naming the
 * limit), so that one agent cannot fill the heap or flood {@code /metrics}. Defaults leave ample room for real
 * hosts: the fixtures' largest port has 21 counters, 32 hw_counters and 96 ethtool statistics with names of at
 * most 31 characters; an mlx5 netdev with many channels reports 1,000 to 3,000 ethtool statistics; a DGX has
 * 8 to 18 HCAs of 1 or 2 ports (docs/collector.md, Limits).
 *
 * @param maxDevices          RDMA devices per node
 * @param maxPortsPerDevice   ports per device
 * @param maxCountersPerGroup names per counter group of a port (counters, hw_counters, ethtool statistics,
 *                            vport RDMA statistics)
 * @param maxGidsPerPort      GID table entries per port
 * @param maxNameLength       characters of any name from an agent (device, counter, netdev, agent version,
 *                            capability, GID, attribute texts)
 * @param maxLabelBytes       UTF-8 bytes of all strings of one layout together
 * @param maxClockSkew        samples stamped further ahead of the collector's clock are refused (and counted)
 * @param idleTimeout         an agent stream with no frame for this long is closed (agents send a heartbeat
 *                            every 5 s when they have nothing else to send)
 */
public record IngestLimits(int maxDevices, int maxPortsPerDevice, int maxCountersPerGroup, int maxGidsPerPort,
                           int maxNameLength, int maxLabelBytes, Duration maxClockSkew, Duration idleTimeout) {
    /** Characters of a free text from an agent (a failing source's error, a probe's error). */
    public static final int MAX_TEXT_CHARS = 4096;
    /** Output lines of one probe report (agents send at most 100) and characters of each. */
    public static final int MAX_PROBE_OUTPUT_LINES = 200;
    public static final int MAX_PROBE_OUTPUT_LINE_CHARS = 1024;
    /** Sources of one sample (agents report one per device and netdev read). */
    public static final int MAX_SOURCES = 1024;
    /** Longest sampling interval a hello may announce: the node's staleness is derived from it. */
    public static final long MAX_INTERVAL_MILLIS = 86_400_000;

    private static final Set<String> FILE_KEYS = Set.of("maxDevices", "maxPortsPerDevice", "maxCountersPerGroup",
            "maxGidsPerPort", "maxNameLength", "maxLabelBytes", "maxClockSkew", "idleTimeout");

    public IngestLimits {
        positive("ingest.maxDevices", maxDevices);
        positive("ingest.maxPortsPerDevice", maxPortsPerDevice);
        positive("ingest.maxCountersPerGroup", maxCountersPerGroup);
        positive("ingest.maxGidsPerPort", maxGidsPerPort);
        if (maxNameLength < 64) {
            // below the longest names real hosts use (node names of 63, counter names of ~40 characters)
            throw new ConfigException("ingest.maxNameLength must be at least 64: " + maxNameLength);
        }
        positive("ingest.maxLabelBytes", maxLabelBytes);
        if (maxClockSkew.isNegative()) {
            throw new ConfigException("ingest.maxClockSkew must not be negative: " + maxClockSkew);
        }
        // agents send a heartbeat after 5 s of silence, checked every 5 s: up to 10 s between frames, so anything
        // below 15 s closes healthy idle agents (docs/collector.md); 1 s is the floor for tests
        if (idleTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new ConfigException("ingest.idleTimeout must be at least 1s: " + idleTimeout);
        }
    }

    /** An agent stream silent for this long is closed: six heartbeat intervals of 5 s. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

    /** 64 devices, 32 ports each, 8192 names per group, 1024 GIDs, names of 256, 2 MiB of labels, 5 min skew, 30 s idle. */
    public static IngestLimits defaults() {
        return new IngestLimits(64, 32, 8192, 1024, 256, 2 * 1024 * 1024, Duration.ofMinutes(5),
                DEFAULT_IDLE_TIMEOUT);
    }

    public IngestLimits withMaxDevices(int value) {
        return new IngestLimits(value, maxPortsPerDevice, maxCountersPerGroup, maxGidsPerPort, maxNameLength,
                maxLabelBytes, maxClockSkew, idleTimeout);
    }

    public IngestLimits withIdleTimeout(Duration value) {
        return new IngestLimits(maxDevices, maxPortsPerDevice, maxCountersPerGroup, maxGidsPerPort, maxNameLength,
                maxLabelBytes, maxClockSkew, value);
    }

    /** This config overlaid by a config file's {@code "ingest"} object; {@code where} (the file) prefixes errors. */
    public IngestLimits overlay(JsonNode section, String where) {
        if (section == null || !section.isObject()) {
            throw new ConfigException(where + "ingest must be an object");
        }
        for (Iterator<String> keys = section.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!FILE_KEYS.contains(key)) {
                throw new ConfigException(where + "unknown key 'ingest." + key + "' (known: " + new TreeSet<>(FILE_KEYS) + ")");
            }
        }
        try {
            return new IngestLimits(integer(section, "maxDevices", maxDevices),
                    integer(section, "maxPortsPerDevice", maxPortsPerDevice),
                    integer(section, "maxCountersPerGroup", maxCountersPerGroup),
                    integer(section, "maxGidsPerPort", maxGidsPerPort),
                    integer(section, "maxNameLength", maxNameLength),
                    integer(section, "maxLabelBytes", maxLabelBytes),
                    duration(section, "maxClockSkew", maxClockSkew),
                    duration(section, "idleTimeout", idleTimeout));
        } catch (ConfigException e) {
            throw new ConfigException(where + e.getMessage(), e);
        }
    }

    private static int integer(JsonNode section, String key, int fallback) {
        JsonNode node = section.get(key);
        if (node == null) {
            return fallback;
        }
        if (!node.isInt()) {
            throw new ConfigException("ingest." + key + " must be an integer");
        }
        return node.intValue();
    }

    private static Duration duration(JsonNode section, String key, Duration fallback) {
        JsonNode node = section.get(key);
        if (node == null) {
            return fallback;
        }
        if (!node.isTextual()) {
            throw new ConfigException("ingest." + key + " must be a duration like 30s or 5m");
        }
        return CollectorConfig.duration(node.textValue(), "ingest." + key);
    }

    private static void positive(String key, int value) {
        if (value <= 0) {
            throw new ConfigException(key + " must be positive: " + value);
        }
    }
}
