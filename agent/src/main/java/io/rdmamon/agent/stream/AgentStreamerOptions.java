package io.rdmamon.agent.stream;

import io.rdmamon.agent.probe.ProbeSettings;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of an {@link AgentStreamer}. The samples come from the agent daemon; {@code node} and
 * {@code interval} here are what the hello announces, and must be the daemon's.
 *
 * @param collectorUrl      the collector's base URL (http, https, ws, wss), or several separated by commas (replicas)
 * @param node              the node name to report as
 * @param agentVersion      sent in the hello
 * @param token             bearer token; null when the collector needs none
 * @param interval          sampling interval, announced in the hello
 * @param heartbeatInterval a heartbeat is sent when nothing else was sent for this long
 * @param bufferCapacity    unacknowledged samples kept for replay (600 = 10 min at 1 Hz)
 * @param backoffBase       first reconnect window
 * @param backoffCap        largest reconnect window
 * @param trustCaFile       PEM CA certificate(s) to trust for wss; null = the JVM's default trust store
 * @param probes            whether and how this agent runs the collector's probes
 * @param ackTimeout        samples sent and not acknowledged for this long make the connection count as lost;
 *                          null = {@link #ackDeadline()}'s default, derived from the interval
 */
public record AgentStreamerOptions(String collectorUrl, String node, String agentVersion, String token,
                                   Duration interval, Duration heartbeatInterval,
                                   int bufferCapacity, Duration backoffBase, Duration backoffCap, Path trustCaFile,
                                   ProbeSettings probes, Duration ackTimeout) {
    /**
     * The least default acknowledgement deadline. A collector acknowledges each sample as it stores it, within
     * milliseconds; ten seconds leave room for a hello waiting for its decoding slot in a reconnect storm
     * (docs/collector.md, Limits) and a long GC pause, and still move the agents of a hung replica well within a
     * minute.
     */
    static final Duration MIN_DEFAULT_ACK_TIMEOUT = Duration.ofSeconds(10);
    /** Sampling intervals the default acknowledgement deadline spans at least, for long intervals. */
    static final int ACK_TIMEOUT_INTERVALS = 5;

    public AgentStreamerOptions {
        Objects.requireNonNull(collectorUrl, "collectorUrl");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(agentVersion, "agentVersion");
        Objects.requireNonNull(probes, "probes");
        StreamEndpoint.list(collectorUrl);
        if (interval.isNegative() || interval.isZero() || heartbeatInterval.isNegative() || heartbeatInterval.isZero()) {
            throw new IllegalArgumentException("interval and heartbeat interval must be positive");
        }
        if (bufferCapacity <= 0) {
            throw new IllegalArgumentException("buffer capacity must be positive: " + bufferCapacity);
        }
        if (ackTimeout != null && (ackTimeout.isNegative() || ackTimeout.isZero())) {
            throw new IllegalArgumentException("acknowledgement timeout must be positive: " + ackTimeout);
        }
    }

    /** {@code ackTimeout}, or by default the longer of 10 s and 5 sampling intervals. */
    public Duration ackDeadline() {
        if (ackTimeout != null) {
            return ackTimeout;
        }
        Duration intervals = interval.multipliedBy(ACK_TIMEOUT_INTERVALS);
        return intervals.compareTo(MIN_DEFAULT_ACK_TIMEOUT) > 0 ? intervals : MIN_DEFAULT_ACK_TIMEOUT;
    }

    /**
     * 1 s interval, 5 s heartbeat, 600 samples, backoff 1 s .. 15 s ({@link Backoff#DEFAULT_CAP}), no token, default
     * trust, probes refused, the default acknowledgement deadline.
     */
    public static AgentStreamerOptions of(String collectorUrl, String node) {
        return new AgentStreamerOptions(collectorUrl, node, defaultVersion(), null, Duration.ofSeconds(1),
                Duration.ofSeconds(5), 600, Backoff.DEFAULT_BASE, Backoff.DEFAULT_CAP, null, ProbeSettings.disabled(),
                null);
    }

    public AgentStreamerOptions withToken(String value) {
        return new AgentStreamerOptions(collectorUrl, node, agentVersion, value, interval, heartbeatInterval,
                bufferCapacity, backoffBase, backoffCap, trustCaFile, probes, ackTimeout);
    }

    public AgentStreamerOptions withInterval(Duration value) {
        return new AgentStreamerOptions(collectorUrl, node, agentVersion, token, value, heartbeatInterval,
                bufferCapacity, backoffBase, backoffCap, trustCaFile, probes, ackTimeout);
    }

    public AgentStreamerOptions withHeartbeatInterval(Duration value) {
        return new AgentStreamerOptions(collectorUrl, node, agentVersion, token, interval, value,
                bufferCapacity, backoffBase, backoffCap, trustCaFile, probes, ackTimeout);
    }

    public AgentStreamerOptions withBufferCapacity(int value) {
        return new AgentStreamerOptions(collectorUrl, node, agentVersion, token, interval, heartbeatInterval,
                value, backoffBase, backoffCap, trustCaFile, probes, ackTimeout);
    }

    public AgentStreamerOptions withBackoff(Duration base, Duration cap) {
        return new AgentStreamerOptions(collectorUrl, node, agentVersion, token, interval, heartbeatInterval,
                bufferCapacity, base, cap, trustCaFile, probes, ackTimeout);
    }

    public AgentStreamerOptions withTrustCaFile(Path value) {
        return new AgentStreamerOptions(collectorUrl, node, agentVersion, token, interval, heartbeatInterval,
                bufferCapacity, backoffBase, backoffCap, value, probes, ackTimeout);
    }

    public AgentStreamerOptions withAgentVersion(String value) {
        return new AgentStreamerOptions(collectorUrl, node, value, token, interval, heartbeatInterval,
                bufferCapacity, backoffBase, backoffCap, trustCaFile, probes, ackTimeout);
    }

    public AgentStreamerOptions withProbes(ProbeSettings value) {
        return new AgentStreamerOptions(collectorUrl, node, agentVersion, token, interval, heartbeatInterval,
                bufferCapacity, backoffBase, backoffCap, trustCaFile, value, ackTimeout);
    }

    /** null: the default deadline, derived from the interval ({@link #ackDeadline()}). */
    public AgentStreamerOptions withAckTimeout(Duration value) {
        return new AgentStreamerOptions(collectorUrl, node, agentVersion, token, interval, heartbeatInterval,
                bufferCapacity, backoffBase, backoffCap, trustCaFile, probes, value);
    }

    /**
     * The token in {@code file} ({@code --token-file}): its first line that is not blank and not a {@code #} comment.
     *
     * @throws IllegalArgumentException naming the file when it cannot be read or holds no token
     */
    public static String readTokenFile(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8).stream().map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#")).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(file + ": token file holds no token"));
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read token file: " + e.getClass().getSimpleName());
        }
    }

    /**
     * Checks a {@code --ca-file} up front, so that a typo is a startup error rather than a handshake failure on
     * every reconnect.
     *
     * @throws IllegalArgumentException naming the file when it cannot be read or holds no PEM certificate
     */
    public static void checkTrustCaFile(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            if (CertificateFactory.getInstance("X.509").generateCertificates(in).isEmpty()) {
                throw new IllegalArgumentException(file + ": holds no PEM certificate");
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read CA file: " + e.getClass().getSimpleName());
        } catch (CertificateException e) {
            throw new IllegalArgumentException(file + ": not a PEM certificate: " + e.getMessage());
        }
    }

    private static String defaultVersion() {
        String version = AgentStreamerOptions.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }
}
