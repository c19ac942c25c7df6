package io.rdmamon.protocol.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmamon.protocol.json.StrictJson;
import io.rdmamon.protocol.json.StrictJsonException;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.LldpNeighbor;
import io.rdmamon.protocol.model.PciFunction;
import io.rdmamon.protocol.model.SharedValues;
import io.rdmamon.protocol.model.FecMode;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.model.VerbsPortAttributes;
import io.rdmamon.protocol.probe.LatencyResult;
import io.rdmamon.protocol.probe.PerftestResult;
import io.rdmamon.protocol.probe.PerftestTest;
import io.rdmamon.protocol.probe.PerftestSpec;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.text.WireText;
import io.rdmamon.protocol.wire.HostLayout.DeviceLayout;
import io.rdmamon.protocol.wire.HostLayout.EthtoolLayout;
import io.rdmamon.protocol.wire.HostLayout.PortLayout;

import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * JSON encoding of {@link Frame}s. Every frame is an object with {@code "v"} (protocol version)
 * and {@code "type"} ({@code hello}, {@code layout}, {@code values}, {@code heartbeat}, {@code ack},
 * {@code probe-start}, {@code probe-cancel}, {@code probe-report}, and the optional {@code fabric}, see
 * {@link FabricWire}).
 * Counter values are written as unsigned decimal numbers (a u64 above {@code Long.MAX_VALUE}
 * appears as such on the wire, not as a negative number). Decoding is strict: oversized,
 * truncated, wrong-version, unknown-type and ill-typed frames are refused with a reason that
 * names the offending field.
 *
 * <p>Frames are written in {@link WireFormat#PROTOCOL_VERSION} and read in every version {@link WireFormat#reads}:
 * protocol 1 differs only in the layout's ethtool part (it lists the typed copies its values frames carry
 * after the raw statistics, see {@link HostLayout.EthtoolLayout#v1CopySlots()}).
 */
public final class FrameCodec {
    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);
    /** CMIS modules have at most 8 lanes per bank and 4 banks. */
    private static final int MAX_MODULE_LANES = 32;
    /** Shared with {@link ValuesFrameParser}, so that both paths parse with the same features. */
    static final ObjectMapper MAPPER = StrictJson.mapper();

    private final int maxFrameBytes;
    /** Who reads with this codec, as the refusal of another protocol version names it. */
    private final String reader;

    /** A codec refusing frames larger than {@code maxFrameBytes}. */
    public FrameCodec(int maxFrameBytes) {
        this(maxFrameBytes, "build");
    }

    /**
     * A codec refusing frames larger than {@code maxFrameBytes}; {@code reader} ({@code collector}, {@code agent})
     * is named in the refusal of a frame of another protocol version ("this collector speaks 1 to 3").
     */
    public FrameCodec(int maxFrameBytes, String reader) {
        if (maxFrameBytes <= 0) {
            throw new IllegalArgumentException("maxFrameBytes must be positive: " + maxFrameBytes);
        }
        this.maxFrameBytes = maxFrameBytes;
        this.reader = reader;
    }

    public FrameCodec() {
        this(WireFormat.DEFAULT_MAX_FRAME_BYTES);
    }

    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    /** UTF-8 JSON of {@code frame}. */
    public byte[] encode(Frame frame) {
        ObjectNode json = MAPPER.createObjectNode();
        json.put("v", WireFormat.PROTOCOL_VERSION);
        if (frame instanceof Frame.Hello h) {
            json.put("type", "hello").put("node", h.node()).put("agentVersion", h.agentVersion())
                    .put("intervalMillis", h.intervalMillis()).put("layoutId", h.layoutId());
            json.set("layout", layoutJson(h.layout()));
            if (!h.capabilities().isEmpty()) {
                h.capabilities().forEach(json.putArray("capabilities")::add);
            }
            if (h.instance() != null) {
                json.put("instance", h.instance());
            }
        } else if (frame instanceof Frame.LayoutChange l) {
            json.put("type", "layout").put("layoutId", l.layoutId());
            json.set("layout", layoutJson(l.layout()));
        } else if (frame instanceof Frame.Values v) {
            json.put("type", "values").put("layoutId", v.layoutId()).put("seq", v.seq()).put("ts", v.timestampMillis());
            ArrayNode values = json.putArray("values");
            for (long value : v.values()) {
                // unsigned on the wire: a u64 above Long.MAX_VALUE is written as its true decimal value
                if (value < 0) {
                    values.add(new BigInteger(Long.toUnsignedString(value)));
                } else {
                    values.add(value);
                }
            }
            ArrayNode absent = json.putArray("absent");
            v.absent().stream().forEach(absent::add);
            ArrayNode sources = json.putArray("sources");
            for (SourceStatus s : v.sources()) {
                ObjectNode source = sources.addObject().put("source", s.source()).put("subject", s.subject())
                        .put("success", s.success());
                if (s.error() != null) {
                    source.put("error", s.error());
                }
                if (s.unsupported() != null) {
                    source.put("unsupported", s.unsupported());
                }
            }
        } else if (frame instanceof Frame.Heartbeat hb) {
            json.put("type", "heartbeat").put("ts", hb.timestampMillis());
        } else if (frame instanceof Frame.Ack a) {
            json.put("type", "ack").put("seq", a.seq());
        } else if (frame instanceof Frame.ProbeStart p) {
            json.put("type", "probe-start").put("probeId", p.probeId()).put("role", p.role().wireName())
                    .put("serverAddress", p.serverAddress()).put("tcpPort", p.tcpPort())
                    .put("timeoutMillis", p.timeoutMillis());
            PerftestSpec spec = p.spec();
            ObjectNode specNode = json.putObject("spec").put("device", spec.device()).put("port", spec.port())
                    .put("gidIndex", spec.gidIndex()).put("sizeBytes", spec.sizeBytes())
                    .put("durationSeconds", spec.durationSeconds()).put("qps", spec.qps())
                    .put("bidirectional", spec.bidirectional());
            if (spec.test() != PerftestTest.WRITE_BW) {
                // absent means ib_write_bw: the frames of agents and collectors from before latency probes
                specNode.put("test", spec.test().wireName()).put("iterations", spec.iterations());
            }
            if (spec.qpTimeout() != null) {
                specNode.put("qpTimeout", spec.qpTimeout());
            }
            if (spec.trafficClass() != null) {
                specNode.put("trafficClass", spec.trafficClass());
            }
        } else if (frame instanceof Frame.ProbeCancel c) {
            json.put("type", "probe-cancel").put("probeId", c.probeId()).put("reason", c.reason());
        } else if (frame instanceof Frame.ProbeReport r) {
            json.put("type", "probe-report").put("probeId", r.probeId()).put("role", r.role().wireName())
                    .put("phase", r.phase().wireName()).put("tcpPort", r.tcpPort()).put("exitCode", r.exitCode())
                    .put("error", r.error());
            if (r.result() != null) {
                PerftestResult result = r.result();
                json.putObject("result").put("sizeBytes", result.sizeBytes()).put("iterations", result.iterations())
                        .put("peakBitsPerSecond", result.peakBitsPerSecond())
                        .put("averageBitsPerSecond", result.averageBitsPerSecond())
                        .put("messageRatePerSecond", result.messageRatePerSecond());
            }
            if (r.latency() != null) {
                LatencyResult latency = r.latency();
                ObjectNode node = json.putObject("latency").put("sizeBytes", latency.sizeBytes())
                        .put("iterations", latency.iterations());
                latency.rttNanos().forEach(node.putArray("rttNanos")::add);
                if (latency.untimed() != null) {
                    node.put("untimed", latency.untimed());
                }
            }
            r.output().forEach(json.putArray("output")::add);
        } else if (frame instanceof Frame.Fabric fabric) {
            FabricWire.encode(json, fabric);
        } else if (frame instanceof Frame.KernelEventsReport k) {
            KernelEventsWire.write(json.put("type", Frame.KernelEventsReport.TYPE), k.events());
        } else if (frame instanceof Frame.DevlinkHealthReport h) {
            DevlinkHealthWire.write(json.put("type", Frame.DevlinkHealthReport.TYPE), h.reporters());
        }
        try {
            return MAPPER.writeValueAsBytes(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a JSON tree", e);
        }
    }

    /**
     * The frame in {@code bytes}.
     *
     * @throws FrameException with the reason when the frame is oversized, truncated, malformed,
     *                        of another protocol version or of an unknown type
     */
    public Frame decode(byte[] bytes) throws FrameException {
        checkSize(bytes);
        // values frames are nearly all of the traffic: they take the streaming path, everything else
        // (and every values frame it does not accept as it stands) the tree path, which words the refusals
        Frame.Values values = ValuesFrameParser.parse(bytes);
        return values != null ? values : decodeTree(bytes);
    }

    /** {@link #decode} without the streaming path for values frames: the reference it must agree with. */
    Frame decodeWithTree(byte[] bytes) throws FrameException {
        checkSize(bytes);
        return decodeTree(bytes);
    }

    private void checkSize(byte[] bytes) throws FrameException {
        if (bytes.length > maxFrameBytes) {
            throw new FrameException("frame of " + bytes.length + " bytes exceeds the limit of " + maxFrameBytes + " bytes");
        }
        if (bytes.length == 0) {
            throw new FrameException("empty frame");
        }
    }

    private Frame decodeTree(byte[] bytes) throws FrameException {
        JsonNode json;
        try {
            json = MAPPER.readTree(bytes);
        } catch (JsonEOFException e) {
            throw new FrameException("truncated frame: JSON ends after " + bytes.length + " bytes");
        } catch (JsonProcessingException e) {
            throw new FrameException("malformed frame: " + firstLine(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new FrameException("malformed frame: " + firstLine(e.getMessage()));
        }
        if (json == null || !json.isObject()) {
            throw new FrameException("malformed frame: not a JSON object");
        }
        try {
            return decodeObject(StrictJson.of(json, "frame"), json);
        } catch (StrictJsonException e) {
            throw new FrameException(e.getMessage());
        }
    }

    private Frame decodeObject(StrictJson f, JsonNode json) throws FrameException {
        int version = f.integer("v");
        if (!WireFormat.reads(version)) {
            throw new FrameException("protocol version " + version + " is not supported; this " + reader + " speaks "
                    + WireFormat.readVersions());
        }
        String type = f.string("type");
        return switch (type) {
            case "hello" -> new Frame.Hello(f.string("node"), f.string("agentVersion"), f.longValue("intervalMillis"),
                    f.integer("layoutId"), layout(f.object("layout"), version),
                    // absent from agents that predate capabilities: they accept nothing beyond sampling
                    json.has("capabilities") ? f.strings("capabilities") : List.of(),
                    // absent from agents that predate instance ids: the collector cannot tell their restarts
                    f.optString("instance"));
            case "layout" -> new Frame.LayoutChange(f.integer("layoutId"), layout(f.object("layout"), version));
            case "values" -> values(f);
            case "heartbeat" -> new Frame.Heartbeat(f.longValue("ts"));
            case "ack" -> new Frame.Ack(f.longValue("seq"));
            case "probe-start", "probe-cancel", "probe-report" -> probeFrame(type, f);
            case "fabric" -> FabricWire.decode(f);
            case Frame.KernelEventsReport.TYPE -> new Frame.KernelEventsReport(KernelEventsWire.read(f));
            case Frame.DevlinkHealthReport.TYPE -> new Frame.DevlinkHealthReport(DevlinkHealthWire.read(f));
            default -> throw new FrameException("unknown frame type " + WireText.quote(type));
        };
    }

    private static String firstLine(String message) {
        String line = message == null ? "unparseable JSON" : message.lines().findFirst().orElse(message);
        return line.length() > 200 ? line.substring(0, 200) : line;
    }

    private static ObjectNode layoutJson(HostLayout layout) {
        ObjectNode json = MAPPER.createObjectNode();
        ArrayNode devices = json.putArray("devices");
        for (DeviceLayout d : layout.devices()) {
            ObjectNode device = devices.addObject().put("name", d.name()).put("nodeTypeId", d.nodeTypeId())
                    .put("nodeType", d.nodeType()).put("nodeGuid", d.nodeGuid()).put("sysImageGuid", d.sysImageGuid())
                    .put("fwVersion", d.fwVersion()).put("hcaType", d.hcaType()).put("boardId", d.boardId());
            if (d.pci() != null) {
                pciJson(device.putObject("pci"), d.pci());
            }
            if (d.resources() != null) {
                device.set("resources", ResourcesWire.encode(d.resources()));
            }
            ArrayNode ports = device.putArray("ports");
            for (PortLayout p : d.ports()) {
                ObjectNode port = ports.addObject().put("port", p.port()).put("stateId", p.stateId())
                        .put("state", p.state()).put("physStateId", p.physStateId()).put("physState", p.physState())
                        .put("rate", p.rate()).put("rateBytesPerSecond", p.rateBytesPerSecond())
                        .put("linkLayer", p.linkLayer()).put("lid", p.lid()).put("netdev", p.netdev());
                p.counterNames().forEach(port.putArray("counters")::add);
                p.hwCounterNames().forEach(port.putArray("hwCounters")::add);
                ArrayNode gids = port.putArray("gids");
                for (GidEntry g : p.gids()) {
                    gids.addObject().put("index", g.index()).put("gid", g.gid()).put("type", g.type())
                            .put("netdev", g.netdev()).put("ipv4", g.ipv4());
                }
                if (p.gidsDropped() > 0) {
                    port.put("gidsDropped", p.gidsDropped());
                }
                if (p.ethtool() != null) {
                    EthtoolLayout e = p.ethtool();
                    if (e.v1CopySlots() != 0) {
                        throw new IllegalArgumentException("the layout of " + e.netdev() + " is a protocol 1 layout "
                                + "(typed copies after its raw statistics); this codec writes protocol "
                                + WireFormat.PROTOCOL_VERSION);
                    }
                    ObjectNode ethtool = port.putObject("ethtool").put("netdev", e.netdev());
                    e.rawNames().forEach(ethtool.putArray("raw")::add);
                }
                if (!p.netdevCounterNames().isEmpty()) {
                    p.netdevCounterNames().forEach(port.putArray("netdevCounters")::add);
                }
                if (p.module() != null) {
                    moduleJson(port.putObject("module"), p.module().module());
                }
                if (p.fec() != null) {
                    ObjectNode fec = port.putObject("fec").put("active", p.fec().active());
                    p.fec().configured().forEach(fec.putArray("configured")::add);
                }
                if (p.verbs() != null) {
                    VerbsPortAttributes v = p.verbs();
                    port.putObject("verbs").put("state", v.state()).put("maxMtu", v.maxMtu())
                            .put("activeMtu", v.activeMtu()).put("gidTableLength", v.gidTableLength())
                            .put("portCapFlags", v.portCapFlags()).put("lid", v.lid()).put("smLid", v.smLid())
                            .put("activeWidth", v.activeWidth()).put("activeSpeed", v.activeSpeed())
                            .put("physState", v.physState()).put("linkLayer", v.linkLayer());
                }
                if (p.qos() != null) {
                    port.set("qos", QosWire.encode(p.qos()));
                }
                if (p.hwCountersSource() != null) {
                    port.put("hwCountersSource", p.hwCountersSource());
                }
                if (p.neighbor() != null) {
                    neighborJson(port.putObject("neighbor"), p.neighbor());
                }
            }
        }
        if (layout.ncclConf() != null) {
            json.set("ncclConf", QosWire.encodeNcclConf(layout.ncclConf()));
        }
        if (layout.topology() != null) {
            json.set("topology", TopologyWire.encode(layout.topology()));
        }
        return json;
    }

    private static void pciJson(ObjectNode json, HostLayout.PciLayout pci) {
        PciFunction f = pci.function();
        json.put("address", f.address()).put("physfn", f.physfn()).put("linkFrom", f.linkFrom())
                .put("currentLinkSpeed", f.currentLinkSpeed()).put("maxLinkSpeed", f.maxLinkSpeed())
                .put("currentLinkSpeedTransfersPerSecond", f.currentLinkSpeedTransfersPerSecond())
                .put("maxLinkSpeedTransfersPerSecond", f.maxLinkSpeedTransfersPerSecond())
                .put("currentLinkWidth", f.currentLinkWidth()).put("maxLinkWidth", f.maxLinkWidth());
        pci.aerNames().forEach(json.putArray("aer")::add);
        f.notes().forEach(json.putArray("notes")::add);
    }

    private static void moduleJson(ObjectNode json, TransceiverModule m) {
        json.put("standard", m.standard()).put("identifier", m.identifier()).put("type", m.type())
                .put("vendor", m.vendor()).put("part", m.part()).put("revision", m.revision()).put("serial", m.serial())
                .put("date", m.date()).put("lanes", m.lanes().size());
        TransceiverModule.Thresholds t = m.thresholds();
        if (t != null) {
            ObjectNode thresholds = json.putObject("thresholds");
            limitsJson(thresholds, "temperatureCelsius", t.temperatureCelsius());
            limitsJson(thresholds, "voltageVolts", t.voltageVolts());
            limitsJson(thresholds, "rxPowerWatts", t.rxPowerWatts());
            limitsJson(thresholds, "txPowerWatts", t.txPowerWatts());
            limitsJson(thresholds, "txBiasAmperes", t.txBiasAmperes());
        }
        m.notes().forEach(json.putArray("notes")::add);
    }

    private static void limitsJson(ObjectNode thresholds, String name, TransceiverModule.Limits limits) {
        if (limits != null) {
            thresholds.putArray(name).add(limits.highAlarm()).add(limits.lowAlarm()).add(limits.highWarning())
                    .add(limits.lowWarning());
        }
    }

    private static HostLayout.ModuleLayout module(StrictJson m) throws FrameException {
        int laneCount = m.integer("lanes");
        if (laneCount < 0 || laneCount > MAX_MODULE_LANES) {
            throw new FrameException(m.path() + ".lanes: " + laneCount + " is outside 0.." + MAX_MODULE_LANES);
        }
        List<TransceiverModule.Lane> lanes = new ArrayList<>(laneCount);
        for (int i = 1; i <= laneCount; i++) {
            lanes.add(new TransceiverModule.Lane(i, null, null, null));
        }
        StrictJson t = m.optObject("thresholds");
        TransceiverModule.Thresholds thresholds = t == null ? null : new TransceiverModule.Thresholds(
                limits(t, "temperatureCelsius"), limits(t, "voltageVolts"), limits(t, "rxPowerWatts"),
                limits(t, "txPowerWatts"), limits(t, "txBiasAmperes"));
        return new HostLayout.ModuleLayout(new TransceiverModule(m.string("standard"), m.integer("identifier"),
                m.optString("type"), m.optString("vendor"), m.optString("part"), m.optString("revision"),
                m.optString("serial"), m.optString("date"), null, null, lanes, thresholds,
                m.has("notes") ? m.strings("notes") : List.of()));
    }

    /** A port's LLDP neighbour: its non-null fields, e.g. {@code {"chassisId": "1c:34:da:00:00:01", ...}}. */
    private static void neighborJson(ObjectNode json, LldpNeighbor n) {
        putIfPresent(json, "chassisId", n.chassisId());
        putIfPresent(json, "chassisIdType", n.chassisIdType());
        putIfPresent(json, "systemName", n.systemName());
        putIfPresent(json, "portId", n.portId());
        putIfPresent(json, "portIdType", n.portIdType());
        putIfPresent(json, "portDescription", n.portDescription());
    }

    private static void putIfPresent(ObjectNode json, String key, String value) {
        if (value != null) {
            json.put(key, value);
        }
    }

    /** Protocol 3's optional {@code neighbor} of a port (absent = none known): every field optional text. */
    private static LldpNeighbor neighbor(StrictJson n) throws FrameException {
        return new LldpNeighbor(n.optString("chassisId"), n.optString("chassisIdType"), n.optString("systemName"),
                n.optString("portId"), n.optString("portIdType"), n.optString("portDescription"));
    }

    /** Protocol 3's optional {@code fec} of a port: {@code {"active": "RS", "configured": ["Auto", "RS"]}}. */
    private static FecMode fec(StrictJson fec) throws FrameException {
        return new FecMode(fec.optString("active"), fec.has("configured") ? fec.strings("configured") : List.of());
    }

    private static TransceiverModule.Limits limits(StrictJson thresholds, String name) throws FrameException {
        if (!thresholds.has(name)) {
            return null;
        }
        JsonNode four = thresholds.array(name);
        if (four.size() != 4 || !four.get(0).isNumber() || !four.get(1).isNumber() || !four.get(2).isNumber()
                || !four.get(3).isNumber()) {
            throw new FrameException(thresholds.path() + "." + name + ": expected 4 numbers (high alarm, low alarm, "
                    + "high warning, low warning)");
        }
        return new TransceiverModule.Limits(four.get(0).asDouble(), four.get(1).asDouble(), four.get(2).asDouble(),
                four.get(3).asDouble());
    }

    private static HostLayout.PciLayout pci(StrictJson p) throws FrameException {
        PciFunction function = new PciFunction(p.string("address"), p.optString("physfn"), p.optString("linkFrom"),
                p.optString("currentLinkSpeed"), p.optString("maxLinkSpeed"),
                p.optLong("currentLinkSpeedTransfersPerSecond"), p.optLong("maxLinkSpeedTransfersPerSecond"),
                p.optInteger("currentLinkWidth"), p.optInteger("maxLinkWidth"), null, p.strings("notes"));
        return new HostLayout.PciLayout(function, sharedNames(p, "aer"));
    }

    /**
     * A layout's list of names, shared with every equal list decoded before ({@link SharedValues}): every node of a
     * model sends the same counter names, and the collector keeps them once for the fleet rather than once per node.
     */
    private static List<String> sharedNames(StrictJson json, String field) throws FrameException {
        return SharedValues.NAME_LISTS.of(List.copyOf(json.strings(field)));
    }

    /** A port's optional {@code gidsDropped} (protocol 3; absent = 0): a non-negative count. */
    private static int gidsDropped(StrictJson port) throws FrameException {
        Integer dropped = port.optInteger("gidsDropped");
        if (dropped == null) {
            return 0;
        }
        if (dropped < 0) {
            throw new FrameException(port.path("gidsDropped") + ": " + dropped + " is negative");
        }
        return dropped;
    }

    private static HostLayout layout(StrictJson layout, int version) throws FrameException {
        List<DeviceLayout> devices = new ArrayList<>();
        for (StrictJson d : layout.objects("devices")) {
            List<PortLayout> ports = new ArrayList<>();
            for (StrictJson p : d.objects("ports")) {
                int portNumber = p.integer("port");
                List<GidEntry> gids = new ArrayList<>();
                for (StrictJson g : p.objects("gids")) {
                    gids.add(new GidEntry(g.integer("index"), g.string("gid"), g.optString("type"),
                            g.optString("netdev"), g.optString("ipv4")));
                }
                StrictJson e = p.optObject("ethtool");
                EthtoolLayout ethtool = e == null ? null
                        : new EthtoolLayout(e.string("netdev"), sharedNames(e, "raw"), version == 1 ? v1CopySlots(e) : 0);
                StrictJson v = p.optObject("verbs");
                VerbsPortAttributes verbs = v == null ? null : new VerbsPortAttributes(v.integer("state"),
                        v.integer("maxMtu"), v.integer("activeMtu"), v.integer("gidTableLength"),
                        v.longValue("portCapFlags"), v.integer("lid"), v.integer("smLid"), v.integer("activeWidth"),
                        v.integer("activeSpeed"), v.integer("physState"), v.integer("linkLayer"));
                ports.add(new PortLayout(portNumber, p.integer("stateId"), p.optString("state"),
                        p.integer("physStateId"), p.optString("physState"), p.optString("rate"),
                        p.optLong("rateBytesPerSecond"), p.optString("linkLayer"), p.optString("lid"),
                        p.optString("netdev"), sharedNames(p, "counters"), sharedNames(p, "hwCounters"), gids, ethtool, verbs,
                        // protocol 3 adds them; absent (and in older layouts) = not read
                        p.has("qos") ? QosWire.decode(p.object("qos")) : null,
                        p.has("netdevCounters") ? sharedNames(p, "netdevCounters") : List.of(),
                        p.has("module") ? module(p.object("module")) : null,
                        p.has("fec") ? fec(p.object("fec")) : null, p.optString("hwCountersSource"),
                        gidsDropped(p), p.has("neighbor") ? neighbor(p.object("neighbor")) : null));
            }
            StrictJson pci = d.optObject("pci");
            devices.add(new DeviceLayout(d.string("name"), d.integer("nodeTypeId"), d.optString("nodeType"),
                    d.optString("nodeGuid"), d.optString("sysImageGuid"), d.optString("fwVersion"),
                    d.optString("hcaType"), d.optString("boardId"), ports, pci == null ? null : pci(pci),
                    d.has("resources") ? ResourcesWire.decode(d.object("resources")) : null));
        }
        return new HostLayout(devices, layout.has("ncclConf") ? QosWire.decodeNcclConf(layout.object("ncclConf")) : null,
                layout.has("topology") ? TopologyWire.decode(layout.object("topology")) : null);
    }

    /**
     * The typed copies a protocol 1 port's values carry after its raw statistics: ten per listed priority, one per
     * listed vport RDMA statistic, one per pause storm counter present. Only their number matters (the typed view
     * is derived from the raw statistics, as the protocol 1 agent derived it), so only what counts it is checked.
     */
    private static int v1CopySlots(StrictJson e) throws FrameException {
        int priorities = e.integers("priorities").size();
        int vportRdma = e.strings("vportRdma").size();
        if (priorities > EthtoolStats.PRIORITY_COUNT || vportRdma > EthtoolStats.VPORT_RDMA_NAMES.size()) {
            throw new FrameException(e.path() + ": " + priorities + " priorities and " + vportRdma + " vport RDMA "
                    + "statistics; a protocol 1 layout lists at most " + EthtoolStats.PRIORITY_COUNT + " and "
                    + EthtoolStats.VPORT_RDMA_NAMES.size());
        }
        e.integers("pfcEnabledPriorities");
        return priorities * EthtoolLayout.V1_SLOTS_PER_PRIORITY + vportRdma + (e.bool("pauseStormWarningEvents") ? 1 : 0)
                + (e.bool("pauseStormErrorEvents") ? 1 : 0);
    }

    private static Frame.Values values(StrictJson f) throws FrameException {
        JsonNode valuesJson = f.array("values");
        long[] values = new long[valuesJson.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = unsigned64(valuesJson.get(i), f.path("values") + "[" + i + "]");
        }
        BitSet absent = new BitSet(values.length);
        for (int slot : f.integers("absent")) {
            if (slot < 0 || slot >= values.length) {
                throw new FrameException(f.path("absent") + ": slot " + slot + " outside 0.." + (values.length - 1));
            }
            absent.set(slot);
        }
        List<SourceStatus> sources = new ArrayList<>();
        for (StrictJson s : f.objects("sources")) {
            try {
                sources.add(new SourceStatus(s.string("source"), s.string("subject"), s.bool("success"),
                        s.optString("error"), s.optString("unsupported")));
            } catch (IllegalArgumentException e) {
                throw new FrameException(s.path() + ": " + e.getMessage());
            }
        }
        return new Frame.Values(f.integer("layoutId"), f.longValue("seq"), f.longValue("ts"), values, absent, sources);
    }

    private static Frame probeFrame(String type, StrictJson f) throws FrameException {
        // the records validate ids, roles, bounds and addresses; their refusal becomes the frame's reason
        try {
            return switch (type) {
                case "probe-start" -> {
                    StrictJson spec = f.object("spec");
                    yield new Frame.ProbeStart(f.string("probeId"), ProbeRole.fromWire(f.string("role")),
                            new PerftestSpec(spec.string("device"), spec.integer("port"), spec.optInteger("gidIndex"),
                                    spec.longValue("sizeBytes"), spec.integer("durationSeconds"), spec.integer("qps"),
                                    spec.bool("bidirectional"),
                                    spec.has("test") ? PerftestTest.fromWire(spec.string("test")) : PerftestTest.WRITE_BW,
                                    spec.integer("iterations", 0), spec.optInteger("qpTimeout"),
                                    spec.optInteger("trafficClass")),
                            f.optString("serverAddress"), f.integer("tcpPort"), f.longValue("timeoutMillis"));
                }
                case "probe-cancel" -> new Frame.ProbeCancel(f.string("probeId"), f.string("reason"));
                default -> {
                    StrictJson r = f.optObject("result");
                    PerftestResult result = r == null ? null : new PerftestResult(r.longValue("sizeBytes"),
                            r.longValue("iterations"), r.number("peakBitsPerSecond"), r.number("averageBitsPerSecond"),
                            r.number("messageRatePerSecond"));
                    StrictJson l = f.optObject("latency");
                    LatencyResult latency = l == null ? null
                            : new LatencyResult(l.longValue("sizeBytes"), l.integer("iterations"), l.longs("rttNanos"),
                                    l.optString("untimed"));
                    yield new Frame.ProbeReport(f.string("probeId"), ProbeRole.fromWire(f.string("role")),
                            ProbePhase.fromWire(f.string("phase")), f.integer("tcpPort"), result, latency,
                            f.optInteger("exitCode"), f.optString("error"), f.strings("output"));
                }
            };
        } catch (IllegalArgumentException e) {
            throw new FrameException(f.path() + " (" + type + "): " + e.getMessage());
        }
    }

    static long unsigned64(JsonNode node, String path) throws FrameException {
        if (node == null || !node.isIntegralNumber()) {
            throw new FrameException(path + ": expected an unsigned integer, got " + StrictJson.typeOf(node));
        }
        // Fast path: Jackson holds values up to Long.MAX_VALUE as int/long nodes; only larger u64
        // counters arrive as BigInteger. A BigInteger per value was the collector's hottest ingest frame.
        if ((node.isInt() || node.isLong()) && node.longValue() >= 0) {
            return node.longValue();
        }
        BigInteger value = node.bigIntegerValue();
        if (value.signum() < 0 || value.compareTo(TWO_TO_64) >= 0) {
            throw new FrameException(path + ": " + value + " is outside the unsigned 64-bit range");
        }
        return value.longValue();
    }
}
