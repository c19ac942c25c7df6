package io.rdmamon.protocol.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmamon.protocol.json.StrictJson;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.text.WireText;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The layout's optional QoS parts (protocol 3): a port's {@code qos} object and the host's {@code ncclConf}. Absent in
 * protocol 1 and 2 frames, and absent = not read. Decoding is hostile-input safe: every list is bounded, every
 * priority, DSCP, ToS and per-TC array is range- and length-checked, and a refusal names the field's path.
 *
 * <pre>
 * "qos": {"source": "capture", "dcbx": 13,
 *         "pfc": {"capability": 8, "enabledMask": 16, "delay": 7},
 *         "ets": {"willing": false, "capability": 8, "tcBandwidthPercent": [8], "tcTsa": [8], "priorityTc": [8]},
 *         "app": [[selector, priority, protocol], ...], "trustOrder": ["dscp", ...],
 *         "buffer": {"priorityBuffer": [8], "bufferSizeBytes": [8], "totalSizeBytes": n}, "tcMaxrateKbits": [8],
 *         "ecn": {"notificationPoint": [8 × true|false|null], "reactionPoint": [...], "cnpDscp": n, "cnpPriority": n},
 *         "trafficClass": n, "defaultRoceTos": n}
 * "ncclConf": {"NCCL_IB_TC": "106", ...}
 * </pre>
 */
public final class QosWire {
    /**
     * Most APP entries a port may list: a full DSCP map is 64 entries, PCP adds at most 16, and a few ethertype and
     * port entries on top; 256 leaves four times the real maximum and bounds a hostile layout to a few KiB per port.
     */
    public static final int MAX_APP_ENTRIES = 256;
    /** Most apptrust entries: iproute2 knows six selector names, each at most once. */
    public static final int MAX_TRUST_ENTRIES = 8;
    /** Most nccl.conf settings a layout carries (NCCL reads about a hundred variables). */
    public static final int MAX_NCCL_CONF_ENTRIES = 256;
    /** NCCL reads a key or value into a 1024-byte buffer; longer ones are not NCCL's. */
    public static final int MAX_NCCL_CONF_CHARS = 1023;
    private static final Set<String> TSA_NAMES = Set.of("strict", "cbs", "ets", "vendor", "???");
    private static final Set<Integer> SELECTORS = Set.of(1, 2, 3, 4, QosConfig.SELECTOR_DSCP, 255);

    private QosWire() {
    }

    static ObjectNode encode(QosConfig qos) {
        ObjectNode json = FrameCodec.MAPPER.createObjectNode().put("source", qos.source());
        putOpt(json, "dcbx", qos.dcbx());
        if (qos.pfc() != null) {
            json.putObject("pfc").put("capability", qos.pfc().capability()).put("enabledMask", qos.pfc().enabledMask())
                    .put("delay", qos.pfc().delay());
        }
        if (qos.ets() != null) {
            ObjectNode ets = json.putObject("ets").put("willing", qos.ets().willing())
                    .put("capability", qos.ets().capability());
            qos.ets().tcBandwidthPercent().forEach(ets.putArray("tcBandwidthPercent")::add);
            qos.ets().tcTsa().forEach(ets.putArray("tcTsa")::add);
            qos.ets().priorityTc().forEach(ets.putArray("priorityTc")::add);
        }
        ArrayNode app = json.putArray("app");
        for (QosConfig.AppEntry entry : qos.app()) {
            app.addArray().add(entry.selector()).add(entry.priority()).add(entry.protocol());
        }
        if (qos.trustOrder() != null) {
            qos.trustOrder().forEach(json.putArray("trustOrder")::add);
        }
        if (qos.buffer() != null) {
            ObjectNode buffer = json.putObject("buffer").put("totalSizeBytes", qos.buffer().totalSizeBytes());
            qos.buffer().priorityBuffer().forEach(buffer.putArray("priorityBuffer")::add);
            qos.buffer().bufferSizeBytes().forEach(buffer.putArray("bufferSizeBytes")::add);
        }
        if (qos.tcMaxrateKbits() != null) {
            qos.tcMaxrateKbits().forEach(json.putArray("tcMaxrateKbits")::add);
        }
        if (qos.ecn() != null) {
            ObjectNode ecn = json.putObject("ecn");
            byPriority(ecn.putArray("notificationPoint"), qos.ecn().notificationPoint());
            byPriority(ecn.putArray("reactionPoint"), qos.ecn().reactionPoint());
            putOpt(ecn, "cnpDscp", qos.ecn().cnpDscp());
            putOpt(ecn, "cnpPriority", qos.ecn().cnpPriority());
        }
        putOpt(json, "trafficClass", qos.trafficClass());
        putOpt(json, "defaultRoceTos", qos.defaultRoceTos());
        return json;
    }

