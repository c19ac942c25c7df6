package io.rdmamon.protocol.exposition;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.model.NicHealthReporter;
import io.rdmamon.protocol.model.NetdevCounters;
import io.rdmamon.protocol.model.PciFunction;
import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.LosslessPriorities;
import io.rdmamon.protocol.model.PriorityCounters;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.model.TransceiverModule;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static io.rdmamon.protocol.exposition.MetricFamilies.CARRIER_CHANGES;
import static io.rdmamon.protocol.exposition.MetricFamilies.CARRIER_DOWN_CHANGES;
import static io.rdmamon.protocol.exposition.MetricFamilies.CARRIER_UP_CHANGES;
import static io.rdmamon.protocol.exposition.MetricFamilies.DEVICE_INFO;
import static io.rdmamon.protocol.exposition.MetricFamilies.GID_INFO;
import static io.rdmamon.protocol.exposition.MetricFamilies.LAST_SAMPLE;
import static io.rdmamon.protocol.exposition.MetricFamilies.PAUSE_DURATION;
import static io.rdmamon.protocol.exposition.MetricFamilies.PAUSE_FRAMES;
import static io.rdmamon.protocol.exposition.MetricFamilies.PAUSE_TRANSITIONS;
import static io.rdmamon.protocol.exposition.MetricFamilies.PCIE_AER_ERRORS;
import static io.rdmamon.protocol.exposition.MetricFamilies.PCIE_LINK_SPEED;
import static io.rdmamon.protocol.exposition.MetricFamilies.PCIE_LINK_SPEED_MAX;
import static io.rdmamon.protocol.exposition.MetricFamilies.PCIE_LINK_WIDTH;
import static io.rdmamon.protocol.exposition.MetricFamilies.PCIE_LINK_WIDTH_MAX;
import static io.rdmamon.protocol.exposition.MetricFamilies.PHYS_STATE;
import static io.rdmamon.protocol.exposition.MetricFamilies.PORT_INFO;
import static io.rdmamon.protocol.exposition.MetricFamilies.PORT_RATE;
import static io.rdmamon.protocol.exposition.MetricFamilies.PORT_STATE;
import static io.rdmamon.protocol.exposition.MetricFamilies.PRIO_BYTES;
import static io.rdmamon.protocol.exposition.MetricFamilies.PRIO_PACKETS;
import static io.rdmamon.protocol.exposition.MetricFamilies.QOS_ECN_ENABLED;
import static io.rdmamon.protocol.exposition.MetricFamilies.QOS_INFO;
import static io.rdmamon.protocol.exposition.MetricFamilies.QOS_PFC_ENABLED;
import static io.rdmamon.protocol.exposition.MetricFamilies.QOS_PRIORITY_TC;
import static io.rdmamon.protocol.exposition.MetricFamilies.QOS_TC_BANDWIDTH;
import static io.rdmamon.protocol.exposition.MetricFamilies.SOURCE_SUCCESS;
import static io.rdmamon.protocol.exposition.MetricFamilies.SOURCE_SUPPORTED;
import static io.rdmamon.protocol.rates.CounterRate.unsignedToDouble;

/**
 * Renders the per-node {@code rdma_*} families of docs/architecture.md "Metric names" from one sample into a {@link
 * NodeChunk}.
 * Counters are exported as read (unsigned 64-bit to double); absent values are absent series.
 *
 * <p>Within a node, series follow device name, then port number as text (the order the client library's
 * label sort gave), then the sample's order. A series that would repeat a name and label set is dropped:
 * a device name or a port number seen before in the sample, a GID index or priority seen before on the
 * port, a second counter file that sanitises to the same name, and a counter whose name is one of the
 * fixed gauge or info families. Not thread-safe: one renderer per scrape, reused for all its nodes.
 */
public final class NodeRenderer {
    private static final double MICROS_PER_SECOND = 1_000_000.0;
    private static final Comparator<IbPort> PORT_ORDER = Comparator.comparing(p -> Integer.toString(p.port()));

    /** The lines of one family for the node being rendered. */
    private static final class FamilyBuffer {
        final Family family;
        /** Whether the selection renders the family; the lines of one it does not are never made. */
        final boolean selected;
        final ExpositionBytes bytes = new ExpositionBytes(1024);
        int node = -1;
        int port = -1;

        FamilyBuffer(Family family, boolean selected) {
            this.family = family;
            this.selected = selected;
        }
    }

