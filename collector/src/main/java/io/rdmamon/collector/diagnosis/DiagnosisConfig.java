package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.collector.model.QosProfile;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.json.StrictJson;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
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
 * @param linkFlapping               link_flapping: how many flaps in which window warn, and how many in which longer
 *                                   window are critical (the flap ledger keeps the longer window)
 * @param qosProfile                 qos_config_drift and roce_dscp_not_lossless: the fleet's QoS profile; null = the
 *                                   majority of RoCE ports with a configuration
 * @param ecnRequired                ecn_disabled_on_lossless and the ECN part of qos_config_drift; false for a fleet
 *                                   that runs PFC without DCQCN on purpose
 * @param minPortsForQosProfile      RoCE ports with a configuration needed before their majority is the fleet profile
 * @param rxPowerDrift               module_power_out_of_range: how far below its own baseline a lane's Rx power may fall
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
        Integer expectedGidIndex,
        LinkFlapping linkFlapping,
        QosProfile qosProfile,
        boolean ecnRequired,
        int minPortsForQosProfile,
        RxPowerDrift rxPowerDrift) {


    /**
     * module_power_out_of_range's drift check ({@code diagnosis.rxPowerDrift}): a lane whose Rx power is more than
     * {@code dropDb} below its baseline, its highest 5-minute mean within {@code baselineWindow}
     * ({@link RxPowerBaseline}), warns even while inside the module's thresholds: a connector getting dirty or a
     * fiber bent shows as a fall long before the power reaches the module's low warning.
     */
    public record RxPowerDrift(double dropDb, Duration baselineWindow) {
        private static final Set<String> KEYS = Set.of("dropDb", "baselineWindow");

        public RxPowerDrift {
            if (!(dropDb > 0) || Double.isInfinite(dropDb)) {
                throw new ConfigException("dropDb must be a positive number of dB, got " + dropDb);
            }
            if (baselineWindow.compareTo(Duration.ofMinutes(1)) < 0) {
                throw new ConfigException("baselineWindow must be at least 1m, got " + baselineWindow);
            }
        }

        /** 3 dB (half the power) below the best 5-minute mean of the last hour. */
        public static RxPowerDrift defaults() {
            return new RxPowerDrift(3.0, Duration.ofHours(1));
        }

        /** The lowest Rx power that is not a drift from {@code baselineWatts}. */
        public double floorWatts(double baselineWatts) {
            return baselineWatts * Math.pow(10, -dropDb / 10);
        }

        static RxPowerDrift fromJson(StrictJson json) {
            RxPowerDrift d = defaults();
            json.requireKnownKeys(KEYS);
            try {
                return new RxPowerDrift(json.number("dropDb", d.dropDb), json.duration("baselineWindow", d.baselineWindow));
            } catch (ConfigException e) {
                throw new ConfigException(json.path() + "." + e.getMessage(), e);
            }
        }
    }

    /**
     * link_flapping's thresholds ({@code diagnosis.linkFlapping}): at least {@code warningFlaps} flaps within
     * {@code warningWindow} warn, at least {@code criticalFlaps} within {@code criticalWindow} are critical.
     */
    public record LinkFlapping(int warningFlaps, Duration warningWindow, int criticalFlaps, Duration criticalWindow) {
        private static final Set<String> KEYS = Set.of("warningFlaps", "warningWindow", "criticalFlaps", "criticalWindow");

        public LinkFlapping {
            if (warningFlaps < 1 || criticalFlaps < 1) {
                throw new ConfigException("warningFlaps and criticalFlaps must be >= 1, got "
                        + warningFlaps + " and " + criticalFlaps);
            }
            if (warningWindow.isNegative() || warningWindow.isZero() || criticalWindow.compareTo(warningWindow) < 0) {
                throw new ConfigException("warningWindow must be positive and criticalWindow at least as "
                        + "long, got " + warningWindow + " and " + criticalWindow);
            }
        }

        /** 3 flaps in 10 minutes warn, 10 in 24 hours are critical. */
        public static LinkFlapping defaults() {
            return new LinkFlapping(3, Duration.ofMinutes(10), 10, Duration.ofHours(24));
        }

        static LinkFlapping fromJson(StrictJson json) {
            LinkFlapping d = defaults();
            json.requireKnownKeys(KEYS);
            try {
                return new LinkFlapping(json.integer("warningFlaps", d.warningFlaps),
                        json.duration("warningWindow", d.warningWindow), json.integer("criticalFlaps", d.criticalFlaps),
                        json.duration("criticalWindow", d.criticalWindow));
            } catch (ConfigException e) {
                // the constructor's message starts with the key; this adds the section
                throw new ConfigException(json.path() + "." + e.getMessage(), e);
            }
        }
    }

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
            "minPortsForModalRate", "expectedRateGbps", "losslessPriorities", "expectedGidIndex", "linkFlapping",
            "qosProfile", "ecnRequired", "minPortsForQosProfile", "rxPowerDrift");
    private static final Set<String> PROFILE_KEYS = Set.of("trust", "pfcPriorities", "roceDscp", "roceDscpPriority");
    private static final Set<String> WINDOW_KEYS = Set.of("raiseAfterSamples", "clearAfterSamples");

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
        if (linkFlapping == null) {
            linkFlapping = LinkFlapping.defaults();
        }
        if (minPortsForQosProfile < 1) {
            throw new ConfigException("minPortsForQosProfile must be >= 1, got " + minPortsForQosProfile);
        }
        if (rxPowerDrift == null) {
            rxPowerDrift = RxPowerDrift.defaults();
        }
    }

    /**
     * The NIC health rules read from the kernel log raise on the sample a line was logged in and clear 10 minutes later
     * (600 samples at 1 s): a line is an event, and a firmware fatal error stays news until someone looks. So does a
     * devlink health reporter's error count that rose (a reporter in error holds its rule while it stays in error).
     */
    static final Window KERNEL_EVENT_WINDOW = new Window(1, 600);

    /**
     * Raise after 3 samples, clear after 10 (3 s and 10 s at the agent's default 1 s interval); link_flapping
     * raises on the sample whose flap reached its threshold, pcie_errors on the sample an AER counter rose in and
     * clears a minute after the last rise (an error is an event, not a state); link_down
     * raises on the first sample that reads a port not ACTIVE (a state is read, not estimated from a rate, and
     * a link that is down for one second of every five must still show). Thresholds as in the alert rules.
     */
    public static DiagnosisConfig defaults() {
        return new DiagnosisConfig(3, 10, Map.of(Rule.LINK_DOWN, new Window(1, 10), Rule.LINK_FLAPPING,
                new Window(1, 10), Rule.PCIE_ERRORS, new Window(1, 60), Rule.NIC_FIRMWARE_FATAL, KERNEL_EVENT_WINDOW,
                Rule.NIC_TX_TIMEOUT, KERNEL_EVENT_WINDOW, Rule.NIC_COMMAND_TIMEOUT, KERNEL_EVENT_WINDOW,
                Rule.NIC_PCIE_POWER_INSUFFICIENT, KERNEL_EVENT_WINDOW, Rule.NIC_HEALTH_REPORTER_ERROR,
                KERNEL_EVENT_WINDOW), 10_000_000, 0.8, 0.5, 10, 0, 1, 0, Duration.ofMinutes(2), 3, Map.of(), new TreeSet<>(),
                null, LinkFlapping.defaults(), null, true, 3, RxPowerDrift.defaults());
    }

    /** Samples to raise and clear {@code rule}. */
    public Window window(Rule rule) {
        Window window = windows.get(rule);
        return window != null ? window : new Window(raiseAfterSamples, clearAfterSamples);
    }

    /** A builder that starts from this config, to change some of its thresholds (start from {@link #defaults()}). */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Defaults overlaid by the {@code "diagnosis"} object of a config file.
     *
     * @throws ConfigException naming the key at fault (from its path, {@code diagnosis.KEY})
     */
    public static DiagnosisConfig fromJson(StrictJson json) {
        DiagnosisConfig d = defaults();
        json.requireKnownKeys(KEYS);
        int raise = json.integer("raiseAfterSamples", d.raiseAfterSamples);
        int clear = json.integer("clearAfterSamples", d.clearAfterSamples);
        Map<Rule, Window> windows = new EnumMap<>(d.windows);
        if (json.has("rules")) {
            windows.putAll(windows(json.object("rules"), raise, clear, windows));
        }
        Map<String, Double> rates = d.expectedRateGbps;
        if (json.has("expectedRateGbps")) {
            StrictJson byType = json.object("expectedRateGbps");
            rates = new LinkedHashMap<>();
            for (String hcaType : byType.keys()) {
                rates.put(hcaType, byType.number(hcaType));
            }
        }
        SortedSet<Integer> lossless = d.losslessPriorities;
        if (json.has("losslessPriorities")) {
            lossless = new TreeSet<>(json.integers("losslessPriorities"));
        }
        LinkFlapping linkFlapping = json.has("linkFlapping") ? LinkFlapping.fromJson(json.object("linkFlapping"))
                : d.linkFlapping;
        RxPowerDrift rxPowerDrift = json.has("rxPowerDrift") ? RxPowerDrift.fromJson(json.object("rxPowerDrift"))
                : d.rxPowerDrift;
        try {
            // the constructor checks ranges; its message names the key, this adds the section
            return d.toBuilder().raiseAfterSamples(raise).clearAfterSamples(clear).windows(windows)
                    .minRdmaBytesPerSecond(json.number("minRdmaBytesPerSecond", d.minRdmaBytesPerSecond))
                    .minLosslessShare(json.number("minLosslessShare", d.minLosslessShare))
                    .pauseStormRatio(json.number("pauseStormRatio", d.pauseStormRatio))
                    .ecnMinPauseFramesPerSecond(json.number("ecnMinPauseFramesPerSecond", d.ecnMinPauseFramesPerSecond))
                    .cnpIgnoredPerSecond(json.number("cnpIgnoredPerSecond", d.cnpIgnoredPerSecond))
                    .transportErrorsPerSecond(json.number("transportErrorsPerSecond", d.transportErrorsPerSecond))
                    .erdmaDropsPerSecond(json.number("erdmaDropsPerSecond", d.erdmaDropsPerSecond))
                    .flapWindow(json.duration("flapWindow", d.flapWindow))
                    .minPortsForModalRate(json.integer("minPortsForModalRate", d.minPortsForModalRate))
                    .expectedRateGbps(rates).losslessPriorities(lossless)
                    .expectedGidIndex(json.has("expectedGidIndex") ? Integer.valueOf(json.integer("expectedGidIndex"))
                            : d.expectedGidIndex)
                    .linkFlapping(linkFlapping)
                    .qosProfile(json.has("qosProfile") ? qosProfile(json.object("qosProfile")) : d.qosProfile)
                    .ecnRequired(json.bool("ecnRequired", d.ecnRequired))
                    .minPortsForQosProfile(json.integer("minPortsForQosProfile", d.minPortsForQosProfile))
                    .rxPowerDrift(rxPowerDrift).build();
        } catch (ConfigException e) {
            throw new ConfigException(json.path() + "." + e.getMessage(), e);
        }
    }

    /**
     * {@code {"trust": "dscp", "pfcPriorities": [4], "roceDscp": 34, "roceDscpPriority": 4}}: trust and PFC are
     * required; the DSCP and its priority go together (or neither).
     */
    private static QosProfile qosProfile(StrictJson json) {
        json.requireKnownKeys(PROFILE_KEYS);
        String trust = json.string("trust");
        if (!trust.equals("dscp") && !trust.equals("pcp")) {
            throw new ConfigException(json.path() + ".trust must be dscp or pcp, got '" + trust + "'");
        }
        SortedSet<Integer> pfc = new TreeSet<>(json.integers("pfcPriorities"));
        for (int p : pfc) {
            if (p < 0 || p > 7) {
                throw new ConfigException(json.path() + ".pfcPriorities: priority " + p + " is not 0..7");
            }
        }
        if (json.has("roceDscp") != json.has("roceDscpPriority")) {
            throw new ConfigException(json.path() + ": roceDscp and roceDscpPriority go together");
        }
        Integer dscp = json.has("roceDscp") ? Integer.valueOf(json.integer("roceDscp")) : null;
        Integer priority = json.has("roceDscpPriority") ? Integer.valueOf(json.integer("roceDscpPriority")) : null;
        if (dscp != null && (dscp < 0 || dscp > 63 || priority < 0 || priority > 7)) {
            throw new ConfigException(json.path() + ": roceDscp must be 0..63 and roceDscpPriority 0..7, got "
                    + dscp + " and " + priority);
        }
        return new QosProfile(trust, pfc, dscp, priority, null, null);
    }

    private static Map<Rule, Window> windows(StrictJson rules, int raise, int clear, Map<Rule, Window> base) {
        Map<Rule, Window> result = new EnumMap<>(Rule.class);
        for (String id : rules.keys()) {
            Rule rule;
            try {
                rule = Rule.fromId(id);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(rules.path() + ": " + e.getMessage());
            }
            StrictJson body = rules.object(id).requireKnownKeys(WINDOW_KEYS);
            Window fallback = base.getOrDefault(rule, new Window(raise, clear));
            try {
                result.put(rule, new Window(body.integer("raiseAfterSamples", fallback.raiseAfterSamples()),
                        body.integer("clearAfterSamples", fallback.clearAfterSamples())));
            } catch (ConfigException e) {
                throw new ConfigException(body.path() + ": " + e.getMessage());
            }
        }
        return result;
    }

    private static void requireShare(String key, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw new ConfigException(key + " must be a fraction 0..1, got " + value);
        }
    }

    /** Sets {@link DiagnosisConfig}'s components by name; {@link #build()} checks them, as the constructor does. */
    public static final class Builder {
        private int raiseAfterSamples;
        private int clearAfterSamples;
        private Map<Rule, Window> windows;
        private double minRdmaBytesPerSecond;
        private double minLosslessShare;
        private double pauseStormRatio;
        private double ecnMinPauseFramesPerSecond;
        private double cnpIgnoredPerSecond;
        private double transportErrorsPerSecond;
        private double erdmaDropsPerSecond;
        private Duration flapWindow;
        private int minPortsForModalRate;
        private Map<String, Double> expectedRateGbps;
        private SortedSet<Integer> losslessPriorities;
        private Integer expectedGidIndex;
        private LinkFlapping linkFlapping;
        private QosProfile qosProfile;
        private boolean ecnRequired;
        private int minPortsForQosProfile;
        private RxPowerDrift rxPowerDrift;

        private Builder(DiagnosisConfig from) {
            raiseAfterSamples = from.raiseAfterSamples;
            clearAfterSamples = from.clearAfterSamples;
            windows = from.windows;
            minRdmaBytesPerSecond = from.minRdmaBytesPerSecond;
            minLosslessShare = from.minLosslessShare;
            pauseStormRatio = from.pauseStormRatio;
            ecnMinPauseFramesPerSecond = from.ecnMinPauseFramesPerSecond;
            cnpIgnoredPerSecond = from.cnpIgnoredPerSecond;
            transportErrorsPerSecond = from.transportErrorsPerSecond;
            erdmaDropsPerSecond = from.erdmaDropsPerSecond;
            flapWindow = from.flapWindow;
            minPortsForModalRate = from.minPortsForModalRate;
            expectedRateGbps = from.expectedRateGbps;
            losslessPriorities = from.losslessPriorities;
            expectedGidIndex = from.expectedGidIndex;
            linkFlapping = from.linkFlapping;
            qosProfile = from.qosProfile;
            ecnRequired = from.ecnRequired;
            minPortsForQosProfile = from.minPortsForQosProfile;
            rxPowerDrift = from.rxPowerDrift;
        }

        public Builder raiseAfterSamples(int raiseAfterSamples) {
            this.raiseAfterSamples = raiseAfterSamples;
            return this;
        }

        public Builder clearAfterSamples(int clearAfterSamples) {
            this.clearAfterSamples = clearAfterSamples;
            return this;
        }

        public Builder windows(Map<Rule, Window> windows) {
            this.windows = windows;
            return this;
        }

        public Builder minRdmaBytesPerSecond(double minRdmaBytesPerSecond) {
            this.minRdmaBytesPerSecond = minRdmaBytesPerSecond;
            return this;
        }

        public Builder minLosslessShare(double minLosslessShare) {
            this.minLosslessShare = minLosslessShare;
            return this;
        }

        public Builder pauseStormRatio(double pauseStormRatio) {
            this.pauseStormRatio = pauseStormRatio;
            return this;
        }

        public Builder ecnMinPauseFramesPerSecond(double ecnMinPauseFramesPerSecond) {
            this.ecnMinPauseFramesPerSecond = ecnMinPauseFramesPerSecond;
            return this;
        }

        public Builder cnpIgnoredPerSecond(double cnpIgnoredPerSecond) {
            this.cnpIgnoredPerSecond = cnpIgnoredPerSecond;
            return this;
        }

        public Builder transportErrorsPerSecond(double transportErrorsPerSecond) {
            this.transportErrorsPerSecond = transportErrorsPerSecond;
            return this;
        }

        public Builder erdmaDropsPerSecond(double erdmaDropsPerSecond) {
            this.erdmaDropsPerSecond = erdmaDropsPerSecond;
            return this;
        }

        public Builder flapWindow(Duration flapWindow) {
            this.flapWindow = flapWindow;
            return this;
        }

        public Builder minPortsForModalRate(int minPortsForModalRate) {
            this.minPortsForModalRate = minPortsForModalRate;
            return this;
        }

        public Builder expectedRateGbps(Map<String, Double> expectedRateGbps) {
            this.expectedRateGbps = expectedRateGbps;
            return this;
        }

        public Builder losslessPriorities(SortedSet<Integer> losslessPriorities) {
            this.losslessPriorities = losslessPriorities;
            return this;
        }

        public Builder expectedGidIndex(Integer expectedGidIndex) {
            this.expectedGidIndex = expectedGidIndex;
            return this;
        }

        public Builder linkFlapping(LinkFlapping linkFlapping) {
            this.linkFlapping = linkFlapping;
            return this;
        }

        public Builder qosProfile(QosProfile qosProfile) {
            this.qosProfile = qosProfile;
            return this;
        }

        public Builder ecnRequired(boolean ecnRequired) {
            this.ecnRequired = ecnRequired;
            return this;
        }

        public Builder minPortsForQosProfile(int minPortsForQosProfile) {
            this.minPortsForQosProfile = minPortsForQosProfile;
            return this;
        }

        public Builder rxPowerDrift(RxPowerDrift rxPowerDrift) {
            this.rxPowerDrift = rxPowerDrift;
            return this;
        }

        public DiagnosisConfig build() {
            return new DiagnosisConfig(raiseAfterSamples, clearAfterSamples, windows, minRdmaBytesPerSecond,
                    minLosslessShare, pauseStormRatio, ecnMinPauseFramesPerSecond, cnpIgnoredPerSecond,
                    transportErrorsPerSecond, erdmaDropsPerSecond, flapWindow, minPortsForModalRate, expectedRateGbps,
                    losslessPriorities, expectedGidIndex, linkFlapping, qosProfile, ecnRequired, minPortsForQosProfile,
                    rxPowerDrift);
        }
    }
}
