package io.rdmamon.collector.ingest;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.store.NodeView;

/** {@code rdmamon_collector_*}: how the collector itself is doing. */
public final class SelfMetrics {
    public final Counter framesReceived;
    public final Counter framesRejected;
    public final Counter samplesIngested;
    public final Counter samplesDuplicate;
    public final Counter authFailures;
    public final Counter nodesExpired;
    /** By {@code reason}: bad_frame, invalid_text, limit, oversized, name_conflict, token_node, node_limit, idle, busy. */
    public final Counter streamsClosed;
    /** By {@code reason}: ahead_of_clock. */
    public final Counter samplesRefused;

    public SelfMetrics(PrometheusRegistry registry, NodeStore store) {
        framesReceived = Counter.builder().name("rdmamon_collector_frames_received")
                .help("Agent frames received").register(registry);
        framesRejected = Counter.builder().name("rdmamon_collector_frames_rejected")
                .help("Agent frames refused (oversized, truncated, wrong version, out of order); each closes its connection")
                .register(registry);
        samplesIngested = Counter.builder().name("rdmamon_collector_samples_ingested")
                .help("Samples stored").register(registry);
        samplesDuplicate = Counter.builder().name("rdmamon_collector_samples_duplicate")
                .help("Replayed samples that were already stored").register(registry);
        authFailures = Counter.builder().name("rdmamon_collector_auth_failures")
                .help("Agent connections refused for a missing or unknown token").register(registry);
        nodesExpired = Counter.builder().name("rdmamon_collector_nodes_expired")
                .help("Nodes dropped after the expiry time without frames").register(registry);
        streamsClosed = Counter.builder().name("rdmamon_collector_agent_streams_closed")
                .help("Agent streams the collector closed, by reason (docs/collector.md, close codes)")
                .labelNames("reason").register(registry);
        samplesRefused = Counter.builder().name("rdmamon_collector_samples_refused")
                .help("Agent samples acknowledged but not stored, by reason").labelNames("reason").register(registry);
        CounterWithCallback.builder().name("rdmamon_collector_history_points_shed")
                .help("Rate-history points dropped (oldest first) to keep the histories within historyBudgetMiB")
                .callback(cb -> cb.call(store.historyShedPoints())).register(registry);
        GaugeWithCallback.builder().name("rdmamon_collector_history_points_per_port")
                .help("Rate-history points each port keeps now: historyPoints, fewer past historyBudgetMiB")
                .callback(cb -> cb.call(store.historyLimit())).register(registry);
        GaugeWithCallback.builder().name("rdmamon_collector_history_bytes")
                .help("Bytes held by the rate histories of all ports").callback(cb -> cb.call(store.historyBytes()))
                .register(registry);
        GaugeWithCallback.builder().name("rdmamon_collector_admission_estimated_bytes")
                .help("Heap the nodes held are estimated to take, with their histories within historyBudgetMiB; a"
                        + " hello that would take it past rdmamon_collector_admission_limit_bytes is refused (1013)")
                .callback(cb -> cb.call(store.estimatedBytes())).register(registry);
        GaugeWithCallback.builder().name("rdmamon_collector_admission_limit_bytes")
                .help("Heap the nodes held may be estimated to take: half the maximum heap less the idle process"
                        + " and the hellos that may wait")
                .callback(cb -> cb.call(Math.min(store.admissionLimitBytes(), Long.MAX_VALUE / 2))).register(registry);
        GaugeWithCallback.builder().name("rdmamon_collector_connected_agents")
                .help("Open agent connections").callback(cb -> cb.call(store.connections())).register(registry);
        GaugeWithCallback.builder().name("rdmamon_collector_nodes").help("Nodes held, by liveness")
                .labelNames("state").callback(cb -> {
                    long up = store.nodes().stream().filter(NodeView::up).count();
                    cb.call(up, "up");
                    cb.call(store.nodes().size() - up, "stale");
                }).register(registry);
    }
}