    private final MetricSelection selection;
    private final Map<String, FamilyBuffer> buffers = new HashMap<>();
    private final List<FamilyBuffer> used = new ArrayList<>();
    private final ExpositionBytes labels = new ExpositionBytes(256);
    private int node;
    private int port;

    /** Every family ({@link MetricSelection#FULL}). */
    public NodeRenderer() {
        this(MetricSelection.FULL);
    }

    /** Only the families {@code selection} includes (the others are skipped, not rendered and dropped). */
    public NodeRenderer(MetricSelection selection) {
        this.selection = selection;
        MetricFamilies.NODE.forEach(f -> buffers.put(f.name(), new FamilyBuffer(f, selection.includes(f))));
    }

    public NodeChunk render(String nodeLabel, HostSample sample) {
        node++;
        used.clear();
        byte[] nodeOnly = labels("node", nodeLabel);
        line(LAST_SAMPLE, nodeOnly, sample.timestampMillis() / 1000.0);
        // one series of each per source: success 1 only when no subject of that source failed, supported 1 only
        // when every subject has the capability (unsupported is not a failure: it is how the device is)
        sourceSeries(SOURCE_SUCCESS, nodeLabel, sample, SourceStatus::success);
        sourceSeries(SOURCE_SUPPORTED, nodeLabel, sample, s -> s.outcome() != SourceStatus.Outcome.UNSUPPORTED);
        Set<String> devicesSeen = new HashSet<>();
        List<IbDevice> devices = new ArrayList<>(sample.devices());
        devices.sort(Comparator.comparing(IbDevice::name));
        for (IbDevice device : devices) {
            if (!devicesSeen.add(device.name())) {
                continue;
            }
            info(DEVICE_INFO, labels("board_id", text(device.boardId()), "device", device.name(),
                    "fw_version", text(device.fwVersion()), "hca_type", text(device.hcaType()), "node", nodeLabel,
                    "node_guid", text(device.nodeGuid()), "node_type", text(device.nodeType())));
            if (device.resources() != null) {
                // series sorted, as everywhere in the exposition (the summary is in kernel order)
                new TreeMap<>(device.resources().summary()).forEach((type, count) -> line(MetricFamilies.DEVICE_RESOURCES,
                        labels("device", device.name(), "node", nodeLabel, "type", type), unsignedToDouble(count)));
            }
            List<IbPort> ports = new ArrayList<>(device.ports());
            ports.sort(PORT_ORDER);
            Set<Integer> portsSeen = new HashSet<>();
            for (IbPort p : ports) {
                if (portsSeen.add(p.port())) {
                    port++;
                    port(nodeLabel, device.name(), p);
                    workloads(nodeLabel, device, p.port());
                    pci(nodeLabel, device.name(), p, device.pci());
                }
            }
        }
        if (sample.topology() != null) {
            topology(nodeLabel, sample.topology());
        }
        if (sample.kernel() != null) {
            kernelEvents(nodeLabel, sample.kernel());
        }
        if (sample.health() != null) {
            healthReporters(nodeLabel, sample.health());
        }
        return pack(sample);
    }

    /**
     * {@code rdma_port_workload_info} and {@code rdma_port_workload_qps} of each workload on the port, bounded by the
     * agent ({@link PortWorkload#bounded}); a workload repeated by a forged layout is rendered once.
     */
    private void workloads(String nodeLabel, IbDevice device, int portNumber) {
        if (device.resources() == null) {
            return;
        }
        Set<PortWorkload> seen = new HashSet<>();
        for (PortWorkload w : device.resources().workloadsOn(portNumber)) {
            if (!seen.add(w.withQps(1))) {
                continue;
            }
            byte[] workloadLabels = labels("attribution", w.attribution(), "comm", text(w.comm()), "container",
                    text(w.container()), "device", device.name(), "namespace", text(w.namespace()), "node", nodeLabel,
                    "pod", text(w.pod()), "port", Integer.toString(portNumber), "reason", text(w.reason()));
            info(MetricFamilies.WORKLOAD_INFO, workloadLabels);
            line(MetricFamilies.WORKLOAD_QPS, workloadLabels, w.qps());
        }
    }

