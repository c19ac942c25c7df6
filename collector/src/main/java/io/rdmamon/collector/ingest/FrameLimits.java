package io.rdmamon.collector.ingest;

import io.rdmamon.protocol.model.FecMode;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.model.NicHealthReporter;
import io.rdmamon.protocol.model.LldpNeighbor;
import io.rdmamon.protocol.model.PciFunction;
import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.QueuePair;
import io.rdmamon.protocol.model.RdmaResources;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.text.WireLimits;
import io.rdmamon.protocol.text.WireText;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.HostLayout;
import io.rdmamon.protocol.wire.HostLayout.DeviceLayout;
import io.rdmamon.protocol.wire.HostLayout.EthtoolLayout;
import io.rdmamon.protocol.wire.HostLayout.PciLayout;
import io.rdmamon.protocol.wire.HostLayout.PortLayout;
import io.rdmamon.protocol.wire.QosWire;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks every frame of an agent against {@link IngestLimits} before the collector keeps anything of it: how
 * much a hello or layout announces (devices, ports, names, GIDs, label bytes), and every string from the wire
 * (printable, bounded; a newline in an agent version forged log lines, a 3 MiB one filled a log line). A
 * refusal names the field and the limit. Runs on the connection's decode loop: the walk is linear in the frame.
 */
final class FrameLimits {
    private final IngestLimits limits;

    FrameLimits(IngestLimits limits) {
        this.limits = limits;
    }

    void check(Frame frame) throws StreamRefusal {
        if (frame instanceof Frame.Hello h) {
            name("hello.agentVersion", h.agentVersion());
            if (h.instance() != null) {
                name("hello.instance", h.instance());
            }
            if (h.capabilities().size() > WireLimits.MAX_CAPABILITIES) {
                throw limit("hello.capabilities lists " + h.capabilities().size() + " entries; at most "
                        + WireLimits.MAX_CAPABILITIES);
            }
            for (int i = 0; i < h.capabilities().size(); i++) {
                name("hello.capabilities[" + i + "]", h.capabilities().get(i));
            }
            if (h.intervalMillis() <= 0 || h.intervalMillis() > IngestLimits.MAX_INTERVAL_MILLIS) {
                throw new StreamRefusal(StreamRefusal.PROTOCOL_ERROR, StreamRefusal.BAD_FRAME, "hello.intervalMillis "
                        + h.intervalMillis() + " is outside 1.." + IngestLimits.MAX_INTERVAL_MILLIS);
            }
            layout("hello.layout", h.layout());
        } else if (frame instanceof Frame.LayoutChange l) {
            layout("layout.layout", l.layout());
        } else if (frame instanceof Frame.Values v) {
            values(v);
        } else if (frame instanceof Frame.KernelEventsReport k) {
            kernelEvents(k.events());
        } else if (frame instanceof Frame.DevlinkHealthReport h) {
            healthReporters(h.reporters());
        } else if (frame instanceof Frame.ProbeReport r) {
            if (r.error() != null) {
                text("probe-report.error", r.error(), IngestLimits.MAX_TEXT_CHARS);
            }
            if (r.latency() != null && r.latency().untimed() != null) {
                text("probe-report.latency.untimed", r.latency().untimed(), IngestLimits.MAX_TEXT_CHARS);
            }
            if (r.output().size() > IngestLimits.MAX_PROBE_OUTPUT_LINES) {
                throw limit("probe-report.output has " + r.output().size() + " lines; at most "
                        + IngestLimits.MAX_PROBE_OUTPUT_LINES);
            }
            for (int i = 0; i < r.output().size(); i++) {
                text("probe-report.output[" + i + "]", r.output().get(i), IngestLimits.MAX_PROBE_OUTPUT_LINE_CHARS);
            }
        }
    }

