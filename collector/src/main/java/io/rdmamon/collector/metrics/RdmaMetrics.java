package io.rdmamon.collector.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.store.NodeView;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PriorityCounters;
import io.rdmamon.protocol.model.SourceStatus;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static io.rdmamon.protocol.rates.CounterRate.unsignedToDouble;

/**
 * The {@code rdma_*} families of DESIGN.md §5, built at scrape time from the {@link NodeStore}.
 * Counters are exported as read (unsigned 64-bit to double); absent values are absent series.
 */
public final class RdmaMetrics implements MultiCollector {
    private static final double MICROS_PER_SECOND = 1_000_000.0;
    private final NodeStore store;
    private final Supplier<? extends Collection<ProbeOutcome>> probes;

    public RdmaMetrics(NodeStore store) {
        this(store, List::of);
    }

    /** {@code probes} is called on the scrape's thread and must be thread-safe. */
    public RdmaMetrics(NodeStore store, Supplier<? extends Collection<ProbeOutcome>> probes) {
        this.store = store;
        this.probes = probes;
    }

    @Override
    public MetricSnapshots collect() {
        Families f = new Families();
        for (NodeView node : store.nodes()) {
            Labels nodeLabels = Labels.of("node", node.node());
            f.gauge("rdma_agent_up", "1 when the agent's last sample arrived within the staleness window",
                    nodeLabels, node.up() ? 1 : 0);
            HostSample sample = node.lastSample();
            if (sample == null) {
                continue;
            }
            f.gauge("rdma_agent_last_sample_timestamp_seconds", "Time the agent took its last sample (agent clock)",
                    nodeLabels, sample.timestampMillis() / 1000.0);
            sourceSuccess(f, node.node(), sample);
            for (IbDevice device : sample.devices()) {
                f.info("rdma_device", "Device attributes (sysfs fw_ver, hca_type, board_id, node_guid, node_type)",
                        Labels.of("node", node.node(), "device", device.name(), "fw_version", text(device.fwVersion()),
                                "hca_type", text(device.hcaType()), "board_id", text(device.boardId()),
                                "node_guid", text(device.nodeGuid()), "node_type", text(device.nodeType())));
                for (IbPort port : device.ports()) {
                    port(f, Labels.of("node", node.node(), "device", device.name(), "port", Integer.toString(port.port())), port);
                }
            }
        }
        probes.get().forEach(outcome -> probe(f, outcome));
        return f.build();
    }

    private static void probe(Families f, ProbeOutcome p) {
        Labels labels = Labels.of("src_node", p.srcNode(), "src_device", p.srcDevice(), "src_port",
                Integer.toString(p.srcPort()), "dst_node", p.dstNode(), "dst_device", p.dstDevice(), "dst_port",
                Integer.toString(p.dstPort()));
        if (p.bandwidthBitsPerSecond() != null) {
            f.gauge("rdma_probe_bandwidth_bits_per_second", "Average bandwidth of the last finished probe of the pair "
                    + "(perftest BW average)", labels, p.bandwidthBitsPerSecond());
        }
        f.gauge("rdma_probe_success", "1 when the last finished probe of the pair reached the pass ratio of the "
                + "link rate, 0 when it failed or fell short", labels, p.passed() ? 1 : 0);
        f.gauge("rdma_probe_timestamp_seconds", "Time the last finished probe of the pair finished", labels,
                p.finishedMillis() / 1000.0);
    }

    private static void sourceSuccess(Families f, String node, HostSample sample) {
        // one series per source: 1 only when every subject of that source was read
        Map<String, Boolean> bySource = sample.sources().stream().collect(Collectors.toMap(
                SourceStatus::source, SourceStatus::success, Boolean::logicalAnd, TreeMap::new));
        bySource.forEach((source, success) -> f.gauge("rdma_source_success",
                "1 when the agent read every subject of the source without error in its last sample",
                Labels.of("node", node, "source", source), success ? 1 : 0));
    }