    /** One path info and one readiness series per GPU↔NIC pair, sorted by GPU then NIC (a pair seen twice: once). */
    private void topology(String nodeLabel, GpuTopology topology) {
        List<GpuTopology.Pair> pairs = new ArrayList<>(topology.pairs());
        pairs.sort(Comparator.comparing(GpuTopology.Pair::gpu).thenComparing(GpuTopology.Pair::nic));
        Set<String> seen = new HashSet<>();
        for (GpuTopology.Pair pair : pairs) {
            if (!seen.add(pair.gpu() + "\n" + pair.nic())) {
                continue;
            }
            info(MetricFamilies.GPU_NIC_PATH_INFO, labels("gpu", pair.gpu(), "nic", pair.nic(), "node", nodeLabel,
                    "path", pair.path()));
            line(MetricFamilies.GPUDIRECT_READY, labels("gpu", pair.gpu(), "nic", pair.nic(), "node", nodeLabel),
                    pair.ready() ? 1 : 0);
        }
    }

    /** {@code rdma_kernel_events_total}: one series per kind, severity, device and port (the agent sorted them). */
    private void kernelEvents(String nodeLabel, KernelEvents kernel) {
        for (KernelEvents.Count count : kernel.counts()) {
            line(MetricFamilies.KERNEL_EVENTS, labels("device", count.device(), "kind", count.kind(), "node",
                    nodeLabel, "port", count.port(), "severity", count.severity()), count.total());
        }
    }

    /**
     * {@code rdma_nic_health_reporter_state} and {@code _errors_total}: one series per reporter, device and port, in
     * label order (a reporter the host has twice under one device and port, which no driver registers, is shown once).
     */
    private void healthReporters(String nodeLabel, List<NicHealthReporter> reporters) {
        Map<String, NicHealthReporter> byLabels = new TreeMap<>();
        reporters.forEach(r -> byLabels.putIfAbsent(r.device() + "\n" + r.port() + "\n" + r.reporter(), r));
        for (NicHealthReporter r : byLabels.values()) {
            byte[] labels = labels("device", r.device(), "node", nodeLabel, "port", r.port(), "reporter", r.reporter());
            line(MetricFamilies.NIC_HEALTH_REPORTER_STATE, labels, r.inError() ? 0 : 1);
            line(MetricFamilies.NIC_HEALTH_REPORTER_ERRORS, labels, r.errors());
        }
    }

    /** One series of {@code family} per source: 1 when {@code holds} for every subject of that source. */
    private void sourceSeries(Family family, String nodeLabel, HostSample sample, Predicate<SourceStatus> holds) {
        Map<String, Boolean> bySource = sample.sources().stream().collect(Collectors.toMap(
                SourceStatus::source, holds::test, Boolean::logicalAnd, TreeMap::new));
        bySource.forEach((source, all) -> line(family, labels("node", nodeLabel, "source", source), all ? 1 : 0));
    }

    private void port(String nodeLabel, String device, IbPort p) {
        String portNumber = Integer.toString(p.port());
        byte[] portLabels = labels("device", device, "node", nodeLabel, "port", portNumber);
        if (p.stateId() >= 0) {
            portLine(PORT_STATE, portLabels, p.stateId());
        }
        if (p.physStateId() >= 0) {
            portLine(PHYS_STATE, portLabels, p.physStateId());
        }
        if (p.rateBytesPerSecond() != null) {
            portLine(PORT_RATE, portLabels, p.rateBytesPerSecond());
        }
        EthtoolStats ethtool = p.ethtool();
        LosslessPriorities lossless = LosslessPriorities.of(p);
        info(PORT_INFO, labels("device", device, "link_layer", text(p.linkLayer()), "lossless_priorities",
                lossless.label(), "lossless_source", lossless.source(), "netdev", text(p.netdev()), "node", nodeLabel,
                "phys_state", text(p.physState()), "port", portNumber, "state", text(p.state())));
        if (p.fec() != null) {
            info(MetricFamilies.PORT_FEC_INFO, labels("active", p.fec().active() == null ? "None" : p.fec().active(),
                    "configured", String.join(" ", p.fec().configured()), "device", device, "node", nodeLabel,
                    "port", portNumber));
        }
        if (p.neighbor() != null) {
            info(MetricFamilies.PORT_NEIGHBOR_INFO, labels("chassis_id", text(p.neighbor().chassisId()),
                    "device", device, "node", nodeLabel, "port", portNumber, "port_id", text(p.neighbor().portId()),
                    "system_name", text(p.neighbor().systemName())));
        }
        if (p.qos() != null) {
            qos(nodeLabel, device, portNumber, p.qos());
        }
        p.counters().forEach((file, value) -> {
            if (value != null) {
                portLine(MetricNames.portCounterFamily(file), portLabels, unsignedToDouble(value));
            }
        });
        p.hwCounters().forEach((file, value) -> {
            if (value != null) {
                portLine(MetricNames.hwCounterFamily(file), portLabels, unsignedToDouble(value));
            }
        });
        netdevCounters(portLabels, p.netdevCounters());
        if (p.module() != null) {
            module(nodeLabel, device, portNumber, portLabels, p.module());
        }
        Set<Integer> gidIndexes = new HashSet<>();
        for (GidEntry gid : p.gids()) {
            if (gidIndexes.add(gid.index())) {
                info(GID_INFO, labels("device", device, "gid", gid.gid(), "index", Integer.toString(gid.index()),
                        "ipv4", text(gid.ipv4()), "netdev", text(gid.netdev()), "node", nodeLabel, "port", portNumber,
                        "type", text(gid.type())));
            }
        }
        if (ethtool != null) {
            Map<String, Long> raw = ethtool.raw();
            counter(MetricFamilies.PHY_CORRECTED_BITS, portLabels, raw.get("rx_corrected_bits_phy"), 1);
            counter(MetricFamilies.PHY_SYMBOL_ERRORS, portLabels, raw.get("rx_pcs_symbol_err_phy"), 1);
            counter(MetricFamilies.PHY_RECEIVED_BITS, portLabels, raw.get("rx_bits_phy"), 1);
            Set<Integer> priorities = new HashSet<>();
            for (PriorityCounters prio : ethtool.priorities()) {
                if (priorities.add(prio.priority())) {
                    priority(nodeLabel, device, portNumber, prio);
                }
            }
        }
    }