    /** Counts and records within their bounds (the codec's) and printable: they are shown in the API and dashboard. */
    private void kernelEvents(KernelEvents events) throws StreamRefusal {
        for (int i = 0; i < events.counts().size(); i++) {
            KernelEvents.Count c = events.counts().get(i);
            kernelEvent("kernel-events.counts[" + i + "]", c.kind(), c.severity(), c.device(), c.port());
        }
        for (int i = 0; i < events.recent().size(); i++) {
            KernelEvents.Event e = events.recent().get(i);
            String at = "kernel-events.recent[" + i + "]";
            kernelEvent(at, e.kind(), e.severity(), e.device(), e.port());
            text(at + ".text", e.text(), KernelEvents.MAX_TEXT_CHARS);
        }
    }

    /** What a count and a record share: a kind and severity, and the device and port (empty when unplaced). */
    private void kernelEvent(String at, String kind, String severity, String device, String port)
            throws StreamRefusal {
        name(at + ".kind", kind);
        name(at + ".severity", severity);
        text(at + ".device", device, limits.maxNameLength());
        text(at + ".port", port, limits.maxNameLength());
    }

    /** Names printable and within their bounds: they are labels in /metrics and text in the change log. */
    private void healthReporters(List<NicHealthReporter> reporters) throws StreamRefusal {
        for (int i = 0; i < reporters.size(); i++) {
            NicHealthReporter r = reporters.get(i);
            String at = "devlink-health.reporters[" + i + "]";
            name(at + ".reporter", r.reporter());
            text(at + ".device", r.device(), limits.maxNameLength());
            text(at + ".port", r.port(), limits.maxNameLength());
            text(at + ".handle", r.handle(), limits.maxNameLength());
        }
    }

    private void values(Frame.Values v) throws StreamRefusal {
        if (v.seq() <= 0) {
            // agents number samples from 1; the store orders by seq
            throw new StreamRefusal(StreamRefusal.PROTOCOL_ERROR, StreamRefusal.BAD_FRAME,
                    "values.seq " + v.seq() + " is not positive");
        }
        List<SourceStatus> sources = v.sources();
        if (sources.size() > IngestLimits.MAX_SOURCES) {
            throw limit("values.sources has " + sources.size() + " entries; at most " + IngestLimits.MAX_SOURCES);
        }
        for (int i = 0; i < sources.size(); i++) {
            SourceStatus s = sources.get(i);
            name("values.sources[" + i + "].source", s.source());
            name("values.sources[" + i + "].subject", s.subject());
            if (s.reason() != null) {
                text("values.sources[" + i + "]." + (s.success() ? "unsupported" : "error"), s.reason(),
                        IngestLimits.MAX_TEXT_CHARS);
            }
        }
    }

    private void layout(String path, HostLayout layout) throws StreamRefusal {
        LabelBytes labels = new LabelBytes(path);
        List<DeviceLayout> devices = layout.devices();
        count(path + ".devices", devices.size(), limits.maxDevices(), "ingest.maxDevices");
        Set<String> deviceNames = new HashSet<>();
        for (int d = 0; d < devices.size(); d++) {
            DeviceLayout device = devices.get(d);
            String at = path + ".devices[" + d + "]";
            labels.name(at + ".name", device.name());
            if (!deviceNames.add(device.name())) {
                throw duplicate(at + ".name", device.name());
            }
            labels.optName(at + ".nodeType", device.nodeType());
            labels.optName(at + ".nodeGuid", device.nodeGuid());
            labels.optName(at + ".sysImageGuid", device.sysImageGuid());
            labels.optName(at + ".fwVersion", device.fwVersion());
            labels.optName(at + ".hcaType", device.hcaType());
            labels.optName(at + ".boardId", device.boardId());
            if (device.resources() != null) {
                resources(at + ".resources", device.resources(), labels);
            }
            if (device.pci() != null) {
                pci(at + ".pci", device.pci());
            }
            count(at + ".ports", device.ports().size(), limits.maxPortsPerDevice(), "ingest.maxPortsPerDevice");
            Set<Integer> portNumbers = new HashSet<>();
            for (int p = 0; p < device.ports().size(); p++) {
                PortLayout port = device.ports().get(p);
                if (!portNumbers.add(port.port())) {
                    throw duplicate(at + ".ports[" + p + "].port", String.valueOf(port.port()));
                }
                port(at + ".ports[" + p + "]", port, labels);
            }
        }
        ncclConf(path + ".ncclConf", layout.ncclConf());
        if (layout.topology() != null) {
            topology(path + ".topology", layout.topology());
        }
    }

