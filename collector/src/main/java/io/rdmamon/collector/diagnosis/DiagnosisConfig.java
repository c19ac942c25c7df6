package io.rdmamon.collector.diagnosis;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.ConfigException;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Thresholds and windows of the diagnosis engine: the {@code "diagnosis"} section of the collector's config
 * file (docs/diagnosis.md lists every key with its default and meaning).
 *
 * @param raiseAfterSamples          a condition must hold on this many consecutive samples to raise
 * @param clearAfterSamples          an active diagnosis clears after this many consecutive samples without it
 * @param windows                    per-rule overrides of the two above
 * @param minRdmaBytesPerSecond      RDMA traffic (either direction) below this is too little to judge priorities on
 * @param minLosslessShare           roce_traffic_outside_lossless_priority: share of RDMA bytes on lossless priorities below this
 * @param pauseStormRatio            pfc_pause_storm: fraction of time a priority is paused (pause duration per second)
 * @param ecnMinPauseFramesPerSecond ecn_not_engaged: received PFC pause frames per second that count as sustained pausing
 * @param cnpIgnoredPerSecond        cnp_ignored: rp_cnp_ignored per second above this
 * @param transportErrorsPerSecond   transport_loss: out_of_sequence + packet_seq_err + local_ack_timeout_err per second above this
 * @param erdmaDropsPerSecond        erdma_rate_limited: bps + pps limit drops per second above this
 * @param flapWindow                 link_degraded: a link_downed / link_error_recovery increase keeps the condition for this long
 * @param minPortsForModalRate       link_degraded: active ports of an HCA type needed before their most common rate is "expected"
 * @param expectedRateGbps           link_degraded: expected rate per hca_type, Gb/s (instead of the fleet's most common rate)
 * @param losslessPriorities         the lossless priorities of every RoCE port; empty = learned per port from its PFC counters
 * @param expectedGidIndex           gid_no_rocev2: the GID index applications use (NCCL_IB_GID_INDEX), which must be RoCE v2; null = any
 */
public record DiagnosisConfig(
        int raiseAfterSamples,
        int clearAfterSamples,
        Map<Rule, Window> windows,
        double minRdmaBytesPerSecond,
        double minLosslessShare,
        double pauseStormRatio,
        double ecnMinPauseFramesPerSecond,
        double cnpIgnoredPerSecond,
        double transportErrorsPerSecond,
        double erdmaDropsPerSecond,
        Duration flapWindow,
        int minPortsForModalRate,
        Map<String, Double> expectedRateGbps,
        SortedSet<Integer> losslessPriorities,
        Integer expectedGidIndex) {

    /** Consecutive samples to raise and to clear one rule. */
    public record Window(int raiseAfterSamples, int clearAfterSamples) {
        public Window {
            if (raiseAfterSamples < 1 || clearAfterSamples < 1) {
                throw new ConfigException("raiseAfterSamples and clearAfterSamples must be >= 1, got "
                        + raiseAfterSamples + " and " + clearAfterSamples);
            }
        }
    }

    private static final Set<String> KEYS = Set.of("raiseAfterSamples", "clearAfterSamples", "rules",
            "minRdmaBytesPerSecond", "minLosslessShare", "pauseStormRatio", "ecnMinPauseFramesPerSecond",
            "cnpIgnoredPerSecond", "transportErrorsPerSecond", "erdmaDropsPerSecond", "flapWindow",
            "minPortsForModalRate", "expectedRateGbps", "losslessPriorities", "expectedGidIndex");

    public DiagnosisConfig {
        new Window(raiseAfterSamples, clearAfterSamples); // validates
        windows = Collections.unmodifiableMap(windows.isEmpty() ? new EnumMap<>(Rule.class) : new EnumMap<>(windows));
        requireShare("minLosslessShare", minLosslessShare);
        requireShare("pauseStormRatio", pauseStormRatio);
        for (var threshold : Map.of("minRdmaBytesPerSecond", minRdmaBytesPerSecond,
                "ecnMinPauseFramesPerSecond", ecnMinPauseFramesPerSecond, "cnpIgnoredPerSecond", cnpIgnoredPerSecond,
                "transportErrorsPerSecond", transportErrorsPerSecond, "erdmaDropsPerSecond", erdmaDropsPerSecond).entrySet()) {
            if (!(threshold.getValue() >= 0) || Double.isInfinite(threshold.getValue())) {
                throw new ConfigException(threshold.getKey() + " must be a finite number >= 0, got " + threshold.getValue());
            }
        }
        if (flapWindow.isNegative() || flapWindow.isZero()) {
            throw new ConfigException("flapWindow must be positive: " + flapWindow);
        }
        if (minPortsForModalRate < 1) {
            throw new ConfigException("minPortsForModalRate must be >= 1, got " + minPortsForModalRate);
        }
        expectedRateGbps.forEach((type, gbps) -> {
            if (!(gbps > 0)) {
                throw new ConfigException("expectedRateGbps." + type + " must be a positive number of Gb/s, got " + gbps);
            }
        });
        expectedRateGbps = Collections.unmodifiableMap(new LinkedHashMap<>(expectedRateGbps));
        for (int priority : losslessPriorities) {
            if (priority < 0 || priority > 7) {
                throw new ConfigException("losslessPriorities: priority " + priority + " is not 0..7");
            }
        }
        losslessPriorities = Collections.unmodifiableSortedSet(new TreeSet<>(losslessPriorities));
        if (expectedGidIndex != null && expectedGidIndex < 0) {
            throw new ConfigException("expectedGidIndex must be >= 0, got " + expectedGidIndex);
        }
    }

    /**
     * Raise after 3 samples, clear after 10 (3 s and 10 s at the agent's default 1 s interval); link_down
     * raises on the first sample that reads a port not ACTIVE (a state is read, not estimated from a rate, and
     * a link that is down for one second of every five must still show). Thresholds as in the alert rules.
     */
    public static DiagnosisConfig defaults() {
        return new DiagnosisConfig(3, 10, Map.of(Rule.LINK_DOWN, new Window(1, 10)), 10_000_000, 0.8, 0.5, 10, 0, 1, 0,
                Duration.ofMinutes(2), 3, Map.of(), new TreeSet<>(), null);
    }

    /** Samples to raise and clear {@code rule}. */
    public Window window(Rule rule) {
        Window window = windows.get(rule);
        return window != null ? window : new Window(raiseAfterSamples, clearAfterSamples);
    }

    /**
     * Defaults overlaid by the {@code "diagnosis"} object of a config file.
     *
     * @param where prefix for errors, e.g. {@code /etc/rdmamon/collector.json: diagnosis}
     * @throws ConfigException naming the key at fault
     */
    public static DiagnosisConfig fromJson(JsonNode json, String where) {
        DiagnosisConfig d = defaults();
        if (json == null || !json.isObject()) {
            throw new ConfigException(where + " must be a JSON object");
        }
        for (Iterator<String> keys = json.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!KEYS.contains(key)) {
                throw new ConfigException(where + ": unknown key '" + key + "' (known: " + new TreeSet<>(KEYS) + ")");
            }
        }
        int raise = json.has("raiseAfterSamples") ? integer(json, "raiseAfterSamples", where) : d.raiseAfterSamples;
        int clear = json.has("clearAfterSamples") ? integer(json, "clearAfterSamples", where) : d.clearAfterSamples;
        Map<Rule, Window> windows = new EnumMap<>(d.windows);
        if (json.has("rules")) {
            windows.putAll(windows(json.get("rules"), where + ".rules", raise, clear, windows));
        }
        double minRdma = number(json, "minRdmaBytesPerSecond", where, d.minRdmaBytesPerSecond);
        double minShare = number(json, "minLosslessShare", where, d.minLosslessShare);
        double stormRatio = number(json, "pauseStormRatio", where, d.pauseStormRatio);
        double ecnPauses = number(json, "ecnMinPauseFramesPerSecond", where, d.ecnMinPauseFramesPerSecond);
        double cnpIgnored = number(json, "cnpIgnoredPerSecond", where, d.cnpIgnoredPerSecond);
        double transport = number(json, "transportErrorsPerSecond", where, d.transportErrorsPerSecond);
        double erdmaDrops = number(json, "erdmaDropsPerSecond", where, d.erdmaDropsPerSecond);
        Duration flaps = json.has("flapWindow") ? duration(json, "flapWindow", where) : d.flapWindow;
        int modalPorts = json.has("minPortsForModalRate") ? integer(json, "minPortsForModalRate", where)
                : d.minPortsForModalRate;
        Map<String, Double> rates = json.has("expectedRateGbps")
                ? rates(json.get("expectedRateGbps"), where + ".expectedRateGbps") : d.expectedRateGbps;
        SortedSet<Integer> lossless = json.has("losslessPriorities")
                ? priorities(json.get("losslessPriorities"), where + ".losslessPriorities") : d.losslessPriorities;
        Integer gidIndex = json.has("expectedGidIndex") && !json.get("expectedGidIndex").isNull()
                ? Integer.valueOf(integer(json, "expectedGidIndex", where)) : d.expectedGidIndex;
        try {
            // the constructor checks ranges; its message names the key, this adds where it came from
            return new DiagnosisConfig(raise, clear, windows, minRdma, minShare, stormRatio, ecnPauses, cnpIgnored,
                    transport, erdmaDrops, flaps, modalPorts, rates, lossless, gidIndex);
        } catch (ConfigException e) {
            throw new ConfigException(where + "." + e.getMessage());
        }
    }

    private static Map<Rule, Window> windows(JsonNode rules, String where, int raise, int clear, Map<Rule, Window> base) {
        if (!rules.isObject()) {
            throw new ConfigException(where + " must be an object of rule id → {raiseAfterSamples, clearAfterSamples}");
        }
        Map<Rule, Window> result = new EnumMap<>(Rule.class);
        for (Iterator<Map.Entry<String, JsonNode>> it = rules.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            Rule rule;
            try {
                rule = Rule.fromId(entry.getKey());
            } catch (IllegalArgumentException e) {
                throw new ConfigException(where + ": " + e.getMessage());
            }
            JsonNode body = entry.getValue();
            String at = where + "." + entry.getKey();
            if (!body.isObject()) {
                throw new ConfigException(at + " must be an object {raiseAfterSamples, clearAfterSamples}");
            }
            for (Iterator<String> keys = body.fieldNames(); keys.hasNext(); ) {
                String key = keys.next();
                if (!key.equals("raiseAfterSamples") && !key.equals("clearAfterSamples")) {
                    throw new ConfigException(at + ": unknown key '" + key + "' (known: raiseAfterSamples, clearAfterSamples)");
                }
            }
            Window fallback = base.getOrDefault(rule, new Window(raise, clear));
            int raiseAfter = body.has("raiseAfterSamples") ? integer(body, "raiseAfterSamples", at) : fallback.raiseAfterSamples();
            int clearAfter = body.has("clearAfterSamples") ? integer(body, "clearAfterSamples", at) : fallback.clearAfterSamples();
            try {
                result.put(rule, new Window(raiseAfter, clearAfter));
            } catch (ConfigException e) {
                throw new ConfigException(at + ": " + e.getMessage());
            }
        }
        return result;
    }

    private static Map<String, Double> rates(JsonNode json, String where) {
        if (!json.isObject()) {
            throw new ConfigException(where + " must be an object of hca_type → Gb/s, e.g. {\"MT4123\": 200}");
        }
        Map<String, Double> result = new LinkedHashMap<>();
        json.fields().forEachRemaining(e -> {
            if (!e.getValue().isNumber()) {
                throw new ConfigException(where + "." + e.getKey() + " must be a number of Gb/s");
            }
            result.put(e.getKey(), e.getValue().doubleValue());
        });
        return result;
    }

    private static SortedSet<Integer> priorities(JsonNode json, String where) {
        if (!json.isArray()) {
            throw new ConfigException(where + " must be an array of priorities 0..7, e.g. [3]");
        }
        SortedSet<Integer> result = new TreeSet<>();
        for (JsonNode element : json) {
            if (!element.isInt() || element.intValue() < 0 || element.intValue() > 7) {
                throw new ConfigException(where + ": '" + element + "' is not a priority 0..7");
            }
            result.add(element.intValue());
        }
        return result;
    }

    private static int integer(JsonNode json, String key, String where) {
        JsonNode node = json.get(key);
        if (!node.isInt()) {
            throw new ConfigException(where + "." + key + " must be an integer");
        }
        return node.intValue();
    }

    private static double number(JsonNode json, String key, String where, double fallback) {
        JsonNode node = json.get(key);
        if (node == null) {
            return fallback;
        }
        if (!node.isNumber()) {
            throw new ConfigException(where + "." + key + " must be a number");
        }
        return node.doubleValue();
    }

    private static Duration duration(JsonNode json, String key, String where) {
        JsonNode node = json.get(key);
        if (!node.isTextual()) {
            throw new ConfigException(where + "." + key + " must be a duration string like \"2m\"");
        }
        return CollectorConfig.duration(node.textValue(), where + "." + key);
    }

    private static void requireShare(String key, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw new ConfigException(key + " must be a fraction 0..1, got " + value);
        }
    }
}
