package io.rdmamon.collector.ingest;

import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.protocol.json.StrictJson;
import io.rdmamon.protocol.text.WireLimits;

import java.time.Duration;
import java.util.Set;

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
    public static final int MAX_TEXT_CHARS = WireLimits.MAX_TEXT_CHARS;
    /** Output lines of one probe report (agents send at most 100) and characters of each. */
    public static final int MAX_PROBE_OUTPUT_LINES = WireLimits.MAX_PROBE_OUTPUT_LINES;
    public static final int MAX_PROBE_OUTPUT_LINE_CHARS = WireLimits.MAX_PROBE_OUTPUT_LINE_CHARS;
    /** Sources of one sample (agents report one per device and netdev read). */
    public static final int MAX_SOURCES = WireLimits.MAX_SOURCES;
    /** Longest sampling interval a hello may announce: the node's staleness is derived from it. */
    public static final long MAX_INTERVAL_MILLIS = 86_400_000;

    private static final Set<String> FILE_KEYS = Set.of("maxDevices", "maxPortsPerDevice", "maxCountersPerGroup",
            "maxGidsPerPort", "maxNameLength", "maxLabelBytes", "maxClockSkew", "idleTimeout");

    public IngestLimits {
        ConfigException.requirePositive("ingest.maxDevices", maxDevices);
        ConfigException.requirePositive("ingest.maxPortsPerDevice", maxPortsPerDevice);
        ConfigException.requirePositive("ingest.maxCountersPerGroup", maxCountersPerGroup);
        ConfigException.requirePositive("ingest.maxGidsPerPort", maxGidsPerPort);
        if (maxNameLength < WireLimits.MIN_NAME_CHARS) {
            // below the longest names real hosts use (node names of 63, counter names of ~40 characters)
            throw new ConfigException("ingest.maxNameLength must be at least " + WireLimits.MIN_NAME_CHARS + ": "
                    + maxNameLength);
        }
        ConfigException.requirePositive("ingest.maxLabelBytes", maxLabelBytes);
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
        return new IngestLimits(WireLimits.MAX_DEVICES, WireLimits.MAX_PORTS_PER_DEVICE,
                WireLimits.MAX_COUNTERS_PER_GROUP, WireLimits.MAX_GIDS_PER_PORT, WireLimits.MAX_NAME_CHARS,
                WireLimits.MAX_LABEL_BYTES, Duration.ofMinutes(5), DEFAULT_IDLE_TIMEOUT);
    }

    public IngestLimits withMaxDevices(int value) {
        return new IngestLimits(value, maxPortsPerDevice, maxCountersPerGroup, maxGidsPerPort, maxNameLength,
                maxLabelBytes, maxClockSkew, idleTimeout);
    }

    public IngestLimits withIdleTimeout(Duration value) {
        return new IngestLimits(maxDevices, maxPortsPerDevice, maxCountersPerGroup, maxGidsPerPort, maxNameLength,
                maxLabelBytes, maxClockSkew, value);
    }

    /** This config overlaid by a config file's {@code "ingest"} object. */
    public IngestLimits overlay(StrictJson section) {
        section.requireKnownKeys(FILE_KEYS);
        return new IngestLimits(section.integer("maxDevices", maxDevices),
                section.integer("maxPortsPerDevice", maxPortsPerDevice),
                section.integer("maxCountersPerGroup", maxCountersPerGroup),
                section.integer("maxGidsPerPort", maxGidsPerPort),
                section.integer("maxNameLength", maxNameLength),
                section.integer("maxLabelBytes", maxLabelBytes),
                section.duration("maxClockSkew", maxClockSkew),
                section.duration("idleTimeout", idleTimeout));
    }
}