    static ObjectNode encodeNcclConf(Map<String, String> conf) {
        ObjectNode json = FrameCodec.MAPPER.createObjectNode();
        conf.forEach(json::put);
        return json;
    }

    /** The port's {@code qos}; the caller passes it only when present. */
    static QosConfig decode(StrictJson json) throws FrameException {
        StrictJson p = json.optObject("pfc");
        QosConfig.Pfc pfc = p == null ? null : new QosConfig.Pfc(range(p, "capability", 0, 255),
                range(p, "enabledMask", 0, 255), range(p, "delay", 0, 0xffff));
        StrictJson e = json.optObject("ets");
        QosConfig.Ets ets = null;
        if (e != null) {
            List<String> tsa = e.strings("tcTsa");
            eight(e, "tcTsa", tsa.size());
            for (int tc = 0; tc < tsa.size(); tc++) {
                if (!TSA_NAMES.contains(tsa.get(tc))) {
                    throw new FrameException(e.path("tcTsa") + "[" + tc + "]: " + WireText.quote(tsa.get(tc))
                            + " is not one of " + List.of("strict", "cbs", "ets", "vendor", "???"));
                }
            }
            ets = new QosConfig.Ets(e.bool("willing"), range(e, "capability", 0, 255),
                    eightInts(e, "tcBandwidthPercent", 0, 100), tsa,
                    eightInts(e, "priorityTc", 0, QosConfig.PRIORITIES - 1));
        }
        List<String> trustOrder = json.has("trustOrder") ? json.strings("trustOrder") : null;
        if (trustOrder != null && trustOrder.size() > MAX_TRUST_ENTRIES) {
            throw new FrameException(json.path("trustOrder") + " lists " + trustOrder.size() + " entries; at most "
                    + MAX_TRUST_ENTRIES);
        }
        StrictJson b = json.optObject("buffer");
        QosConfig.Buffer buffer = b == null ? null : new QosConfig.Buffer(
                eightInts(b, "priorityBuffer", 0, QosConfig.PRIORITIES - 1), eightLongs(b, "bufferSizeBytes"),
                nonNegative(b, "totalSizeBytes"));
        StrictJson n = json.optObject("ecn");
        QosConfig.Ecn ecn = n == null ? null : new QosConfig.Ecn(byPriority(n, "notificationPoint"),
                byPriority(n, "reactionPoint"), optRange(n, "cnpDscp", 0, 63),
                optRange(n, "cnpPriority", 0, QosConfig.PRIORITIES - 1));
        return new QosConfig(json.string("source"), optRange(json, "dcbx", 0, 255), pfc, ets, app(json), trustOrder,
                buffer, json.has("tcMaxrateKbits") ? eightLongs(json, "tcMaxrateKbits") : null, ecn,
                optRange(json, "trafficClass", 0, 255), optRange(json, "defaultRoceTos", 0, 255));
    }

    /** The layout's {@code ncclConf}; the caller passes it only when present. */
    static Map<String, String> decodeNcclConf(StrictJson json) throws FrameException {
        List<String> keys = json.keys();
        if (keys.size() > MAX_NCCL_CONF_ENTRIES) {
            throw new FrameException(json.path() + " lists " + keys.size() + " settings; at most "
                    + MAX_NCCL_CONF_ENTRIES);
        }
        Map<String, String> conf = new LinkedHashMap<>();
        for (String key : keys) {
            String value = json.string(key);
            if (key.isEmpty() || key.length() > MAX_NCCL_CONF_CHARS || value.length() > MAX_NCCL_CONF_CHARS) {
                throw new FrameException(json.path() + ": setting " + WireText.quote(key)
                        + " has an empty or over-long name or value (at most " + MAX_NCCL_CONF_CHARS + " characters)");
            }
            conf.put(key, value);
        }
        return conf;
    }

