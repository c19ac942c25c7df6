package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.FecMode;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.LldpNeighbor;
import io.rdmamon.protocol.model.PciFunction;
import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.QueuePair;
import io.rdmamon.protocol.model.RdmaResources;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.text.HostText;
import io.rdmamon.protocol.text.WireLimits;
import io.rdmamon.protocol.text.WireText;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The agent's fit of a sample to what the collector accepts of a layout ({@link WireLimits}, the collector's
 * {@code FrameLimits}), applied before the sample is encoded so that its layout and values frames agree: every name
 * the host chose (device, counter, netdev, GID, LLDP, QP, PCI, transceiver, FEC and nccl.conf texts) is made printable
 * and cut to {@link WireLimits#MAX_NAME_CHARS}, every line of a note (PCI, transceiver, GPU topology) and every
 * topology text to {@link WireLimits#MAX_LINE_CHARS}, at most {@link WireLimits#MAX_LINES} lines a list
 * ({@link HostText}, deterministic, so a cut counter name stays the same series from sample to sample); an item no cut can fix is left out with its values: a device, port or name that duplicates an
 * earlier one once cut, a device or port past the count limits, a name past the layout's
 * {@link WireLimits#MAX_LABEL_BYTES}. Each device with something cut or left out gets a failed {@value #SOURCE}
 * status saying what; a sample past {@link WireLimits#MAX_SOURCES} statuses keeps the first ones and says so. A sample
 * that already fits is returned as it is, so clean hosts send the same bytes as before.
 */
public final class HostSampleLimits {
    /** The source of the statuses that say what was cut or left out. */
    public static final String SOURCE = "wire-limits";
    /** The subject of problems that belong to no device (nccl.conf, the source list). */
    static final String HOST = "host";

    private final Map<String, Problems> problems = new LinkedHashMap<>();
    private long labelBytes;

    private HostSampleLimits() {
    }

    /** {@code sample} within the collector's limits; {@code sample} itself when it already is. */
    public static HostSample fit(HostSample sample) {
        HostSampleLimits fit = new HostSampleLimits();
        List<IbDevice> devices = fit.devices(sample.devices());
        Map<String, String> ncclConf = fit.ncclConf(sample.ncclConf());
        GpuTopology topology = sample.topology() == null ? null : fit.topology(sample.topology());
        List<SourceStatus> statuses = fit.problems.values().stream().filter(Problems::any)
                .map(p -> SourceStatus.failed(SOURCE, p.subject, p.reason())).toList();
        if (devices == sample.devices() && ncclConf == sample.ncclConf() && topology == sample.topology()
                && statuses.isEmpty()
                && sample.sources().size() <= WireLimits.MAX_SOURCES) {
            return sample;
        }
        List<SourceStatus> sources = new ArrayList<>(sample.sources());
        sources.addAll(statuses);
        return new HostSample(sample.node(), sample.timestampMillis(), devices, boundSources(sources), ncclConf,
                topology, sample.kernel(), sample.health());
    }

    private List<IbDevice> devices(List<IbDevice> in) {
        List<IbDevice> out = new ArrayList<>(Math.min(in.size(), WireLimits.MAX_DEVICES));
        Set<String> names = new HashSet<>();
        for (IbDevice device : in) {
            String name = name(device.name());
            Problems p = problem(name);
            if (out.size() == WireLimits.MAX_DEVICES) {
                p.drop("device " + WireText.quote(name) + " is past the " + WireLimits.MAX_DEVICES
                        + " devices a node may have");
            } else if (!names.add(name)) {
                p.drop("device " + WireText.quote(device.name()) + " has the name of another once cut");
            } else if (!label(name)) {
                p.drop("device " + WireText.quote(name) + " is past the layout's label bytes");
            } else {
                if (name != device.name()) {
                    p.cut("device name", device.name());
                }
                out.add(device(device, name));
            }
        }
        return sameItems(out, in) ? in : out;
    }

    private IbDevice device(IbDevice d, String name) {
        Problems p = problem(name);
        String nodeType = label(p, "node_type", d.nodeType());
        String nodeGuid = label(p, "node_guid", d.nodeGuid());
        String sysImageGuid = label(p, "sys_image_guid", d.sysImageGuid());
        String fwVersion = label(p, "fw_ver", d.fwVersion());
        String hcaType = label(p, "hca_type", d.hcaType());
        String boardId = label(p, "board_id", d.boardId());
        RdmaResources resources = d.resources() == null ? null : resources(p, d.resources());
        List<IbPort> ports = ports(p, d.ports());
        PciFunction pci = d.pci() == null ? null : pci(p, d.pci());
        if (name == d.name() && nodeType == d.nodeType() && nodeGuid == d.nodeGuid()
                && sysImageGuid == d.sysImageGuid() && fwVersion == d.fwVersion() && hcaType == d.hcaType()
                && boardId == d.boardId() && resources == d.resources() && ports == d.ports() && pci == d.pci()) {
            return d;
        }
        return new IbDevice(name, d.nodeTypeId(), nodeType, nodeGuid, sysImageGuid, fwVersion, hcaType, boardId, ports,
                pci, resources);
    }

    /** The PCI function's texts (sysfs link targets and files): names, and its notes as lines. */
    private PciFunction pci(Problems p, PciFunction f) {
        PciFunction fitted = new PciFunction(name(p, "PCI address", f.address()), name(p, "PCI physfn", f.physfn()),
                name(p, "PCI link owner", f.linkFrom()), name(p, "PCI current link speed", f.currentLinkSpeed()),
                name(p, "PCI max link speed", f.maxLinkSpeed()), f.currentLinkSpeedTransfersPerSecond(),
                f.maxLinkSpeedTransfersPerSecond(), f.currentLinkWidth(), f.maxLinkWidth(), f.aerErrors(),
                lines(p, "PCI note", f.notes()));
        return fitted.equals(f) ? f : fitted;
    }

    /** The transceiver's texts (its EEPROM's vendor, part, revision, serial and date): names, its notes as lines. */
    private TransceiverModule module(Problems p, String at, TransceiverModule m) {
        TransceiverModule fitted = new TransceiverModule(name(p, at + "module standard", m.standard()),
                m.identifier(), name(p, at + "module type", m.type()), name(p, at + "module vendor", m.vendor()),
                name(p, at + "module part", m.part()), name(p, at + "module revision", m.revision()),
                name(p, at + "module serial", m.serial()), name(p, at + "module date", m.date()),
                m.temperatureCelsius(), m.voltageVolts(), m.lanes(), m.thresholds(),
                lines(p, at + "module note", m.notes()));
        return fitted.equals(m) ? m : fitted;
    }

    private FecMode fec(Problems p, String at, FecMode fec) {
        FecMode fitted = new FecMode(name(p, at + "FEC mode", fec.active()),
                lines(p, at + "FEC mode", fec.configured()).stream().map(HostSampleLimits::name).toList());
        return fitted.equals(fec) ? fec : fitted;
    }

    /**
     * The GPU topology's texts (endpoint names, labels, addresses and CPU lists, pairs' names, reasons and bridges,
     * notes: sysfs contents such as a {@code numa_node} of 2,000 characters) as lines of
     * {@link WireLimits#MAX_LINE_CHARS}; the same cut of an endpoint's name names it in its pairs.
     */
    private GpuTopology topology(GpuTopology t) {
        Problems p = problem(HOST);
        List<GpuTopology.Endpoint> endpoints = t.endpoints().stream().map(e -> new GpuTopology.Endpoint(
                topologyText(p, "topology endpoint name", e.name()),
                topologyText(p, "topology endpoint label", e.label()),
                e.kind(), topologyText(p, "topology endpoint address", e.address()), e.numaNode(),
                topologyText(p, "topology endpoint CPUs", e.cpus()), e.relaxedOrdering())).toList();
        List<GpuTopology.Pair> pairs = t.pairs().stream().map(pair -> new GpuTopology.Pair(
                topologyText(p, "topology GPU", pair.gpu()), topologyText(p, "topology NIC", pair.nic()), pair.path(),
                pair.verdict(), pair.chosen(), lines(p, "topology bridge", pair.acsRedirect()),
                lines(p, "topology reason", pair.reasons()))).toList();
        GpuTopology fitted = new GpuTopology(endpoints, t.matrix(), pairs, t.peermem(),
                lines(p, "topology note", t.notes()));
        return fitted.equals(t) ? t : fitted;
    }

    /** A topology's text: one line, never empty (the collector refuses an empty name, label or address). */
    private String topologyText(Problems p, String what, String value) {
        String fitted = HostText.name(value, WireLimits.MAX_LINE_CHARS);
        if (fitted != null && !fitted.equals(value)) {
            p.cut(what, value);
        }
        return fitted;
    }

    /** Lines of a note: the first {@link WireLimits#MAX_LINES}, each one printable line of at most 1,023 characters. */
    private List<String> lines(Problems p, String what, List<String> in) {
        List<String> out = new ArrayList<>(Math.min(in.size(), WireLimits.MAX_LINES));
        for (String line : in) {
            if (out.size() == WireLimits.MAX_LINES) {
                p.drop((in.size() - out.size()) + " of " + what + "s past the " + WireLimits.MAX_LINES + " lines a list"
                        + " may have");
                break;
            }
            String fitted = HostText.line(line, WireLimits.MAX_LINE_CHARS);
            if (!fitted.equals(line)) {
                p.cut(what, line);
            }
            out.add(fitted);
        }
        return out.equals(in) ? in : out;
    }

    private RdmaResources resources(Problems p, RdmaResources r) {
        Map<String, Long> summary = names(p, "resource type", r.summary());
        List<QueuePair> qps = r.qps().stream().map(qp -> new QueuePair(qp.lqpn(), qp.rqpn(), qp.port(),
                name(p, "qp type", qp.type()), name(p, "qp state", qp.state()), qp.pid(),
                name(p, "qp kern_name", qp.kernName()))).toList();
        List<PortWorkload> workloads = r.workloads().stream().map(HostTextFrames::workload)
                .map(w -> new PortWorkload(w.port(), label(p, "workload namespace", w.namespace()),
                        label(p, "workload pod", w.pod()), label(p, "workload container", w.container()),
                        label(p, "workload comm", w.comm()), w.attribution(), label(p, "workload reason", w.reason()),
                        w.qps())).toList();
        return summary == r.summary() && qps.equals(r.qps()) && workloads.equals(r.workloads()) ? r
                : new RdmaResources(summary, qps, r.qpsDropped(), workloads);
    }

    private List<IbPort> ports(Problems p, List<IbPort> in) {
        List<IbPort> out = new ArrayList<>(Math.min(in.size(), WireLimits.MAX_PORTS_PER_DEVICE));
        Set<Integer> numbers = new HashSet<>();
        for (IbPort port : in) {
            if (out.size() == WireLimits.MAX_PORTS_PER_DEVICE) {
                p.drop("port " + port.port() + " is past the " + WireLimits.MAX_PORTS_PER_DEVICE
                        + " ports a device may have");
            } else if (!numbers.add(port.port())) {
                p.drop("port " + port.port() + " appears twice");
            } else {
                out.add(port(p, port));
            }
        }
        return sameItems(out, in) ? in : out;
    }

    /** {@code port} fitted; itself when every part already fits (the common case, which costs no copy). */
    private IbPort port(Problems p, IbPort port) {
        String at = "port " + port.port() + " ";
        String state = label(p, at + "state", port.state());
        String physState = label(p, at + "phys_state", port.physState());
        String rate = label(p, at + "rate", port.rate());
        String linkLayer = label(p, at + "link_layer", port.linkLayer());
        String lid = label(p, at + "lid", port.lid());
        String netdev = label(p, at + "netdev", port.netdev());
        Map<String, Long> counters = names(p, at + "counter", port.counters());
        Map<String, Long> hwCounters = names(p, at + "hw_counter", port.hwCounters());
        List<GidEntry> gids = gids(p, at, port.gids());
        EthtoolStats ethtool = port.ethtool() == null ? null : ethtool(p, at, port.ethtool());
        QosConfig qos = port.qos() == null ? null : qos(p, at, port.qos());
        String hwCountersSource = name(p, at + "hw counters source", port.hwCountersSource());
        LldpNeighbor neighbor = port.neighbor() == null ? null : neighbor(p, at, port.neighbor());
        TransceiverModule module = port.module() == null ? null : module(p, at, port.module());
        FecMode fec = port.fec() == null ? null : fec(p, at, port.fec());
        if (state == port.state() && physState == port.physState() && rate == port.rate()
                && linkLayer == port.linkLayer() && lid == port.lid() && netdev == port.netdev()
                && counters == port.counters() && hwCounters == port.hwCounters() && gids == port.gids()
                && ethtool == port.ethtool() && qos == port.qos() && hwCountersSource == port.hwCountersSource()
                && neighbor == port.neighbor() && module == port.module() && fec == port.fec()) {
            return port;
        }
        return port.toBuilder().state(state).physState(physState).rate(rate).linkLayer(linkLayer).lid(lid)
                .netdev(netdev).counters(counters).hwCounters(hwCounters).gids(gids).ethtool(ethtool).qos(qos)
                .hwCountersSource(hwCountersSource).neighbor(neighbor).module(module).fec(fec).build();
    }

    /** The statistics with their names fitted; null (left out) when their netdev is past the label bytes. */
    private EthtoolStats ethtool(Problems p, String at, EthtoolStats stats) {
        String netdev = name(stats.netdev());
        if (!label(netdev)) {
            p.drop(at + "ethtool statistics of " + WireText.quote(netdev) + " are past the layout's label bytes");
            return null;
        }
        if (netdev != stats.netdev()) {
            p.cut(at + "ethtool netdev", stats.netdev());
        }
        Map<String, Long> raw = names(p, at + "ethtool statistic", stats.raw());
        return netdev == stats.netdev() && raw == stats.raw() ? stats : EthtoolStats.of(netdev, raw);
    }

    private LldpNeighbor neighbor(Problems p, String at, LldpNeighbor n) {
        LldpNeighbor fitted = new LldpNeighbor(label(p, at + "lldp chassis id", n.chassisId()),
                name(p, at + "lldp chassis id type", n.chassisIdType()),
                label(p, at + "lldp system name", n.systemName()), label(p, at + "lldp port id", n.portId()),
                name(p, at + "lldp port id type", n.portIdType()),
                name(p, at + "lldp port description", n.portDescription()));
        return fitted.equals(n) ? n : fitted;
    }

    private List<GidEntry> gids(Problems p, String at, List<GidEntry> in) {
        List<GidEntry> out = new ArrayList<>(Math.min(in.size(), WireLimits.MAX_GIDS_PER_PORT));
        for (GidEntry g : in) {
            String gid = name(g.gid());
            if (out.size() == WireLimits.MAX_GIDS_PER_PORT || !label(gid)) {
                p.drop(at + "GID " + g.index() + " is past the port's " + WireLimits.MAX_GIDS_PER_PORT
                        + " entries or the layout's label bytes");
                continue;
            }
            if (gid != g.gid()) {
                p.cut(at + "GID " + g.index(), g.gid());
            }
            String type = label(p, at + "GID type", g.type());
            String netdev = label(p, at + "GID netdev", g.netdev());
            String ipv4 = label(p, at + "GID ipv4", g.ipv4());
            out.add(gid == g.gid() && type == g.type() && netdev == g.netdev() && ipv4 == g.ipv4() ? g
                    : new GidEntry(g.index(), gid, type, netdev, ipv4));
        }
        return sameItems(out, in) ? in : out;
    }

    private QosConfig qos(Problems p, String at, QosConfig q) {
        String source = name(q.source());
        if (!label(source)) {
            p.drop(at + "QoS configuration is past the layout's label bytes");
            return null;
        }
        if (!source.equals(q.source())) {
            p.cut(at + "QoS source", q.source());
        }
        List<String> trustOrder = q.trustOrder() == null ? null
                : q.trustOrder().stream().map(t -> label(p, at + "QoS trust", t)).filter(Objects::nonNull).toList();
        return source == q.source() && Objects.equals(trustOrder, q.trustOrder()) ? q
                : new QosConfig(source, q.dcbx(), q.pfc(), q.ets(), q.app(), trustOrder, q.buffer(),
                q.tcMaxrateKbits(), q.ecn(), q.trafficClass(), q.defaultRoceTos());
    }

    /** nccl.conf settings: names for keys, texts for values; not labels, so outside the label bytes. */
    private Map<String, String> ncclConf(Map<String, String> conf) {
        if (conf == null) {
            return null;
        }
        Problems p = problem(HOST);
        Map<String, String> out = new LinkedHashMap<>();
        conf.forEach((key, value) -> {
            String fittedKey = name(key);
            String fittedValue = HostText.text(value, QosWire.MAX_NCCL_CONF_CHARS);
            if (out.containsKey(fittedKey)) {
                p.drop("nccl.conf setting " + WireText.quote(key) + " has the name of another once cut");
                return;
            }
            if (!fittedKey.equals(key)) {
                p.cut("nccl.conf name", key);
            }
            if (!fittedValue.equals(value)) {
                p.cut("nccl.conf value of " + fittedKey, value);
            }
            out.put(fittedKey, fittedValue);
        });
        return out.equals(conf) ? conf : out;
    }

    /**
     * A group of names with their values (counters, statistics, resource types): each name fitted, at most
     * {@link WireLimits#MAX_COUNTERS_PER_GROUP}, one of each name once cut, within the label bytes.
     */
    private Map<String, Long> names(Problems p, String what, Map<String, Long> in) {
        long before = labelBytes;
        if (in.size() <= WireLimits.MAX_COUNTERS_PER_GROUP
                && in.keySet().stream().allMatch(n -> name(n) == n && label(n))) {
            return in; // the common case: no copy
        }
        labelBytes = before;
        Map<String, Long> out = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : in.entrySet()) {
            String name = name(e.getKey());
            if (out.size() == WireLimits.MAX_COUNTERS_PER_GROUP) {
                p.drop(what + " " + WireText.quote(name) + " is past the " + WireLimits.MAX_COUNTERS_PER_GROUP
                        + " names a group may have");
            } else if (out.containsKey(name)) {
                p.drop(what + " " + WireText.quote(e.getKey()) + " has the name of another once cut");
            } else if (!label(name)) {
                p.drop(what + " " + WireText.quote(name) + " is past the layout's label bytes");
            } else {
                if (!name.equals(e.getKey())) {
                    p.cut(what, e.getKey());
                }
                out.put(name, e.getValue());
            }
        }
        return out;
    }

    /** An optional label: fitted, or null (left out) when past the label bytes. */
    private String label(Problems p, String what, String value) {
        String fitted = name(p, what, value);
        if (fitted == null || label(fitted)) {
            return fitted;
        }
        p.drop(what + " " + WireText.quote(fitted) + " is past the layout's label bytes");
        return null;
    }

    /** An optional name that is no label: fitted, the cut said. */
    private String name(Problems p, String what, String value) {
        String fitted = name(value);
        if (fitted != null && !fitted.equals(value)) {
            p.cut(what, value);
        }
        return fitted;
    }

    /** Whether {@code name} still fits the layout's label bytes, counting it when it does. */
    private boolean label(String name) {
        long bytes = WireText.utf8Length(name);
        if (labelBytes + bytes > WireLimits.MAX_LABEL_BYTES) {
            return false;
        }
        labelBytes += bytes;
        return true;
    }

    private static String name(String value) {
        return HostText.name(value, WireLimits.MAX_NAME_CHARS);
    }

    /** At most {@link WireLimits#MAX_SOURCES} statuses: the first ones, the last place saying how many were left. */
    private static List<SourceStatus> boundSources(List<SourceStatus> sources) {
        if (sources.size() <= WireLimits.MAX_SOURCES) {
            return sources;
        }
        List<SourceStatus> out = new ArrayList<>(sources.subList(0, WireLimits.MAX_SOURCES - 1));
        out.add(SourceStatus.failed(SOURCE, HOST, (sources.size() - out.size()) + " source statuses left out: a sample"
                + " carries at most " + WireLimits.MAX_SOURCES));
        return out;
    }

    /** Whether {@code out} holds the very items of {@code in}: nothing was fitted, nothing left out. */
    private static <T> boolean sameItems(List<T> out, List<T> in) {
        if (out.size() != in.size()) {
            return false;
        }
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i) != in.get(i)) {
                return false;
            }
        }
        return true;
    }

    private Problems problem(String subject) {
        return problems.computeIfAbsent(subject, Problems::new);
    }

    /** What was cut and left out of one subject: counts and the first of each, quoted; a status when any. */
    private static final class Problems {
        private final String subject;
        private int cut;
        private String firstCut;
        private int dropped;
        private String firstDropped;

        Problems(String subject) {
            this.subject = subject;
        }

        void cut(String what, String original) {
            if (cut++ == 0) {
                firstCut = what + " " + WireText.quote(original);
            }
        }

        boolean any() {
            return cut + dropped > 0;
        }

        void drop(String why) {
            if (dropped++ == 0) {
                firstDropped = why;
            }
        }

        String reason() {
            StringBuilder reason = new StringBuilder();
            if (cut > 0) {
                reason.append(cut).append(cut == 1 ? " name" : " names").append(" escaped or cut to ")
                        .append(WireLimits.MAX_NAME_CHARS).append(" characters (first: ").append(firstCut).append(')');
            }
            if (dropped > 0) {
                reason.append(cut > 0 ? "; " : "").append(dropped).append(dropped == 1 ? " item" : " items")
                        .append(" left out (first: ").append(firstDropped).append(')');
            }
            return reason.toString();
        }
    }
}
