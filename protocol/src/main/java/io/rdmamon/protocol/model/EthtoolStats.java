package io.rdmamon.protocol.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.IntFunction;

/**
 * The {@code ethtool -S <netdev>} statistics of a port's netdev: the raw statistics, and a typed view of
 * the mlx5 names that matter for RoCE QoS (torvalds/linux {@code en_stats.c}; docs/reference/ethtool-and-verbs.md
 * §1.1).
 *
 * <p>The raw statistics are the only data: the typed view is derived from them here, once, by the name
 * rules of {@link Derivation}, for the agent and the collector alike ({@link #of}). There is no way to build
 * one with typed values of its own, so the two cannot disagree, and only the raw statistics cross the wire.
 *
 * <p>Typed view (null or empty when the names are absent):
 * <ul>
 * <li>{@link #priorities()}: per-priority traffic and PFC counters for priorities 0..7 that list any of the
 *     ten names of {@link PriorityCounters}, by priority;</li>
 * <li>{@link #pfcEnabledPriorities()}: priorities with an {@code rx_prioN_pause} or {@code tx_prioN_pause}
 *     statistic. mlx5 creates those names only for priorities whose PFC is enabled, which is how the lossless
 *     priority is learned (never assumed);</li>
 * <li>{@link #vportRdma()}: {@code rx/tx_vport_rdma_{unicast,multicast}_{packets,bytes}} that exist, in
 *     {@link #VPORT_RDMA_NAMES} order;</li>
 * <li>{@link #pauseStormWarningEvents()}, {@link #pauseStormErrorEvents()}: {@code tx_pause_storm_*_events}.</li>
 * </ul>
 * Values are in the driver's units (pause durations in microseconds); the collector converts at exposition.
 */
public final class EthtoolStats {
    /** {@code NUM_PPORT_PRIO}: 802.1p user priorities 0..7. */
    public static final int PRIORITY_COUNT = 8;
    public static final List<String> VPORT_RDMA_NAMES = List.of(
            "rx_vport_rdma_unicast_packets", "rx_vport_rdma_unicast_bytes",
            "tx_vport_rdma_unicast_packets", "tx_vport_rdma_unicast_bytes",
            "rx_vport_rdma_multicast_packets", "rx_vport_rdma_multicast_bytes",
            "tx_vport_rdma_multicast_packets", "tx_vport_rdma_multicast_bytes");
    public static final String PAUSE_STORM_WARNING = "tx_pause_storm_warning_events";
    public static final String PAUSE_STORM_ERROR = "tx_pause_storm_error_events";

    private final String netdev;
    private final Map<String, Long> raw;
    private final List<PriorityCounters> priorities;
    private final SortedSet<Integer> pfcEnabledPriorities;
    private final Map<String, Long> vportRdma;
    private final Long pauseStormWarningEvents;
    private final Long pauseStormErrorEvents;

    private EthtoolStats(String netdev, Map<String, Long> raw, List<PriorityCounters> priorities,
                         SortedSet<Integer> pfcEnabledPriorities, Map<String, Long> vportRdma,
                         Long pauseStormWarningEvents, Long pauseStormErrorEvents) {
        this.netdev = netdev;
        this.raw = raw;
        this.priorities = priorities;
        this.pfcEnabledPriorities = pfcEnabledPriorities;
        this.vportRdma = vportRdma;
        this.pauseStormWarningEvents = pauseStormWarningEvents;
        this.pauseStormErrorEvents = pauseStormErrorEvents;
    }

    /**
     * The statistics {@code raw} of {@code netdev} (name to value, null for a value that is absent this time,
     * in kernel order) with their typed view. Copies {@code raw}.
     */
    public static EthtoolStats of(String netdev, Map<String, Long> raw) {
        Map<String, Long> copy = Maps.copyOrdered(raw);
        List<String> names = List.copyOf(copy.keySet());
        Long[] values = copy.values().toArray(Long[]::new);
        return new Derivation(names).derive(netdev, copy, i -> values[i]);
    }

    /** Interface name. */
    public String netdev() {
        return netdev;
    }