    private static List<QosConfig.AppEntry> app(StrictJson json) throws FrameException {
        if (!json.has("app")) {
            return List.of();
        }
        JsonNode array = json.array("app");
        if (array.size() > MAX_APP_ENTRIES) {
            throw new FrameException(json.path("app") + " lists " + array.size() + " entries; at most "
                    + MAX_APP_ENTRIES);
        }
        List<QosConfig.AppEntry> entries = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            String at = json.path("app") + "[" + i + "]";
            JsonNode entry = array.get(i);
            if (!entry.isArray() || entry.size() != 3) {
                throw new FrameException(at + ": expected [selector, priority, protocol]");
            }
            int selector = StrictJson.intIn(entry.get(0), at + "[0]", 0, 255);
            if (!SELECTORS.contains(selector)) {
                throw new FrameException(at + "[0]: selector " + selector + " is not one of " + SELECTORS);
            }
            int maxProtocol = selector == QosConfig.SELECTOR_DSCP ? 63 : selector == 255 ? 15 : 0xffff;
            entries.add(new QosConfig.AppEntry(selector,
                    StrictJson.intIn(entry.get(1), at + "[1]", 0, QosConfig.PRIORITIES - 1),
                    StrictJson.intIn(entry.get(2), at + "[2]", 0, maxProtocol)));
        }
        return entries;
    }

    private static void byPriority(ArrayNode array, Map<Integer, Boolean> enabled) {
        for (int priority = 0; priority < QosConfig.PRIORITIES; priority++) {
            Boolean value = enabled.get(priority);
            if (value == null) {
                array.addNull();
            } else {
                array.add(value);
            }
        }
    }

    private static Map<Integer, Boolean> byPriority(StrictJson json, String key) throws FrameException {
        JsonNode array = json.array(key);
        eight(json, key, array.size());
        Map<Integer, Boolean> enabled = new LinkedHashMap<>();
        for (int priority = 0; priority < array.size(); priority++) {
            JsonNode value = array.get(priority);
            if (value.isBoolean()) {
                enabled.put(priority, value.booleanValue());
            } else if (!value.isNull()) {
                throw new FrameException(json.path(key) + "[" + priority + "]: expected true, false or null, got "
                        + StrictJson.typeOf(value));
            }
        }
        return enabled;
    }

    private static void putOpt(ObjectNode json, String key, Integer value) {
        if (value != null) {
            json.put(key, value);
        }
    }

    private static int range(StrictJson json, String key, int min, int max) throws FrameException {
        int value = json.integer(key);
        if (value < min || value > max) {
            throw new FrameException(json.path(key) + ": " + value + " is outside " + min + ".." + max);
        }
        return value;
    }

    private static Integer optRange(StrictJson json, String key, int min, int max) throws FrameException {
        return json.has(key) ? Integer.valueOf(range(json, key, min, max)) : null;
    }

    private static long nonNegative(StrictJson json, String key) throws FrameException {
        long value = json.longValue(key);
        if (value < 0) {
            throw new FrameException(json.path(key) + ": " + value + " is negative");
        }
        return value;
    }


    private static List<Integer> eightInts(StrictJson json, String key, int min, int max) throws FrameException {
        JsonNode array = json.array(key);
        eight(json, key, array.size());
        List<Integer> values = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            values.add(StrictJson.intIn(array.get(i), json.path(key) + "[" + i + "]", min, max));
        }
        return values;
    }

    private static List<Long> eightLongs(StrictJson json, String key) throws FrameException {
        JsonNode array = json.array(key);
        eight(json, key, array.size());
        List<Long> values = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            JsonNode node = array.get(i);
            if (!node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < 0) {
                throw new FrameException(json.path(key) + "[" + i + "]: expected a non-negative 64-bit integer");
            }
            values.add(node.longValue());
        }
        return values;
    }

    private static void eight(StrictJson json, String key, int size) throws FrameException {
        if (size != QosConfig.PRIORITIES) {
            throw new FrameException(json.path(key) + ": expected " + QosConfig.PRIORITIES + " entries, got " + size);
        }
    }
}