    /**
     * The device's PCI function on each of its ports: the alerts and the port page work per port, and a
     * function with several ports (mlx4) shows the same values on each.
     */
    private void pci(String nodeLabel, String device, IbPort p, PciFunction pci) {
        if (pci == null) {
            return;
        }
        String portNumber = Integer.toString(p.port());
        byte[] portLabels = labels("device", device, "node", nodeLabel, "port", portNumber);
        gauge(PCIE_LINK_WIDTH, portLabels, pci.currentLinkWidth());
        gauge(PCIE_LINK_WIDTH_MAX, portLabels, pci.maxLinkWidth());
        gauge(PCIE_LINK_SPEED, portLabels, pci.currentLinkSpeedTransfersPerSecond());
        gauge(PCIE_LINK_SPEED_MAX, portLabels, pci.maxLinkSpeedTransfersPerSecond());
        pci.aerErrors().forEach((severity, value) -> counter(PCIE_AER_ERRORS,
                labels("device", device, "node", nodeLabel, "port", portNumber, "severity", severity), value, 1));
    }

    private void gauge(Family family, byte[] labelBytes, Number value) {
        if (value != null) {
            line(family, labelBytes, value.doubleValue());
        }
    }

    private void module(String nodeLabel, String device, String portNumber, byte[] portLabels, TransceiverModule m) {
        info(MetricFamilies.MODULE_INFO, labels("device", device, "node", nodeLabel, "part", text(m.part()),
                "port", portNumber, "serial", text(m.serial()), "type", text(m.type()), "vendor", text(m.vendor())));
        gauge(MetricFamilies.MODULE_TEMPERATURE, portLabels, m.temperatureCelsius());
        gauge(MetricFamilies.MODULE_VOLTAGE, portLabels, m.voltageVolts());
        for (TransceiverModule.Lane lane : m.lanes()) {
            byte[] laneLabels = labels("device", device, "lane", Integer.toString(lane.lane()), "node", nodeLabel,
                    "port", portNumber);
            gauge(MetricFamilies.MODULE_RX_POWER, laneLabels, lane.rxPowerWatts());
            gauge(MetricFamilies.MODULE_TX_POWER, laneLabels, lane.txPowerWatts());
            gauge(MetricFamilies.MODULE_TX_BIAS, laneLabels, lane.txBiasAmperes());
        }
        TransceiverModule.Thresholds t = m.thresholds();
        if (t != null) {
            thresholds(MetricFamilies.MODULE_TEMPERATURE_THRESHOLD, nodeLabel, device, portNumber, t.temperatureCelsius());
            thresholds(MetricFamilies.MODULE_VOLTAGE_THRESHOLD, nodeLabel, device, portNumber, t.voltageVolts());
            thresholds(MetricFamilies.MODULE_RX_POWER_THRESHOLD, nodeLabel, device, portNumber, t.rxPowerWatts());
            thresholds(MetricFamilies.MODULE_TX_POWER_THRESHOLD, nodeLabel, device, portNumber, t.txPowerWatts());
            thresholds(MetricFamilies.MODULE_TX_BIAS_THRESHOLD, nodeLabel, device, portNumber, t.txBiasAmperes());
        }
    }