    /** Every statistic, in kernel order, in the driver's units; a null value is absent. */
    public Map<String, Long> raw() {
        return raw;
    }

    /** Per-priority counters of the priorities that list any of their names, by priority. */
    public List<PriorityCounters> priorities() {
        return priorities;
    }

    /** Priorities with an {@code rx_prioN_pause} or {@code tx_prioN_pause} statistic (PFC enabled on mlx5). */
    public SortedSet<Integer> pfcEnabledPriorities() {
        return pfcEnabledPriorities;
    }

    /** The {@link #VPORT_RDMA_NAMES} that exist, in that order. */
    public Map<String, Long> vportRdma() {
        return vportRdma;
    }

    /** {@code tx_pause_storm_warning_events}; null when absent. */
    public Long pauseStormWarningEvents() {
        return pauseStormWarningEvents;
    }

    /** {@code tx_pause_storm_error_events}; null when absent. */
    public Long pauseStormErrorEvents() {
        return pauseStormErrorEvents;
    }

    /** Equal when netdev and raw statistics are: the typed view follows from them. */
    @Override
    public boolean equals(Object other) {
        return other instanceof EthtoolStats e && netdev.equals(e.netdev) && raw.equals(e.raw);
    }

    @Override
    public int hashCode() {
        return Objects.hash(netdev, raw);
    }

    @Override
    public String toString() {
        return "EthtoolStats[netdev=" + netdev + ", raw=" + raw + "]";
    }

    /**
     * The name rules of the typed view, resolved for one list of statistic names: which name feeds which typed
     * value. The collector resolves them once per layout ({@link #Derivation(CounterMap.Keys)}) and derives the
     * view of every sample from the counter map's values by index, without a look-up by name.
     */
    public static final class Derivation {
        /** The ten fields of {@link PriorityCounters} after {@code priority}, in record order. */
        private static final int FIELDS = 10;
        private static final int NONE = -1;

        private final CounterMap.Keys keys;
        /** Priorities with an entry, ascending. */
        private final int[] priorities;
        /** {@code [p * FIELDS + field]}: index of the name of that field of {@code priorities[p]}, or NONE. */
        private final int[] priorityNames;
        private final SortedSet<Integer> pfcEnabled;
        private final CounterMap.Keys vportKeys;
        private final int[] vportNames;
        private final int warningName;
        private final int errorName;

        /** The rules for the names of {@code rawKeys}, for {@link #derive(String, CounterMap)} of maps over them. */
        public Derivation(CounterMap.Keys rawKeys) {
            this(rawKeys, rawKeys.distinctNames());
        }

        private Derivation(List<String> names) {
            this(null, names);
        }

        private Derivation(CounterMap.Keys keys, List<String> names) {
            this.keys = keys;
            int[] byPriority = new int[PRIORITY_COUNT * FIELDS];
            Arrays.fill(byPriority, NONE);
            boolean[] listed = new boolean[PRIORITY_COUNT];
            SortedSet<Integer> pfc = new TreeSet<>();
            int[] vport = new int[VPORT_RDMA_NAMES.size()];
            Arrays.fill(vport, NONE);
            int warning = NONE;
            int error = NONE;
            for (int i = 0; i < names.size(); i++) {
                String name = names.get(i);
                int priority = priority(name);
                if (priority >= 0) {
                    String suffix = name.substring("rx_prioN_".length());
                    int field = field(name.charAt(0) == 'r', suffix);
                    if (field >= 0) {
                        byPriority[priority * FIELDS + field] = i;
                        listed[priority] = true;
                    }
                    if (suffix.equals("pause")) {
                        pfc.add(priority);
                    }
                } else if (name.equals(PAUSE_STORM_WARNING)) {
                    warning = i;
                } else if (name.equals(PAUSE_STORM_ERROR)) {
                    error = i;
                } else {
                    int v = VPORT_RDMA_NAMES.indexOf(name);
                    if (v >= 0) {
                        vport[v] = i;
                    }
                }
            }
            List<Integer> withEntry = new ArrayList<>();
            for (int p = 0; p < PRIORITY_COUNT; p++) {
                if (listed[p]) {
                    withEntry.add(p);
                }
            }
            priorities = withEntry.stream().mapToInt(Integer::intValue).toArray();
            priorityNames = new int[priorities.length * FIELDS];
            for (int p = 0; p < priorities.length; p++) {
                System.arraycopy(byPriority, priorities[p] * FIELDS, priorityNames, p * FIELDS, FIELDS);
            }
            pfcEnabled = Collections.unmodifiableSortedSet(pfc);
            List<String> vportListed = new ArrayList<>();
            List<Integer> vportAt = new ArrayList<>();
            for (int v = 0; v < vport.length; v++) {
                if (vport[v] != NONE) {
                    vportListed.add(VPORT_RDMA_NAMES.get(v));
                    vportAt.add(vport[v]);
                }
            }
            vportKeys = new CounterMap.Keys(vportListed);
            vportNames = vportAt.stream().mapToInt(Integer::intValue).toArray();
            warningName = warning;
            errorName = error;
        }