    private static void port(Families f, Labels labels, IbPort port) {
        if (port.stateId() >= 0) {
            f.gauge("rdma_port_state_id", "Port state (sysfs state: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE)", labels, port.stateId());
        }
        if (port.physStateId() >= 0) {
            f.gauge("rdma_port_physical_state_id", "Physical port state (sysfs phys_state: 2 Polling, 3 Disabled, 5 LinkUp)",
                    labels, port.physStateId());
        }
        if (port.rateBytesPerSecond() != null) {
            f.gauge("rdma_port_rate_bytes_per_second", "Port rate (sysfs rate, Gb/s x 125000000)", labels,
                    port.rateBytesPerSecond());
        }
        EthtoolStats ethtool = port.ethtool();
        String lossless = ethtool == null ? "" : ethtool.pfcEnabledPriorities().stream().map(String::valueOf)
                .collect(Collectors.joining(","));
        f.info("rdma_port", "Port attributes; lossless_priorities are the PFC-enabled priorities of the netdev",
                labels.merge(Labels.of("link_layer", text(port.linkLayer()), "netdev", text(port.netdev()),
                        "state", text(port.state()), "phys_state", text(port.physState()),
                        "lossless_priorities", lossless)));
        port.counters().forEach((file, value) -> {
            if (value != null) {
                f.counter(MetricNames.portCounter(file), "sysfs counters/" + file
                        + (file.endsWith("_data") ? " x 4 (bytes)" : "") + ", as read", labels, unsignedToDouble(value));
            }
        });
        port.hwCounters().forEach((file, value) -> {
            if (value != null) {
                f.counter(MetricNames.hwCounter(file), "sysfs hw_counters/" + file + ", as read", labels,
                        unsignedToDouble(value));
            }
        });
        for (GidEntry gid : port.gids()) {
            f.info("rdma_gid", "Non-empty GID table entries (sysfs gids/, gid_attrs/)",
                    labels.merge(Labels.of("index", Integer.toString(gid.index()), "gid", gid.gid(),
                            "type", text(gid.type()), "netdev", text(gid.netdev()), "ipv4", text(gid.ipv4()))));
        }
        if (ethtool != null) {
            for (PriorityCounters p : ethtool.priorities()) {
                priority(f, labels, p);
            }
        }
    }

    private static void priority(Families f, Labels labels, PriorityCounters p) {
        String prio = Integer.toString(p.priority());
        Labels rx = labels.merge(Labels.of("priority", prio, "direction", "rx"));
        Labels tx = labels.merge(Labels.of("priority", prio, "direction", "tx"));
        String bytes = "Bytes per 802.1p priority (ethtool rx/tx_prioN_bytes)";
        String packets = "Packets per 802.1p priority (ethtool rx/tx_prioN_packets)";
        String pause = "PFC pause frames per priority (ethtool rx/tx_prioN_pause)";
        // the driver counts pause duration in microseconds; Prometheus wants seconds
        String duration = "PFC pause duration per priority (ethtool rx/tx_prioN_pause_duration, us / 1e6)";
        counter(f, "rdma_prio_bytes", bytes, rx, p.rxBytes(), 1);
        counter(f, "rdma_prio_bytes", bytes, tx, p.txBytes(), 1);
        counter(f, "rdma_prio_packets", packets, rx, p.rxPackets(), 1);
        counter(f, "rdma_prio_packets", packets, tx, p.txPackets(), 1);
        counter(f, "rdma_pfc_pause_frames", pause, rx, p.rxPauseFrames(), 1);
        counter(f, "rdma_pfc_pause_frames", pause, tx, p.txPauseFrames(), 1);
        counter(f, "rdma_pfc_pause_duration_seconds", duration, rx, p.rxPauseDurationMicros(), MICROS_PER_SECOND);
        counter(f, "rdma_pfc_pause_duration_seconds", duration, tx, p.txPauseDurationMicros(), MICROS_PER_SECOND);
        counter(f, "rdma_pfc_pause_transitions", "PFC pause state transitions (ethtool rx_prioN_pause_transition)",
                rx, p.rxPauseTransitions(), 1);
    }

    private static void counter(Families f, String name, String help, Labels labels, Long value, double divisor) {
        if (value != null) {
            f.counter(name, help, labels, unsignedToDouble(value) / divisor);
        }
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }
}
