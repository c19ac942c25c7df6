package io.rdmamon.agent.daemon;

import io.rdmamon.protocol.exposition.ExpositionAssembler;
import io.rdmamon.protocol.exposition.ExpositionBytes;
import io.rdmamon.protocol.exposition.ExpositionFormat;
import io.rdmamon.protocol.exposition.ExpositionGzip;
import io.rdmamon.protocol.exposition.MetricFamilies;
import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.exposition.NodeChunk;
import io.rdmamon.protocol.exposition.NodeRenderer;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.telemetry.ProcessTelemetry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The agent's own exposition of its node ({@code rdmamon agent --listen}), rendered with the collector's
 * shared code ({@link NodeRenderer}) so that the series are the ones the collector exports for the node:
 * same names, labels and values, with {@code rdma_agent_up} judged as the collector judges it (the last
 * sample at most three intervals old). Thread-safe: samples arrive from the daemon's worker, scrapes on the
 * event loop.
 *
 * <p>Rendered at most once per sample, and only for a scraper: the whole body of each way of asking (format,
 * gzip) is built once and kept until the next sample ({@link #cachedBody}). The ways asked for during one
 * sample are built again right when the next one is recorded, on the recording (worker) thread, so a scrape
 * at 1 Hz only copies cached bytes. A sample nobody asked about in the interval before it is only kept and
 * rendered by the next scrape ({@link #body}): with Prometheus scraping every 15 s, or no scraper at all
 * (the systemd unit's {@code --listen} by default), 14 of 15 samples cost no rendering. A body built while
 * the last sample is stale ({@code rdma_agent_up} 0) is not kept.
 */
public final class NodeExposition {
    /** As the collector's default: a node whose last sample is older than this many intervals is down. */
    static final int STALE_AFTER_INTERVALS = 3;

    /** One way a scraper asks: format and whether gzip. */
    public enum Variant {
        TEXT(ExpositionFormat.PROMETHEUS_TEXT, false), TEXT_GZIP(ExpositionFormat.PROMETHEUS_TEXT, true),
        OPENMETRICS(ExpositionFormat.OPENMETRICS, false), OPENMETRICS_GZIP(ExpositionFormat.OPENMETRICS, true);

        private final ExpositionFormat format;
        private final boolean gzip;

        Variant(ExpositionFormat format, boolean gzip) {
            this.format = format;
            this.gzip = gzip;
        }

        public static Variant of(ExpositionFormat format, boolean gzip) {
            return format == ExpositionFormat.OPENMETRICS ? (gzip ? OPENMETRICS_GZIP : OPENMETRICS) : (gzip ? TEXT_GZIP : TEXT);
        }

        public ExpositionFormat format() {
            return format;
        }

        public boolean gzip() {
            return gzip;
        }
    }

    private final String node;
    private final long staleAfterMillis;
    private final LongSupplier clock;
    private final MetricSelection selection;
    private final NodeRenderer renderer;
    /** The process's own families after the node's ({@code process_*}, {@code jvm_*}, ...); null: none. */
    private final ProcessTelemetry process;
    private HostSample last;
    private long lastRecordedMillis;
    /** {@link #last} rendered, once someone asked for it; null before. */
    private NodeChunk chunk;
    /** The node's families of {@link #last} while it is fresh, by way of asking (without the process's, nor the end). */
    private final Map<Variant, byte[]> bodies = new HashMap<>();
    /** The ways asked for since the last sample: built ahead when the next one is recorded. */
    private final Set<Variant> asked = EnumSet.noneOf(Variant.class);
    private long bodiesBuilt;

    public NodeExposition(String node, Duration interval, LongSupplier clock) {
        this(node, interval, clock, MetricSelection.FULL);
    }

    /** Rendering only the families {@code selection} includes ({@code rdmamon agent --metrics}). */
    public NodeExposition(String node, Duration interval, LongSupplier clock, MetricSelection selection) {
        this(node, interval, clock, selection, null);
    }

    /**
     * Also the {@code process}'s own families (those {@code selection} includes), rendered anew on every scrape since
     * they move on their own: a few hundred bytes of text, appended to the cached node families (gzip: as a second
     * gzip member, which every gzip reader takes as the rest of the stream, RFC 1952 section 2.2).
     */
    public NodeExposition(String node, Duration interval, LongSupplier clock, MetricSelection selection,
                          ProcessTelemetry process) {
        this.node = node;
        this.process = process;
        this.staleAfterMillis = STALE_AFTER_INTERVALS * Math.max(1, interval.toMillis());
        this.clock = clock;
        this.selection = selection;
        this.renderer = new NodeRenderer(selection);
    }

    /**
     * Keeps {@code sample} as the node's and builds the bodies scrapers asked for since the last one (CPU
     * work: call it on a worker); one not newer than the last (by its timestamp) changes nothing.
     */
    public synchronized void record(HostSample sample) {
        if (last != null && sample.timestampMillis() <= last.timestampMillis()) {
            return;
        }
        last = sample;
        lastRecordedMillis = clock.getAsLong();
        chunk = null;
        bodies.clear();
        for (Variant variant : asked) {
            bodies.put(variant, build(variant, true));
        }
        asked.clear();
    }

    /** The body for {@code variant} when it is built already for the last sample and that is fresh; null otherwise. */
    public synchronized byte[] cachedBody(Variant variant) {
        asked.add(variant);
        byte[] nodeFamilies = fresh() ? bodies.get(variant) : null;
        return nodeFamilies == null ? null : withProcess(nodeFamilies, variant);
    }

    /** The body for {@code variant}, built when not cached (CPU work, and gzip: call it on a worker). */
    public synchronized byte[] body(Variant variant) {
        asked.add(variant);
        boolean up = fresh();
        byte[] cached = up ? bodies.get(variant) : null;
        if (cached != null) {
            return withProcess(cached, variant);
        }
        byte[] built = build(variant, up);
        if (up && last != null) {
            bodies.put(variant, built);
        }
        return withProcess(built, variant);
    }

    /** {@code nodeFamilies}, then the process's families and the format's end, compressed apart when gzip. */
    private byte[] withProcess(byte[] nodeFamilies, Variant variant) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(nodeFamilies.length + 8192);
        body.writeBytes(nodeFamilies);
        try (OutputStream out = variant.gzip() ? ExpositionGzip.fastest(body) : body) {
            if (process != null) {
                process.write(out, variant.format(), selection::includesRegistryName);
            }
            if (process == null || variant.format() != ExpositionFormat.OPENMETRICS) {
                out.write(variant.format().end()); // the client library's OpenMetrics writer ends with # EOF itself
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build the exposition", e); // in memory: not expected
        }
        return body.toByteArray();
    }

    /** Bodies built so far (tests: a scrape between samples builds none). */
    synchronized long bodiesBuilt() {
        return bodiesBuilt;
    }

    /** The whole exposition: the node's {@code rdma_*} families, then the format's end (blocking, like {@code out}). */
    public synchronized void write(OutputStream out, ExpositionFormat format) throws IOException {
        out.write(body(Variant.of(format, false)));
    }

    private boolean fresh() {
        return last != null && clock.getAsLong() - lastRecordedMillis <= staleAfterMillis;
    }

    private byte[] build(Variant variant, boolean up) {
        ExpositionAssembler families = new ExpositionAssembler(selection);
        ExpositionBytes upBytes = new ExpositionBytes(64);
        renderer.agentUp(upBytes, node, up);
        families.add(MetricFamilies.AGENT_UP, upBytes);
        if (last != null && chunk == null) {
            chunk = renderer.render(node, last);
        }
        if (chunk != null) {
            families.add(chunk);
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream(chunk == null ? 256 : chunk.data().length + 4096);
        try (OutputStream out = variant.gzip() ? ExpositionGzip.fastest(body) : body) {
            families.write(out, variant.format());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build the exposition", e); // in memory: not expected
        }
        bodiesBuilt++;
        return body.toByteArray();
    }
}
