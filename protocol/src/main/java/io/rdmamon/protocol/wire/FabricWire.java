package io.rdmamon.protocol.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.fabric.LinkSpeed;
import io.rdmamon.protocol.fabric.NodeType;
import io.rdmamon.protocol.json.StrictJson;
import io.rdmamon.protocol.text.WireLimits;
import io.rdmamon.protocol.text.WireText;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The optional {@code fabric} frame ({@link Frame.Fabric}): one part of a {@link FabricSweep}, versioned within
 * the frame by {@code fabricVersion} so that its shape can change without a new protocol version:
 * <pre>{@code
 * {"v": 3, "type": "fabric", "fabricVersion": 1, "part": 0, "parts": 1,
 *  "sweep": {"subnetPrefix": "0xfe80000000000000", "smLid": 1, "smGuid": "0x...", "sweeper": "node-1",
 *            "ts": 1764367084000, "durationMillis": 310, "topology": true, "success": true, "problems": [],
 *            "nodes": [{"guid": "0x0000000000200000", "type": "SWITCH", "description": "leaf1",
 *                       "ports": [{"port": 1, "lid": 2, "stateId": 4, "state": "Active", "physStateId": 5,
 *                                  "physState": "LinkUp", "width": 4, "speed": "SDR",
 *                                  "widthsSupported": [1, 4, 12], "speedsSupported": ["SDR"], "widthsEnabled": [4],
 *                                  "speedsEnabled": ["SDR"], "remoteGuid": "0x0000000000100000", "remotePort": 1,
 *                                  "counterSets": ["PortCounters"], "counters": {"SymbolErrorCounter": 0}}]}]}}
 * }</pre>
 * Absent optional fields are left out. A sweep too large for one frame is sent as {@code parts} frames of the same
 * sweep ({@link #parts}), each with a share of its nodes. Bounded: at most {@link #MAX_NODES} nodes a frame,
 * {@link #MAX_PORTS} ports a node, {@link #MAX_COUNTERS} counters a port, {@link #MAX_PROBLEMS} problems;
 * descriptions {@link FabricNode#MAX_DESCRIPTION_CHARS}, problems {@link WireLimits#MAX_TEXT_CHARS} characters.
 */
public final class FabricWire {
    /** The version of the frame's shape this build writes and the only one it reads. */
    public static final int FABRIC_VERSION = 1;
    /** Most nodes in one frame: a part of a larger sweep holds no more. */
    public static final int MAX_NODES = 2048;
    /** Most ports of a node: port numbers 0..254. */
    public static final int MAX_PORTS = FabricPort.MAX_PORT + 1;
    /** Most counters of a port (the PMA attributes read carry about 25). */
    public static final int MAX_COUNTERS = 64;
    /** Most problems a sweep lists; a sender keeps the first ones. */
    public static final int MAX_PROBLEMS = 256;
    /** Most parts of one sweep. */
    public static final int MAX_PARTS = 64;
    private static final Pattern GUID = Pattern.compile("0x[0-9a-f]{16}");
    private static final Pattern COUNTER_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9]{0,63}");

    private FabricWire() {
    }

    /** {@code sweep} as the frames that carry it, at most {@code nodesPerFrame} nodes each (at least one frame). */
    public static List<Frame.Fabric> parts(FabricSweep sweep, int nodesPerFrame) {
        if (nodesPerFrame <= 0 || nodesPerFrame > MAX_NODES) {
            throw new IllegalArgumentException("nodesPerFrame " + nodesPerFrame + " is outside 1.." + MAX_NODES);
        }
        List<FabricNode> nodes = sweep.nodes();
        int parts = Math.max(1, (nodes.size() + nodesPerFrame - 1) / nodesPerFrame);
        List<Frame.Fabric> frames = new ArrayList<>(parts);
        for (int part = 0; part < parts; part++) {
            List<FabricNode> share = nodes.subList(part * nodesPerFrame,
                    Math.min(nodes.size(), (part + 1) * nodesPerFrame));
            frames.add(new Frame.Fabric(part, parts, sweep.withNodes(share)));
        }
        return frames;
    }

    /**
     * {@code sweep} as the fewest frames of at most {@link #MAX_NODES} nodes each that {@code codec} encodes within its
     * {@link FrameCodec#maxFrameBytes()} (a 4,608-port fabric's counters are about 5 MB of JSON), halving the nodes
     * a frame until they fit.
     *
     * @throws IllegalArgumentException when even one node a frame does not fit, or the sweep needs more than
     *                                  {@link #MAX_PARTS} frames
     */
    public static List<Frame.Fabric> partsWithin(FrameCodec codec, FabricSweep sweep) {
        for (int nodes = MAX_NODES; nodes >= 1; nodes /= 2) {
            List<Frame.Fabric> parts = parts(sweep, nodes);
            if (parts.size() <= MAX_PARTS
                    && parts.stream().allMatch(p -> codec.encode(p).length <= codec.maxFrameBytes())) {
                return parts;
            }
        }
        throw new IllegalArgumentException("a sweep of " + sweep.nodes().size() + " nodes does not fit "
                + MAX_PARTS + " frames of " + codec.maxFrameBytes() + " bytes");
    }

    static void encode(ObjectNode json, Frame.Fabric frame) {
        FabricSweep s = frame.sweep();
        json.put("type", "fabric").put("fabricVersion", FABRIC_VERSION).put("part", frame.part())
                .put("parts", frame.parts());
        ObjectNode sweep = json.putObject("sweep").put("subnetPrefix", s.subnetPrefix());
        if (s.smLid() != null) {
            sweep.put("smLid", s.smLid());
        }
        if (s.smGuid() != null) {
            sweep.put("smGuid", s.smGuid());
        }
        sweep.put("sweeper", s.sweeper()).put("ts", s.timeMillis()).put("durationMillis", s.durationMillis())
                .put("topology", s.topology()).put("success", s.success());
        s.problems().forEach(sweep.putArray("problems")::add);
        ArrayNode nodes = sweep.putArray("nodes");
        for (FabricNode n : s.nodes()) {
            ObjectNode node = nodes.addObject().put("guid", n.guid()).put("type", n.type().name())
                    .put("description", n.description());
            ArrayNode ports = node.putArray("ports");
            n.ports().forEach(p -> encodePort(ports.addObject(), p));
        }
    }

    private static void encodePort(ObjectNode port, FabricPort p) {
        port.put("port", p.number());
        if (p.lid() != null) {
            port.put("lid", p.lid());
        }
        port.put("stateId", p.stateId()).put("state", p.state()).put("physStateId", p.physStateId())
                .put("physState", p.physState());
        if (p.width() != null) {
            port.put("width", p.width());
        }
        if (p.speed() != null) {
            port.put("speed", p.speed().name());
        }
        p.widthsSupported().forEach(port.putArray("widthsSupported")::add);
        p.speedsSupported().forEach(s -> port.withArray("speedsSupported").add(s.name()));
        p.widthsEnabled().forEach(port.putArray("widthsEnabled")::add);
        p.speedsEnabled().forEach(s -> port.withArray("speedsEnabled").add(s.name()));
        if (p.linked()) {
            port.put("remoteGuid", p.remoteGuid()).put("remotePort", p.remotePort());
        }
        p.counterSets().forEach(port.putArray("counterSets")::add);
        ObjectNode counters = port.putObject("counters");
        p.counters().forEach((name, value) -> {
            if (value < 0) {
                counters.put(name, new BigInteger(Long.toUnsignedString(value)));
            } else {
                counters.put(name, value);
            }
        });
    }

    static Frame.Fabric decode(StrictJson f) throws FrameException {
        int version = f.integer("fabricVersion");
        if (version != FABRIC_VERSION) {
            throw new FrameException(f.path("fabricVersion") + ": fabric frame version " + version
                    + " is not supported; this build reads " + FABRIC_VERSION);
        }
        int parts = f.integer("parts");
        int part = f.integer("part");
        if (parts < 1 || parts > MAX_PARTS || part < 0 || part >= parts) {
            throw new FrameException(f.path() + ": part " + part + " of " + parts + " is outside 0..parts-1 with parts"
                    + " in 1.." + MAX_PARTS);
        }
        StrictJson s = f.object("sweep");
        List<String> problems = s.has("problems") ? s.strings("problems") : List.of();
        if (problems.size() > MAX_PROBLEMS) {
            throw new FrameException(s.path("problems") + " lists " + problems.size() + "; at most " + MAX_PROBLEMS);
        }
        for (int i = 0; i < problems.size(); i++) {
            text(problems.get(i), s.path("problems") + "[" + i + "]", WireLimits.MAX_TEXT_CHARS, true);
        }
        List<StrictJson> nodesJson = s.objects("nodes");
        if (nodesJson.size() > MAX_NODES) {
            throw new FrameException(s.path("nodes") + " lists " + nodesJson.size() + " nodes; at most " + MAX_NODES
                    + " a frame");
        }
        List<FabricNode> nodes = new ArrayList<>(nodesJson.size());
        for (StrictJson n : nodesJson) {
            nodes.add(node(n));
        }
        String smGuid = s.optString("smGuid");
        if (smGuid != null) {
            guid(smGuid, s.path("smGuid"));
        }
        try {
            return new Frame.Fabric(part, parts, new FabricSweep(text(s.string("subnetPrefix"), s.path("subnetPrefix"),
                    WireLimits.MAX_NAME_CHARS, false), s.optInteger("smLid"), smGuid,
                    text(s.string("sweeper"), s.path("sweeper"), WireLimits.MAX_NAME_CHARS, false), s.longValue("ts"),
                    s.longValue("durationMillis"), s.bool("topology"), s.bool("success"), problems, nodes));
        } catch (IllegalArgumentException e) {
            throw new FrameException(s.path() + ": " + e.getMessage());
        }
    }

    private static FabricNode node(StrictJson n) throws FrameException {
        String guid = guid(n.string("guid"), n.path("guid"));
        NodeType type;
        try {
            type = NodeType.valueOf(n.string("type"));
        } catch (IllegalArgumentException e) {
            throw new FrameException(n.path("type") + ": expected CA, SWITCH or ROUTER, got "
                    + WireText.quote(n.string("type")));
        }
        String description = text(n.string("description"), n.path("description"), FabricNode.MAX_DESCRIPTION_CHARS,
                false);
        List<StrictJson> portsJson = n.objects("ports");
        if (portsJson.size() > MAX_PORTS) {
            throw new FrameException(n.path("ports") + " lists " + portsJson.size() + " ports; at most " + MAX_PORTS);
        }
        List<FabricPort> ports = new ArrayList<>(portsJson.size());
        for (StrictJson p : portsJson) {
            try {
                ports.add(port(p));
            } catch (IllegalArgumentException e) {
                throw new FrameException(p.path() + ": " + e.getMessage());
            }
        }
        return new FabricNode(guid, type, description, ports);
    }

    private static FabricPort port(StrictJson p) throws FrameException {
        String remoteGuid = p.optString("remoteGuid");
        if (remoteGuid != null) {
            guid(remoteGuid, p.path("remoteGuid"));
        }
        String speed = p.optString("speed");
        StrictJson c = p.object("counters");
        List<String> names = c.keys();
        if (names.size() > MAX_COUNTERS) {
            throw new FrameException(p.path("counters") + " holds " + names.size() + " counters; at most "
                    + MAX_COUNTERS);
        }
        Map<String, Long> counters = new LinkedHashMap<>();
        for (String name : names) {
            if (!COUNTER_NAME.matcher(name).matches()) {
                throw new FrameException(p.path("counters") + ": counter name " + WireText.quote(name) + " must match "
                        + COUNTER_NAME.pattern());
            }
            counters.put(name, FrameCodec.unsigned64(c.value(name), c.path(name)));
        }
        return new FabricPort(p.integer("port"), p.optInteger("lid"), p.integer("stateId"),
                text(p.string("state"), p.path("state"), WireLimits.MAX_NAME_CHARS, false), p.integer("physStateId"),
                text(p.string("physState"), p.path("physState"), WireLimits.MAX_NAME_CHARS, false),
                p.optInteger("width"), speed == null ? null : speed(speed, p.path("speed")),
                p.has("widthsSupported") ? p.integers("widthsSupported") : List.of(),
                speeds(p, "speedsSupported"), p.has("widthsEnabled") ? p.integers("widthsEnabled") : List.of(),
                speeds(p, "speedsEnabled"), remoteGuid, p.optInteger("remotePort"),
                p.has("counterSets") ? p.strings("counterSets") : List.of(), counters);
    }

    private static List<LinkSpeed> speeds(StrictJson p, String key) throws FrameException {
        if (!p.has(key)) {
            return List.of();
        }
        List<LinkSpeed> speeds = new ArrayList<>();
        List<String> names = p.strings(key);
        for (int i = 0; i < names.size(); i++) {
            speeds.add(speed(names.get(i), p.path(key) + "[" + i + "]"));
        }
        return speeds;
    }

    private static LinkSpeed speed(String name, String path) throws FrameException {
        try {
            return LinkSpeed.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new FrameException(path + ": unknown link speed " + WireText.quote(name));
        }
    }

    private static String guid(String guid, String path) throws FrameException {
        if (!GUID.matcher(guid).matches()) {
            throw new FrameException(path + ": " + WireText.quote(guid) + " is not a GUID like 0x0002c90300a1b2c3");
        }
        return guid;
    }

    private static String text(String text, String path, int maxChars, boolean multiline) throws FrameException {
        if (text.length() > maxChars) {
            throw new FrameException(path + ": " + text.length() + " characters; at most " + maxChars);
        }
        int invalid = WireText.firstInvalid(text, multiline);
        if (invalid >= 0) {
            throw new FrameException(path + ": character " + invalid + " of " + WireText.quote(text)
                    + " is not printable");
        }
        return text;
    }
}