    /** A device's PCI function: sysfs link targets and file contents shown by the API and in diagnoses. */
    private void pci(String at, PciLayout pci) throws StreamRefusal {
        PciFunction f = pci.function();
        name(at + ".address", f.address());
        optName(at + ".physfn", f.physfn());
        optName(at + ".linkFrom", f.linkFrom());
        optName(at + ".currentLinkSpeed", f.currentLinkSpeed());
        optName(at + ".maxLinkSpeed", f.maxLinkSpeed());
        count(at + ".aer", pci.aerNames().size(), limits.maxCountersPerGroup(), "ingest.maxCountersPerGroup");
        for (int i = 0; i < pci.aerNames().size(); i++) {
            name(at + ".aer[" + i + "]", pci.aerNames().get(i));
        }
        lines(at + ".notes", f.notes());
    }

    /** A port's transceiver: its EEPROM's texts, shown by the API, in diagnoses and the change log. */
    private void module(String at, TransceiverModule m) throws StreamRefusal {
        name(at + ".standard", m.standard());
        optName(at + ".type", m.type());
        optName(at + ".vendor", m.vendor());
        optName(at + ".part", m.part());
        optName(at + ".revision", m.revision());
        optName(at + ".serial", m.serial());
        optName(at + ".date", m.date());
        lines(at + ".notes", m.notes());
    }

    private void fec(String at, FecMode fec) throws StreamRefusal {
        optName(at + ".active", fec.active());
        count(at + ".configured", fec.configured().size(), WireLimits.MAX_LINES, null);
        for (int i = 0; i < fec.configured().size(); i++) {
            name(at + ".configured[" + i + "]", fec.configured().get(i));
        }
    }

    /**
     * The GPU topology's texts (the codec bounds their number and length, {@code TopologyWire}): one printable line
     * each, as the API, {@code rdmamon topo} and the NCCL advisor show them.
     */
    private static void topology(String at, GpuTopology topology) throws StreamRefusal {
        for (int i = 0; i < topology.endpoints().size(); i++) {
            GpuTopology.Endpoint e = topology.endpoints().get(i);
            String endpointAt = at + ".endpoints[" + i + "]";
            line(endpointAt + ".name", e.name());
            line(endpointAt + ".label", e.label());
            line(endpointAt + ".address", e.address());
            if (e.cpus() != null) {
                line(endpointAt + ".cpus", e.cpus());
            }
        }
        for (int i = 0; i < topology.pairs().size(); i++) {
            GpuTopology.Pair pair = topology.pairs().get(i);
            lines(at + ".pairs[" + i + "].acsRedirect", pair.acsRedirect());
            lines(at + ".pairs[" + i + "].reasons", pair.reasons());
        }
        lines(at + ".notes", topology.notes());
    }

    /** A note: at most {@link WireLimits#MAX_LINES} printable lines of {@link WireLimits#MAX_LINE_CHARS}. */
    private static void lines(String at, List<String> lines) throws StreamRefusal {
        count(at, lines.size(), WireLimits.MAX_LINES, null);
        for (int i = 0; i < lines.size(); i++) {
            line(at + "[" + i + "]", lines.get(i));
        }
    }

    private static void line(String at, String value) throws StreamRefusal {
        bounded(at, value, WireLimits.MAX_LINE_CHARS, false);
    }

    /**
     * The QoS configuration's texts (its numbers, list sizes and ranges are checked by the codec, {@code QosWire}):
     * {@code source} and the apptrust names become labels.
     */
    private void qos(String at, QosConfig qos, LabelBytes labels) throws StreamRefusal {
        labels.name(at + ".source", qos.source());
        if (qos.trustOrder() != null) {
            for (int i = 0; i < qos.trustOrder().size(); i++) {
                labels.name(at + ".trustOrder[" + i + "]", qos.trustOrder().get(i));
            }
        }
    }