    private void thresholds(Family family, String nodeLabel, String device, String portNumber,
                            TransceiverModule.Limits limits) {
        if (limits == null) {
            return;
        }
        double[] values = {limits.highAlarm(), limits.lowAlarm(), limits.highWarning(), limits.lowWarning()};
        String[] names = {"high_alarm", "low_alarm", "high_warning", "low_warning"};
        for (int i = 0; i < values.length; i++) {
            line(family, labels("device", device, "node", nodeLabel, "port", portNumber, "threshold", names[i]),
                    values[i]);
        }
    }

    private void netdevCounters(byte[] portLabels, Map<String, Long> counters) {
        if (counters.isEmpty()) {
            return;
        }
        counter(CARRIER_CHANGES, portLabels, counters.get(NetdevCounters.CARRIER_CHANGES), 1);
        counter(CARRIER_UP_CHANGES, portLabels, counters.get(NetdevCounters.CARRIER_UP_COUNT), 1);
        counter(CARRIER_DOWN_CHANGES, portLabels, counters.get(NetdevCounters.CARRIER_DOWN_COUNT), 1);
    }

    /**
     * The QoS series of one port: at most 8 PFC bits, 1 info, 8 prio_tc, the bandwidth of the ETS classes (the
     * only TSA whose {@code tc_tx_bw} is a share) and the readable ECN files of the PFC priorities.
     */
    private void qos(String nodeLabel, String device, String portNumber, QosConfig qos) {
        info(QOS_INFO, labels("dcbx", qos.dcbx() == null ? "" : QosLabels.dcbx(qos.dcbx()), "device", device,
                "node", nodeLabel, "port", portNumber, "source", qos.source(), "trust", qos.pfc() == null
                        && qos.ets() == null && qos.app().isEmpty() ? "" : qos.trust()));
        if (qos.pfc() != null) {
            for (int prio = 0; prio < QosConfig.PRIORITIES; prio++) {
                line(QOS_PFC_ENABLED, priorityLabels(device, nodeLabel, portNumber, prio), qos.pfc().enabled(prio) ? 1 : 0);
            }
        }
        QosConfig.Ets ets = qos.ets();
        if (ets != null) {
            for (int prio = 0; prio < Math.min(QosConfig.PRIORITIES, ets.priorityTc().size()); prio++) {
                line(QOS_PRIORITY_TC, priorityLabels(device, nodeLabel, portNumber, prio), ets.priorityTc().get(prio));
            }
            int classes = Math.min(ets.tcBandwidthPercent().size(), ets.tcTsa().size());
            for (int tc = 0; tc < classes; tc++) {
                if (QosLabels.TSA_ETS.equals(ets.tcTsa().get(tc))) {
                    line(QOS_TC_BANDWIDTH, labels("device", device, "node", nodeLabel, "port", portNumber,
                            "tc", Integer.toString(tc)), ets.tcBandwidthPercent().get(tc));
                }
            }
        }
        if (qos.ecn() != null) {
            ecn(nodeLabel, device, portNumber, "np", qos.ecn().notificationPoint(), qos.pfc());
            ecn(nodeLabel, device, portNumber, "rp", qos.ecn().reactionPoint(), qos.pfc());
        }
    }

    /**
     * ECN of the PFC priorities only (all readable ones when PFC was not read): DCQCN matters where traffic is
     * lossless, and 16 series for every priority would take a port past DESIGN §5's 40 QoS series.
     */
    private void ecn(String nodeLabel, String device, String portNumber, String role, Map<Integer, Boolean> enabled,
                     QosConfig.Pfc pfc) {
        new TreeMap<>(enabled).forEach((prio, on) -> {
            if (prio >= 0 && prio < QosConfig.PRIORITIES && on != null && (pfc == null || pfc.enabled(prio))) {
                line(QOS_ECN_ENABLED, labels("device", device, "node", nodeLabel, "port", portNumber,
                        "priority", Integer.toString(prio), "role", role), on ? 1 : 0);
            }
        });
    }

