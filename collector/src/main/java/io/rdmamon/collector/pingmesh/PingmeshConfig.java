package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.protocol.json.StrictJson;
import io.rdmamon.protocol.probe.LatencyResult;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code "pingmesh"} section of the collector config (docs/pingmesh.md "Configuration").
 *
 * @param enabled             plan rounds at all; only agents started with {@code --allow-pingmesh} take part
 * @param roundSeconds        a round is planned every this many seconds
 * @param windowSeconds       the results (matrix, metrics, verdicts) cover the probes of this last span
 * @param iterations          round trips per probe ({@code ib_send_lat -n})
 * @param peersPerRound       own-group peers each port probes per round
 * @param otherGroupsPerRound other groups each port probes per round
 * @param maxServerPerPort    probes one port serves at once (1..3)
 * @param qpTimeout           the probes' QP local ACK timeout exponent ({@code -u}); a round trip of at least
 *                            4.096 µs × 2^qpTimeout waited for a retransmission and counts as lost
 * @param probeTimeoutSeconds a whole probe (server listening, client run) ends within this, or fails
 * @param rttHighMillis       a pair is slow from this p50 (and four times the fabric's normal one): 0.5 ms, the SLA
 *                            rpingmesh flags; a lab whose hosts are emulated (TCG) needs tens of milliseconds
 * @param groups              configured groups, in file order
 */
public record PingmeshConfig(boolean enabled, int roundSeconds, int windowSeconds, int iterations, int peersPerRound,
                             int otherGroupsPerRound, int maxServerPerPort, int qpTimeout, int probeTimeoutSeconds,
                             double rttHighMillis, List<GroupRule> groups) {
    /** The InfiniBand local ACK timeout unit: 4.096 µs × 2^timeout (IBTA, {@code ibv_modify_qp} timeout). */
    public static final double ACK_TIMEOUT_UNIT_SECONDS = 4.096e-6;
    public static final int MAX_SERVER_PER_PORT = 3;
    /** 64-byte messages: a latency probe measures the path, not the bandwidth. */
    public static final long SIZE_BYTES = 64;
    private static final Set<String> FILE_KEYS = Set.of("enabled", "roundSeconds", "windowSeconds", "iterations",
            "peersPerRound", "otherGroupsPerRound", "maxServerPerPort", "qpTimeout", "probeTimeoutSeconds", "rttHighMillis", "groups");

    public PingmeshConfig {
        groups = List.copyOf(groups);
        ConfigException.requirePositive("pingmesh.roundSeconds", roundSeconds);
        ConfigException.requirePositive("pingmesh.probeTimeoutSeconds", probeTimeoutSeconds);
        if (windowSeconds < roundSeconds) {
            throw new ConfigException("pingmesh.windowSeconds (" + windowSeconds + ") must be at least roundSeconds ("
                    + roundSeconds + "): a window must hold a round");
        }
        if (iterations < LatencyResult.MIN_ITERATIONS || iterations > LatencyResult.MAX_ITERATIONS) {
            throw new ConfigException("pingmesh.iterations must be " + LatencyResult.MIN_ITERATIONS + ".."
                    + LatencyResult.MAX_ITERATIONS + ": " + iterations);
        }
        if (peersPerRound < 0 || otherGroupsPerRound < 0 || peersPerRound + otherGroupsPerRound == 0) {
            throw new ConfigException("pingmesh.peersPerRound (" + peersPerRound + ") and otherGroupsPerRound ("
                    + otherGroupsPerRound + ") must not be negative, and not both 0");
        }
        if (maxServerPerPort < 1 || maxServerPerPort > MAX_SERVER_PER_PORT) {
            throw new ConfigException("pingmesh.maxServerPerPort must be 1.." + MAX_SERVER_PER_PORT + ": " + maxServerPerPort);
        }
        if (!(rttHighMillis > 0) || Double.isInfinite(rttHighMillis)) {
            throw new ConfigException("pingmesh.rttHighMillis must be a positive number: " + rttHighMillis);
        }
        if (qpTimeout < 1 || qpTimeout > 31) {
            throw new ConfigException("pingmesh.qpTimeout must be 1..31: " + qpTimeout);
        }
        double lossRtt = ACK_TIMEOUT_UNIT_SECONDS * Math.pow(2, qpTimeout);
        if (lossRtt >= probeTimeoutSeconds) {
            throw new ConfigException(String.format(java.util.Locale.ROOT, "pingmesh.qpTimeout %d waits %.3f s for a "
                    + "retransmission, not less than probeTimeoutSeconds (%d): a lost packet would end the probe "
                    + "instead of showing as a long round trip", qpTimeout, lossRtt, probeTimeoutSeconds));
        }
    }

    /**
     * Enabled; a round every 15 s over a 60 s window; 20 round trips; 2 own-group peers and 1 other group a round: 0.4
     * perftest processes a second per port (docs/pingmesh.md, "Budget"), the processes being the cost.
     */
    public static PingmeshConfig defaults() {
        return new PingmeshConfig(true, 15, 60, 20, 2, 1, MAX_SERVER_PER_PORT, 14, 8, 0.5, List.of());
    }

    /**
     * The round trip from which a probe's exchange counts as lost: it waited for a retransmission. Half the QP's
     * retransmission timer (4.096 µs × 2^qpTimeout), not all of it: in the Soft-RoCE lab, exchanges that lost a
     * packet took 0.57 to 2.2 times the timer (a NAK or the timer started by an earlier packet retransmits early),
     * while clean ones stayed below a tenth of it (docs/pingmesh.md, "Results and loss").
     */
    public double lossRttSeconds() {
        return ACK_TIMEOUT_UNIT_SECONDS * Math.pow(2, qpTimeout) / 2;
    }

    public Duration round() {
        return Duration.ofSeconds(roundSeconds);
    }

    public Duration window() {
        return Duration.ofSeconds(windowSeconds);
    }

    public Duration probeTimeout() {
        return Duration.ofSeconds(probeTimeoutSeconds);
    }

    public PingmeshPlanner.Budget budget() {
        return new PingmeshPlanner.Budget(peersPerRound, otherGroupsPerRound, maxServerPerPort);
    }

    /** The localizer's thresholds: its defaults with this config's slow p50. */
    public PathLocalizer.Thresholds thresholds() {
        PathLocalizer.Thresholds d = PathLocalizer.Thresholds.defaults();
        return new PathLocalizer.Thresholds(d.lossRatio(), d.minLost(), rttHighMillis / 1000, d.slowFactor(), d.portShare(),
                d.minProbes());
    }

    /** This config overlaid by a config file's {@code "pingmesh"} object. */
    public PingmeshConfig overlay(StrictJson section) {
        section.requireKnownKeys(FILE_KEYS);
        return new PingmeshConfig(section.bool("enabled", enabled), section.integer("roundSeconds", roundSeconds),
                section.integer("windowSeconds", windowSeconds), section.integer("iterations", iterations),
                section.integer("peersPerRound", peersPerRound),
                section.integer("otherGroupsPerRound", otherGroupsPerRound),
                section.integer("maxServerPerPort", maxServerPerPort), section.integer("qpTimeout", qpTimeout),
                section.integer("probeTimeoutSeconds", probeTimeoutSeconds),
                section.number("rttHighMillis", rttHighMillis),
                section.has("groups") ? groups(section.object("groups")) : groups);
    }

    /** {@code {"name": ["node-glob", ...]}} in file order; a name twice is refused. */
    private static List<GroupRule> groups(StrictJson section) {
        List<GroupRule> rules = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String name : section.keys()) {
            if (!seen.add(name)) {
                throw new ConfigException(section.path(name) + ": group named twice");
            }
            rules.add(GroupRule.of(name, section.strings(name), section.path(name)));
        }
        return rules;
    }
}