        /**
         * The statistics {@code raw} of {@code netdev} with their typed view.
         *
         * @throws IllegalArgumentException when {@code raw} is not a map over the keys these rules were made for
         */
        public EthtoolStats derive(String netdev, CounterMap raw) {
            if (keys == null || !raw.hasKeys(keys)) {
                throw new IllegalArgumentException("the counter map of " + netdev + " has other names than these rules");
            }
            return derive(netdev, Maps.copyOrdered(raw), raw::valueAt);
        }

        /** {@code raw} is immutable; {@code value} answers the value of the name at an index of the names. */
        private EthtoolStats derive(String netdev, Map<String, Long> raw, IntFunction<Long> value) {
            Objects.requireNonNull(netdev, "netdev");
            PriorityCounters[] counters = new PriorityCounters[priorities.length];
            Long[] fields = new Long[FIELDS];
            for (int p = 0; p < counters.length; p++) {
                for (int f = 0; f < FIELDS; f++) {
                    int name = priorityNames[p * FIELDS + f];
                    fields[f] = name == NONE ? null : value.apply(name);
                }
                counters[p] = new PriorityCounters(priorities[p], fields[0], fields[1], fields[2], fields[3],
                        fields[4], fields[5], fields[6], fields[7], fields[8], fields[9]);
            }
            long[] vport = new long[vportNames.length];
            BitSet vportAbsent = null;
            for (int v = 0; v < vport.length; v++) {
                Long known = value.apply(vportNames[v]);
                if (known != null) {
                    vport[v] = known;
                } else {
                    vportAbsent = vportAbsent == null ? new BitSet(vport.length) : vportAbsent;
                    vportAbsent.set(v);
                }
            }
            return new EthtoolStats(netdev, raw, List.of(counters), pfcEnabled,
                    Collections.unmodifiableMap(new CounterMap(vportKeys, vport, vportAbsent)),
                    warningName == NONE ? null : value.apply(warningName),
                    errorName == NONE ? null : value.apply(errorName));
        }

        /** N of {@code rx_prioN_...} or {@code tx_prioN_...} with N in 0..7; -1 for any other name. */
        private static int priority(String name) {
            if (name.length() < "rx_prioN_".length() || !(name.startsWith("rx_prio") || name.startsWith("tx_prio"))
                    || name.charAt("rx_prioN".length()) != '_') {
                return -1;
            }
            int priority = name.charAt("rx_prio".length()) - '0';
            return priority >= 0 && priority < PRIORITY_COUNT ? priority : -1;
        }

        /** The {@link PriorityCounters} field (0..9) a suffix of an rx or tx priority name feeds; -1 for none. */
        private static int field(boolean rx, String suffix) {
            return switch (suffix) {
                case "bytes" -> rx ? 0 : 3;
                case "packets" -> rx ? 1 : 4;
                case "discards" -> rx ? 2 : -1;
                case "pause" -> rx ? 5 : 7;
                case "pause_duration" -> rx ? 6 : 8;
                case "pause_transition" -> rx ? 9 : -1;
                default -> -1;
            };
        }
    }
}