    private byte[] priorityLabels(String device, String nodeLabel, String portNumber, int prio) {
        return labels("device", device, "node", nodeLabel, "port", portNumber, "priority", Integer.toString(prio));
    }

    private void priority(String nodeLabel, String device, String portNumber, PriorityCounters p) {
        String prio = Integer.toString(p.priority());
        byte[] rx = labels("device", device, "direction", "rx", "node", nodeLabel, "port", portNumber, "priority", prio);
        byte[] tx = labels("device", device, "direction", "tx", "node", nodeLabel, "port", portNumber, "priority", prio);
        counter(PRIO_BYTES, rx, p.rxBytes(), 1);
        counter(PRIO_BYTES, tx, p.txBytes(), 1);
        counter(PRIO_PACKETS, rx, p.rxPackets(), 1);
        counter(PRIO_PACKETS, tx, p.txPackets(), 1);
        counter(PAUSE_FRAMES, rx, p.rxPauseFrames(), 1);
        counter(PAUSE_FRAMES, tx, p.txPauseFrames(), 1);
        counter(PAUSE_DURATION, rx, p.rxPauseDurationMicros(), MICROS_PER_SECOND);
        counter(PAUSE_DURATION, tx, p.txPauseDurationMicros(), MICROS_PER_SECOND);
        counter(PAUSE_TRANSITIONS, rx, p.rxPauseTransitions(), 1);
    }

    private void counter(Family family, byte[] labelBytes, Long value, double divisor) {
        if (value != null) {
            line(family, labelBytes, unsignedToDouble(value) / divisor);
        }
    }

    /** A series labelled by device, node and port only: at most one per family and port. */
    private void portLine(Family family, byte[] portLabels, double value) {
        FamilyBuffer buffer = buffer(family);
        if (buffer != null && buffer.port != port) {
            buffer.port = port;
            buffer.bytes.sample(buffer.family.sampleName(), portLabels, value);
        }
    }

    private void line(Family family, byte[] labelBytes, double value) {
        FamilyBuffer buffer = buffer(family);
        if (buffer != null) {
            buffer.bytes.sample(buffer.family.sampleName(), labelBytes, value);
        }
    }

    private void info(Family family, byte[] labelBytes) {
        FamilyBuffer buffer = buffer(family);
        if (buffer != null) {
            buffer.bytes.info(buffer.family.sampleName(), labelBytes);
        }
    }

    /**
     * The buffer of {@code family} for this node; null when its name belongs to a family of another type or the
     * selection leaves the family out.
     */
    private FamilyBuffer buffer(Family family) {
        FamilyBuffer buffer = buffers.get(family.name());
        if (buffer == null) {
            buffer = new FamilyBuffer(family, selection.includes(family));
            buffers.put(family.name(), buffer);
        } else if (buffer.family.type() != family.type()) {
            return null;
        }
        if (!buffer.selected) {
            return null;
        }
        if (buffer.node != node) {
            buffer.node = node;
            buffer.bytes.reset();
            used.add(buffer);
        }
        return buffer;
    }

    private NodeChunk pack(HostSample sample) {
        int total = 0;
        for (FamilyBuffer b : used) {
            total += b.bytes.size();
        }
        byte[] data = new byte[total];
        Family[] families = new Family[used.size()];
        int[] offsets = new int[used.size() + 1];
        int at = 0;
        for (int i = 0; i < used.size(); i++) {
            FamilyBuffer b = used.get(i);
            families[i] = b.family;
            offsets[i] = at;
            System.arraycopy(b.bytes.array(), 0, data, at, b.bytes.size());
            at += b.bytes.size();
        }
        offsets[used.size()] = at;
        return new NodeChunk(sample, data, families, offsets);
    }

    /** The node's {@code rdma_agent_up} line into {@code out}: the collector's liveness or the agent's own. */
    public void agentUp(ExpositionBytes out, String nodeLabel, boolean up) {
        out.sample(MetricFamilies.AGENT_UP.sampleName(), labels("node", nodeLabel), up ? 1 : 0);
    }

    /** {@code {name1="value1",...}} with the values escaped; names must be given in sorted order. */
    public byte[] labels(String... namesAndValues) {
        labels.reset();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            labels.label(i == 0, namesAndValues[i], namesAndValues[i + 1]);
        }
        labels.put('}');
        return labels.toByteArray();
    }

    static String text(String value) {
        return value == null ? "" : value;
    }
}
