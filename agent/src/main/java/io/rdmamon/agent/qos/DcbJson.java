package io.rdmamon.agent.qos;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmamon.protocol.json.StrictJson;
import io.rdmamon.protocol.model.QosConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The objects {@code dcb -j <obj> show dev <if>} prints (iproute2 {@code dcb/*.c}; docs/reference/qos-dcb.md §5), one
 * parser each.
 * Keys in any order, unknown keys ignored; the keys rdmamon needs are required and range-checked. Refusals are
 * {@link io.rdmamon.protocol.json.StrictJsonException}s or {@link IllegalArgumentException}s naming the key (and the
 * index in an array); the caller puts the file in front.
 */
final class DcbJson {
    /** Transmission selection names as {@code dcb ets} prints them ({@code ???} for a code it does not know). */
    static final Set<String> TSA_NAMES = Set.of("strict", "cbs", "ets", "vendor", "???");
    /** The DCBX bits {@code dcb dcbx show} prints as keys ({@code DCB_CAP_DCBX_*}). */
    private static final Map<String, Integer> DCBX_BITS = Map.of("host", 0x01, "lld_managed", 0x02, "cee", 0x04,
            "ieee", 0x08, "static", 0x10);
    /**
     * {@code dcb app}'s keys per APP selector ({@code dcb/dcb_app.c}): {@code IEEE_8021QAZ_APP_SEL_*} 1..5, and 255
     * for PCP. {@code default_prio} (ethertype 0) is an array of priorities, not of pairs, and handled apart.
     */
    private static final Map<String, Integer> APP_SELECTORS = Map.of("ethtype_prio", 1, "stream_port_prio", 2,
            "dgram_port_prio", 3, "port_prio", 4, "dscp_prio", QosConfig.SELECTOR_DSCP, "pcp_prio", 255);
    /** The order {@code dcb app} prints its keys in: the entries keep it, whatever order the file has. */
    private static final List<String> APP_KEY_ORDER = List.of("ethtype_prio", "default_prio", "dscp_prio",
            "stream_port_prio", "dgram_port_prio", "port_prio", "pcp_prio");

    private DcbJson() {
    }

    /** {@code dcb pfc}: {@code {"pfc_cap":8,"macsec_bypass":false,"delay":7,"prio_pfc":[false,…]}}. */
    static QosConfig.Pfc pfc(StrictJson json) {
        List<Boolean> enabled = booleans(json, "prio_pfc");
        int mask = 0;
        for (int priority = 0; priority < enabled.size(); priority++) {
            mask |= enabled.get(priority) ? 1 << priority : 0;
        }
        return new QosConfig.Pfc(range(json, "pfc_cap", 0, 255), mask, range(json, "delay", 0, 0xffff));
    }

    /** {@code dcb ets}: {@code willing}, {@code ets_cap}, {@code tc_bw}, {@code tc_tsa}, {@code prio_tc}. */
    static QosConfig.Ets ets(StrictJson json) {
        List<String> tsa = json.strings("tc_tsa");
        eight(json, "tc_tsa", tsa.size());
        for (int tc = 0; tc < tsa.size(); tc++) {
            if (!TSA_NAMES.contains(tsa.get(tc))) {
                throw new IllegalArgumentException("tc_tsa[" + tc + "]: \"" + tsa.get(tc) + "\" is not one of "
                        + List.of("strict", "cbs", "ets", "vendor", "???"));
            }
        }
        return new QosConfig.Ets(json.bool("willing"), range(json, "ets_cap", 0, 255), eightInts(json, "tc_bw", 0, 100),
                tsa, eightInts(json, "prio_tc", 0, QosConfig.PRIORITIES - 1));
    }

    /**
     * {@code dcb app}: each key present only when it has entries ({@code {}} = empty table); pairs are
     * {@code [protocol, priority]} (iproute2 6.1) or {@code [protocol, priority, " "]} (6.5 and later print a stray
     * third element), so only the first two are read.
     */
    static List<QosConfig.AppEntry> app(StrictJson json) {
        List<QosConfig.AppEntry> entries = new ArrayList<>();
        for (String key : APP_KEY_ORDER) {
            if (!json.has(key)) {
                continue;
            }
            JsonNode array = json.array(key);
            for (int i = 0; i < array.size(); i++) {
                String at = key + "[" + i + "]";
                if (key.equals("default_prio")) {
                    // ethertype 0 is the kernel's "default priority" entry
                    entries.add(new QosConfig.AppEntry(1, priority(array.get(i), at), 0));
                    continue;
                }
                JsonNode pair = array.get(i);
                if (!pair.isArray() || pair.size() < 2) {
                    throw new IllegalArgumentException(at + ": expected a [protocol, priority] pair, got "
                            + (pair.isArray() ? "an array of " + pair.size() : StrictJson.typeOf(pair)));
                }
                int selector = APP_SELECTORS.get(key);
                entries.add(new QosConfig.AppEntry(selector, priority(pair.get(1), at + "[1]"),
                        protocol(selector, pair.get(0), at + "[0]")));
            }
        }
        return entries;
    }

    /** {@code dcb apptrust}: {@code {"order":["pcp","dscp"]}}. */
    static List<String> trustOrder(StrictJson json) {
        return json.strings("order");
    }

    /** {@code dcb buffer}: {@code prio_buffer}, {@code buffer_size}, {@code total_size}. */
    static QosConfig.Buffer buffer(StrictJson json) {
        return new QosConfig.Buffer(eightInts(json, "prio_buffer", 0, QosConfig.PRIORITIES - 1),
                eightLongs(json, "buffer_size"), nonNegative(json, "total_size"));
    }

    /**
     * {@code dcb maxrate}: {@code tc_maxrate}, assumed in kbit/s. iproute2 up to 6.17 prints the kernel's value
     * ({@code struct ieee_maxrate}, kbit/s) unchanged; 6.18 (commit e7d4c060) prints it ×125 (bytes/s), and the JSON
     * does not say which release wrote it. Captures are taken with the distributions' iproute2 (Debian 12: 6.1), so
     * kbit/s; a capture from 6.18 or later reads 125 times too fast (README.md, "Commands").
     */
    static List<Long> maxrate(StrictJson json) {
        return eightLongs(json, "tc_maxrate");
    }

    /** {@code dcb dcbx}: one {@code true} key per set bit ({@code host}, {@code lld_managed}, {@code cee}, ...). */
    static Integer dcbx(StrictJson json) {
        int bits = 0;
        for (Map.Entry<String, Integer> bit : DCBX_BITS.entrySet()) {
            if (json.bool(bit.getKey(), false)) {
                bits |= bit.getValue();
            }
        }
        return bits;
    }

    private static int protocol(int selector, JsonNode node, String at) {
        if (selector == 255 && node.isTextual()) {
            // "3nd" = PCP 3, drop-eligible no; "3de" = PCP 3 with DEI: protocol 8 + 3 (dcb_app.c pcp_names)
            String name = node.textValue();
            if (name.matches("[0-7](nd|de)")) {
                return name.charAt(0) - '0' + (name.endsWith("de") ? 8 : 0);
            }
            throw new IllegalArgumentException(at + ": PCP \"" + name + "\" is not one of 0nd..7nd, 0de..7de");
        }
        int max = switch (selector) {
            case QosConfig.SELECTOR_DSCP -> 63;
            case 255 -> 15;
            default -> 0xffff;
        };
        return StrictJson.intIn(node, at, 0, max);
    }

    private static int priority(JsonNode node, String at) {
        return StrictJson.intIn(node, at, 0, QosConfig.PRIORITIES - 1);
    }

    private static int range(StrictJson json, String key, int min, int max) {
        int value = json.integer(key);
        if (value < min || value > max) {
            throw new IllegalArgumentException(key + ": " + value + " is outside " + min + ".." + max);
        }
        return value;
    }

    private static long nonNegative(StrictJson json, String key) {
        long value = json.longValue(key);
        if (value < 0) {
            throw new IllegalArgumentException(key + ": " + value + " is negative");
        }
        return value;
    }


    private static List<Boolean> booleans(StrictJson json, String key) {
        JsonNode array = json.array(key);
        eight(json, key, array.size());
        List<Boolean> values = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            if (!array.get(i).isBoolean()) {
                throw new IllegalArgumentException(key + "[" + i + "]: expected true or false, got "
                        + StrictJson.typeOf(array.get(i)));
            }
            values.add(array.get(i).booleanValue());
        }
        return values;
    }

    private static List<Integer> eightInts(StrictJson json, String key, int min, int max) {
        JsonNode array = json.array(key);
        eight(json, key, array.size());
        List<Integer> values = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            values.add(StrictJson.intIn(array.get(i), key + "[" + i + "]", min, max));
        }
        return values;
    }

    private static List<Long> eightLongs(StrictJson json, String key) {
        JsonNode array = json.array(key);
        eight(json, key, array.size());
        List<Long> values = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            JsonNode node = array.get(i);
            if (!node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < 0) {
                throw new IllegalArgumentException(key + "[" + i + "]: expected a non-negative integer, got "
                        + (node.isIntegralNumber() ? node.asText() : StrictJson.typeOf(node)));
            }
            values.add(node.longValue());
        }
        return values;
    }

    private static void eight(StrictJson json, String key, int size) {
        if (size != QosConfig.PRIORITIES) {
            throw new IllegalArgumentException(json.path(key) + ": expected " + QosConfig.PRIORITIES + " entries, got "
                    + size);
        }
    }
}
