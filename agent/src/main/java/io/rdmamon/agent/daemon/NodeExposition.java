package io.rdmamon.agent.daemon;

import io.rdmamon.protocol.exposition.ExpositionAssembler;
import io.rdmamon.protocol.exposition.ExpositionBytes;
import io.rdmamon.protocol.exposition.ExpositionFormat;
import io.rdmamon.protocol.exposition.MetricFamilies;
import io.rdmamon.protocol.exposition.NodeChunk;
import io.rdmamon.protocol.exposition.NodeRenderer;
import io.rdmamon.protocol.model.HostSample;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The agent's own exposition of its node ({@code rdmamon agent --listen}), rendered with the collector's
 * shared code ({@link NodeRenderer}) so that the series are the ones the collector exports for the node:
 * same names, labels and values, with {@code rdma_agent_up} judged as the collector judges it (the last
 * sample at most three intervals old). Thread-safe: samples arrive from the daemon, scrapes on workers.
 */
public final class NodeExposition {
    /** As the collector's default: a node whose last sample is older than this many intervals is down. */
    static final int STALE_AFTER_INTERVALS = 3;
    private final String node;
    private final long staleAfterMillis;
    private final LongSupplier clock;
    private HostSample last;
    private long lastRecordedMillis;
    /** {@link #last} rendered, kept until the next sample; null until a scrape needs it. */
    private NodeChunk chunk;

    public NodeExposition(String node, Duration interval, LongSupplier clock) {
        this.node = node;
        this.staleAfterMillis = STALE_AFTER_INTERVALS * Math.max(1, interval.toMillis());
        this.clock = clock;
    }

    /** Keeps {@code sample} as the node's; one not newer than the last (by its timestamp) changes nothing. */
    public synchronized void record(HostSample sample) {
        if (last != null && sample.timestampMillis() <= last.timestampMillis()) {
            return;
        }
        last = sample;
        lastRecordedMillis = clock.getAsLong();
        chunk = null;
    }

    /** The whole exposition: the node's {@code rdma_*} families, then the format's end (blocking, like {@code out}). */
    public synchronized void write(OutputStream out, ExpositionFormat format) throws IOException {
        NodeRenderer renderer = new NodeRenderer();
        ExpositionAssembler families = new ExpositionAssembler();
        ExpositionBytes up = new ExpositionBytes(64);
        renderer.agentUp(up, node, last != null && clock.getAsLong() - lastRecordedMillis <= staleAfterMillis);
        families.add(MetricFamilies.AGENT_UP, up);
        if (last != null) {
            if (chunk == null) {
                chunk = renderer.render(node, last);
            }
            families.add(chunk);
        }
        families.write(out, format);
        out.write(format.end());
    }
}