    /**
     * A device's RDMA netlink resources (their numbers and the QP and workload bounds are checked by the codec): the
     * resource types and the workloads' texts become labels, the QPs' texts are shown by the API.
     */
    private void resources(String at, RdmaResources resources, LabelBytes labels) throws StreamRefusal {
        for (String type : resources.summary().keySet()) {
            labels.name(at + ".summary key", type);
        }
        for (int i = 0; i < resources.qps().size(); i++) {
            QueuePair qp = resources.qps().get(i);
            String qpAt = at + ".qps[" + i + "]";
            name(qpAt + ".type", qp.type());
            name(qpAt + ".state", qp.state());
            if (qp.kernName() != null) {
                name(qpAt + ".kernName", qp.kernName());
            }
        }
        for (int i = 0; i < resources.workloads().size(); i++) {
            PortWorkload w = resources.workloads().get(i);
            String workloadAt = at + ".workloads[" + i + "]";
            labels.optName(workloadAt + ".namespace", w.namespace());
            labels.optName(workloadAt + ".pod", w.pod());
            labels.optName(workloadAt + ".container", w.container());
            labels.optName(workloadAt + ".comm", w.comm());
            labels.optName(workloadAt + ".reason", w.reason());
        }
    }

    /** The host's nccl.conf settings: shown by the API and the NCCL advisor, never labels. */
    private void ncclConf(String at, Map<String, String> conf) throws StreamRefusal {
        if (conf == null) {
            return;
        }
        for (Map.Entry<String, String> setting : conf.entrySet()) {
            name(at + " key", setting.getKey());
            text(at + "." + setting.getKey(), setting.getValue(), QosWire.MAX_NCCL_CONF_CHARS);
        }
    }

    private void port(String at, PortLayout port, LabelBytes labels) throws StreamRefusal {
        labels.optName(at + ".state", port.state());
        labels.optName(at + ".physState", port.physState());
        labels.optName(at + ".rate", port.rate());
        labels.optName(at + ".linkLayer", port.linkLayer());
        labels.optName(at + ".lid", port.lid());
        labels.optName(at + ".netdev", port.netdev());
        labels.names(at + ".counters", port.counterNames());
        labels.names(at + ".hwCounters", port.hwCounterNames());
        count(at + ".gids", port.gids().size(), limits.maxGidsPerPort(), "ingest.maxGidsPerPort");
        for (int g = 0; g < port.gids().size(); g++) {
            GidEntry gid = port.gids().get(g);
            String gidAt = at + ".gids[" + g + "]";
            labels.name(gidAt + ".gid", gid.gid());
            labels.optName(gidAt + ".type", gid.type());
            labels.optName(gidAt + ".netdev", gid.netdev());
            labels.optName(gidAt + ".ipv4", gid.ipv4());
        }
        EthtoolLayout ethtool = port.ethtool();
        if (ethtool != null) {
            // the raw statistics are the only ethtool names on the wire: the typed view derived from them has at
            // most 8 priorities and 8 vport RDMA statistics, and a protocol 1 layout's typed copies are bounded
            // by the codec (HostLayout.EthtoolLayout.MAX_V1_COPY_SLOTS)
            labels.name(at + ".ethtool.netdev", ethtool.netdev());
            labels.names(at + ".ethtool.raw", ethtool.rawNames());
        }
        if (port.qos() != null) {
            qos(at + ".qos", port.qos(), labels);
        }
        if (port.hwCountersSource() != null) {
            name(at + ".hwCountersSource", port.hwCountersSource());
        }
        if (port.neighbor() != null) {
            neighbor(at + ".neighbor", port.neighbor(), labels);
        }
        if (port.module() != null) {
            module(at + ".module", port.module().module());
        }
        if (port.fec() != null) {
            fec(at + ".fec", port.fec());
        }
        count(at + ".netdevCounters", port.netdevCounterNames().size(), limits.maxCountersPerGroup(),
                "ingest.maxCountersPerGroup");
        for (int i = 0; i < port.netdevCounterNames().size(); i++) {
            name(at + ".netdevCounters[" + i + "]", port.netdevCounterNames().get(i));
        }
    }

    /** The LLDP neighbour's texts: chassis id, system name and port id become labels, the rest is shown by the API. */
    private void neighbor(String at, LldpNeighbor neighbor, LabelBytes labels) throws StreamRefusal {
        labels.optName(at + ".chassisId", neighbor.chassisId());
        labels.optName(at + ".systemName", neighbor.systemName());
        labels.optName(at + ".portId", neighbor.portId());
        if (neighbor.chassisIdType() != null) {
            name(at + ".chassisIdType", neighbor.chassisIdType());
        }
        if (neighbor.portIdType() != null) {
            name(at + ".portIdType", neighbor.portIdType());
        }
        if (neighbor.portDescription() != null) {
            name(at + ".portDescription", neighbor.portDescription());
        }
    }

    /** Names of one layout, with the running total of their UTF-8 bytes against {@code ingest.maxLabelBytes}. */
    private final class LabelBytes {
        private final String layout;
        private long bytes;

        LabelBytes(String layout) {
            this.layout = layout;
        }

        void names(String at, List<String> names) throws StreamRefusal {
            count(at, names.size(), limits.maxCountersPerGroup(), "ingest.maxCountersPerGroup");
            for (int i = 0; i < names.size(); i++) {
                name(at + "[" + i + "]", names.get(i));
            }
        }

        void optName(String at, String value) throws StreamRefusal {
            if (value != null) {
                name(at, value);
            }
        }

        void name(String at, String value) throws StreamRefusal {
            FrameLimits.this.name(at, value);
            bytes += WireText.utf8Length(value);
            if (bytes > limits.maxLabelBytes()) {
                throw limit(layout + ": its names exceed " + limits.maxLabelBytes() + " bytes (ingest.maxLabelBytes)");
            }
        }
    }

    private void optName(String at, String value) throws StreamRefusal {
        if (value != null) {
            name(at, value);
        }
    }

    private void name(String at, String value) throws StreamRefusal {
        if (value.length() > limits.maxNameLength()) {
            throw new StreamRefusal(StreamRefusal.POLICY_VIOLATION, StreamRefusal.INVALID_TEXT, at + " has "
                    + value.length() + " characters; at most " + limits.maxNameLength() + " (ingest.maxNameLength)");
        }
        if (value.isEmpty()) {
            throw new StreamRefusal(StreamRefusal.PROTOCOL_ERROR, StreamRefusal.INVALID_TEXT, at + " is empty");
        }
        printable(at, value, false);
    }

    private static void text(String at, String value, int max) throws StreamRefusal {
        bounded(at, value, max, true);
    }

    /** At most {@code max} characters, all printable ({@code multiline}: tab, newline and return too). */
    private static void bounded(String at, String value, int max, boolean multiline) throws StreamRefusal {
        if (value.length() > max) {
            throw new StreamRefusal(StreamRefusal.POLICY_VIOLATION, StreamRefusal.INVALID_TEXT, at + " has "
                    + value.length() + " characters; at most " + max);
        }
        printable(at, value, multiline);
    }

    private static void printable(String at, String value, boolean multiline) throws StreamRefusal {
        int invalid = WireText.firstInvalid(value, multiline);
        if (invalid >= 0) {
            throw new StreamRefusal(StreamRefusal.PROTOCOL_ERROR, StreamRefusal.INVALID_TEXT, at + " "
                    + WireText.quote(value) + " holds the unprintable character U+"
                    + String.format("%04X", (int) value.charAt(invalid)) + " at " + invalid);
        }
    }

    /** At most {@code max} entries; {@code key} is the setting that raises it, null for a fixed bound. */
    private static void count(String at, int count, int max, String key) throws StreamRefusal {
        if (count > max) {
            throw limit(at + " lists " + count + " entries; at most " + max + (key == null ? "" : " (" + key + ")"));
        }
    }

    private static StreamRefusal limit(String reason) {
        return new StreamRefusal(StreamRefusal.POLICY_VIOLATION, StreamRefusal.LIMIT, reason);
    }

    private static StreamRefusal duplicate(String at, String value) {
        return new StreamRefusal(StreamRefusal.PROTOCOL_ERROR, StreamRefusal.BAD_FRAME,
                at + ": " + WireText.quote(value) + " appears twice");
    }
}
