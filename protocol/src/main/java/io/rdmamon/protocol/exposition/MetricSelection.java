package io.rdmamon.protocol.exposition;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Which metric families a {@code /metrics} exposition renders (docs/architecture.md "The rdmamon command": {@code
 * --metrics SPEC} of the agent
 * and the collector, the collector's {@code metrics} config key): a profile, optionally followed by
 * {@code ,+family} and {@code ,-family} items, e.g. {@code standard,-rdma_gid_info} or
 * {@code minimal,+rdma_hw_*}. Items apply left to right over the profile, the last one that names a family
 * deciding.
 *
 * <p>A family is named as docs/metrics.md names it: the name on its sample lines, so counters with
 * {@code _total} and info families with {@code _info} ({@code rdma_prio_bytes_total}, {@code rdma_gid_info},
 * {@code rdmamon_collector_frames_received_total}). Each counter file is a family of its own
 * ({@code rdma_port_<name>_total}, {@code rdma_hw_<name>_total}: any such name is accepted, since the kernel
 * chooses the files); {@code *} in an item matches any run of characters ({@code -rdma_hw_*} drops every
 * {@code hw_counters} family). An unknown profile, a name that is no family, or a pattern that can match none
 * is refused with the known ones ({@link IllegalArgumentException}).
 *
 * <p>The selection only decides what is rendered: what the agent samples and sends, what the collector stores,
 * diagnoses (from the samples, never from {@code /metrics}) and serves on its API are the same for every profile.
 * Immutable and thread-safe.
 */
public final class MetricSelection {
    /** The profiles; {@link #FULL} is the default. */
    public enum Profile {
        /** Every family: what rdmamon exported before profiles existed. */
        FULL,
        /** What the shipped alert rules, recording rules and Grafana dashboards query, and {@link #MINIMAL}. */
        STANDARD,
        /** Traffic, errors, state, diagnoses and the collector's own health. */
        MINIMAL;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The collector's own families ({@code rdmamon_collector_*}, docs/metrics.md "Self metrics"), and its change log's
     * {@code rdma_node_changes_total} (docs/metrics.md), which its registry holds too: in every profile; the
     * collector's tests check that its registry has exactly these.
     */
    public static final Set<String> COLLECTOR_SELF = Set.of("rdma_node_changes_total",
            "rdmamon_collector_changes_evicted_total", "rdmamon_collector_changes_held",
            "rdmamon_collector_admission_estimated_bytes", "rdmamon_collector_admission_limit_bytes",
            "rdmamon_collector_agent_streams_closed_total", "rdmamon_collector_auth_failures_total",
            "rdmamon_collector_cluster_members", "rdmamon_collector_connected_agents",
            "rdmamon_collector_event_loop_delay_seconds", "rdmamon_collector_metrics_render_seconds",
            "rdmamon_collector_frames_received_total", "rdmamon_collector_frames_rejected_total",
            "rdmamon_collector_history_bytes", "rdmamon_collector_history_points_per_port",
            "rdmamon_collector_history_points_shed_total", "rdmamon_collector_http_connections",
            "rdmamon_collector_http_connections_refused_total", "rdmamon_collector_http_connections_timed_out_total",
            "rdmamon_collector_live_bus_bytes_total", "rdmamon_collector_live_clients",
            "rdmamon_collector_live_clients_evicted_total", "rdmamon_collector_live_messages_sent_total",
            "rdmamon_collector_live_updates_dropped_total", "rdmamon_collector_live_watched_ports",
            "rdmamon_collector_nodes", "rdmamon_collector_nodes_expired_total",
            "rdmamon_collector_pingmesh_probes_total", "rdmamon_collector_probe_refusals_total",
            "rdmamon_collector_replica_info",
            "rdmamon_collector_requests_refused_total", "rdmamon_collector_samples_duplicate_total",
            "rdmamon_collector_samples_ingested_total", "rdmamon_collector_samples_refused_total");

    /**
     * The process's own families in {@link Profile#MINIMAL} (docs/metrics.md "Process health"): the build, and what the
     * process costs its host (CPU, resident memory, file descriptors: a handful of series), and the agent's sample loop
     * and stream. The JVM's and Vert.x's
     * ({@code jvm_*}, {@code system_*}, {@code vertx_*}: about a hundred series a process) are left out: on every
     * agent's {@code --listen} they would multiply by the fleet.
     */
    static final Set<String> PROCESS_MINIMAL = Set.of("rdmamon_build_info", "process_cpu_seconds_total",
            "process_resident_memory_bytes", "process_open_fds", "process_max_fds", "process_start_time_seconds",
            // the agent's own health on its --listen /metrics (AgentHealth): four series
            "rdmamon_agent_sample_overruns_total", "rdmamon_agent_sample_failures_total",
            "rdmamon_agent_replay_buffer_samples", "rdmamon_agent_connects_total");

    /**
     * The process's own families the rdmamon health dashboard reads, in {@link Profile#STANDARD}, with the agent's read
     * time per source (SourceDurations: about ten series).
     */
    static final Set<String> PROCESS_STANDARD = union(PROCESS_MINIMAL, Set.of("jvm_memory_used_bytes",
            "jvm_memory_max_bytes", "jvm_gc_pause_seconds", "jvm_threads_live_threads", "vertx_pool_queue_pending",
            "vertx_http_server_requests_total", "vertx_http_server_active_connections",
            "rdma_source_duration_seconds"));

    /**
     * {@link Profile#MINIMAL}: traffic (port bytes and packets, bytes per priority), errors (the IB port error
     * counters, the transport errors the recording rules watch), state (port state, physical state, rate, port
     * info, the agent's liveness and source success), the diagnoses, and the collector's own families.
     */
    static final Set<String> MINIMAL = union(COLLECTOR_SELF, PROCESS_MINIMAL, Set.of(
            // traffic
            "rdma_port_data_received_bytes_total", "rdma_port_data_transmitted_bytes_total",
            "rdma_port_packets_received_total", "rdma_port_packets_transmitted_total", "rdma_prio_bytes_total",
            // errors: sysfs counters/ (IB PortCounters) and the transport errors of rdma:hw_transport_errors:rate2m
            "rdma_port_symbol_error_total", "rdma_port_link_error_recovery_total", "rdma_port_link_downed_total",
            "rdma_port_rcv_errors_total", "rdma_port_rcv_remote_physical_errors_total",
            "rdma_port_rcv_switch_relay_errors_total", "rdma_port_xmit_discards_total",
            "rdma_port_xmit_constraint_errors_total", "rdma_port_rcv_constraint_errors_total",
            "rdma_port_local_link_integrity_errors_total", "rdma_port_excessive_buffer_overrun_errors_total",
            "rdma_port_vl15_dropped_total", "rdma_hw_out_of_sequence_total", "rdma_hw_packet_seq_err_total",
            "rdma_hw_local_ack_timeout_err_total",
            // state
            "rdma_port_state_id", "rdma_port_physical_state_id", "rdma_port_rate_bytes_per_second", "rdma_port_info",
            "rdma_agent_up", "rdma_agent_last_sample_timestamp_seconds", "rdma_source_success",
            // diagnoses
            "rdma_diagnosis_active",
            // the InfiniBand fabric: the errors that name a bad cable or a dropping port, the link state, the sweeps'
            // health; five counters and one info series a port, 240,000 series for 40,000 ports (docs/performance.md)
            "rdma_fabric_port_symbol_error_total", "rdma_fabric_port_link_error_recovery_total",
            "rdma_fabric_port_link_downed_total", "rdma_fabric_port_rcv_errors_total",
            "rdma_fabric_port_xmit_discards_total", "rdma_fabric_link_info", "rdma_fabric_sweep_success"));

    /**
     * {@link Profile#STANDARD}: {@link #MINIMAL} and every family a file of grafana/ (dashboards, recording and alert
     * rules) names, the eRDMA counters of its {@code __name__} regexes spelled out (StandardProfileTest in it/ fails
     * when a shipped query names a family missing here). Diagnosis evidence needs none: the engine judges the
     * samples in the collector, not the exposition.
     */
    static final Set<String> STANDARD = union(MINIMAL, PROCESS_STANDARD, Set.of(
            "rdma_device_info", "rdma_gid_info", "rdma_port_workload_qps", "rdma_port_fec_info", "rdma_module_info",
            "rdma_module_rx_power_threshold_watts", "rdma_module_rx_power_watts", "rdma_module_temperature_celsius",
            "rdma_module_temperature_threshold_celsius", "rdma_module_tx_power_threshold_watts",
            "rdma_module_tx_power_watts",
            "rdma_pcie_aer_errors_total", "rdma_pcie_link_speed_transfers_per_second",
            "rdma_pcie_link_speed_transfers_per_second_max", "rdma_pcie_link_width", "rdma_pcie_link_width_max",
            "rdma_pfc_pause_duration_seconds_total", "rdma_pfc_pause_frames_total", "rdma_pfc_pause_transitions_total",
            "rdma_port_carrier_changes_total", "rdma_port_carrier_down_changes_total",
            "rdma_port_phy_corrected_bits_total", "rdma_port_phy_received_bits_total",
            "rdma_port_phy_symbol_errors_total", "rdma_prio_packets_total",
            "rdma_probe_bandwidth_bits_per_second", "rdma_probe_success", "rdma_probe_timestamp_seconds",
            // the pingmesh (grafana/dashboards: the pingmesh row)
            "rdma_pingmesh_loss_ratio", "rdma_pingmesh_rtt_seconds", "rdma_pingmesh_group_loss_ratio",
            "rdma_pingmesh_group_rtt_seconds",
            "rdma_qos_ecn_enabled", "rdma_qos_info", "rdma_qos_pfc_enabled", "rdma_qos_priority_tc",
            // what the kernel log said (grafana/rules: the NIC health alerts)
            "rdma_kernel_events_total",
            // devlink health (grafana/rules: nic_health_reporter_error, nic_firmware_fatal)
            "rdma_nic_health_reporter_state", "rdma_nic_health_reporter_errors_total",
            // congestion control (mlx5 "cong" hw_counters)
            "rdma_hw_np_cnp_sent_total", "rdma_hw_np_ecn_marked_roce_packets_total", "rdma_hw_rp_cnp_handled_total",
            "rdma_hw_rp_cnp_ignored_total",
            // eRDMA, both spellings of the erdma driver (grafana/dashboards/erdma.json, rdma:erdma_limit_drops:rate2m)
            "rdma_hw_tx_bytes_cnt_total", "rdma_hw_hw_tx_bytes_cnt_total",
            "rdma_hw_rx_bytes_cnt_total", "rdma_hw_hw_rx_bytes_cnt_total",
            "rdma_hw_tx_packets_cnt_total", "rdma_hw_hw_tx_packets_cnt_total",
            "rdma_hw_rx_packets_cnt_total", "rdma_hw_hw_rx_packets_cnt_total",
            "rdma_hw_tx_disable_drop_cnt_total", "rdma_hw_hw_disable_drop_cnt_total",
            "rdma_hw_rx_disable_drop_cnt_total", "rdma_hw_hw_rx_disable_drop_cnt_total",
            "rdma_hw_tx_reqs_cnt_total", "rdma_hw_hw_tx_reqs_cnt_total",
            "rdma_hw_tx_bps_limit_drop_cnt_total", "rdma_hw_hw_bps_limit_drop_cnt_total",
            "rdma_hw_rx_bps_limit_drop_cnt_total", "rdma_hw_hw_rx_bps_limit_drop_cnt_total",
            "rdma_hw_tx_pps_limit_drop_cnt_total", "rdma_hw_hw_pps_limit_drop_cnt_total",
            "rdma_hw_rx_pps_limit_drop_cnt_total", "rdma_hw_hw_rx_pps_limit_drop_cnt_total"));

    /** The fixed families: every name in {@link MetricFamilies} as its sample lines spell it, and the collector's. */
    static final Set<String> FIXED = union(COLLECTOR_SELF, PROCESS_STANDARD, Stream.of(MetricFamilies.NODE,
            MetricFamilies.COLLECTOR, MetricFamilies.FABRIC).flatMap(List::stream).map(MetricSelection::exposedName)
            .collect(Collectors.toSet()));
    /**
     * A family named after a counter: {@code rdma_port_<name>_total}, {@code rdma_hw_<name>_total}, a fabric port's
     * {@code rdma_fabric_port_<name>_total}.
     */
    private static final Pattern COUNTER_FILE_FAMILY = Pattern.compile("rdma_(port|hw|fabric_port)_[a-z0-9_]+_total");
    /**
     * A family of the process's own binders ({@code io.rdmamon.protocol.telemetry}): which ones exist depends on the
     * JVM (its memory pools, its collectors) and on what Vert.x has seen, so any such name is accepted.
     */
    private static final Pattern PROCESS_FAMILY = Pattern.compile("(jvm|process|system|vertx)_[a-z0-9_]+");
    private static final Pattern ITEM = Pattern.compile("[a-z_*][a-z0-9_*]*");

    public static final MetricSelection FULL = new MetricSelection(Profile.FULL, List.of());

    /** One {@code +name} or {@code -name} item. */
    private record Item(boolean add, String text, Pattern pattern) {
        boolean matches(String family) {
            return pattern.matcher(family).matches();
        }

        @Override
        public String toString() {
            return (add ? "+" : "-") + text;
        }
    }

    private final Profile profile;
    private final List<Item> items;
    private final Map<String, Boolean> decided = new ConcurrentHashMap<>();

    private MetricSelection(Profile profile, List<Item> items) {
        this.profile = profile;
        this.items = List.copyOf(items);
    }

    /** {@code spec} as {@code --metrics} takes it; null or blank is {@link #FULL}. */
    public static MetricSelection parse(String spec) {
        if (spec == null || spec.isBlank()) {
            return FULL;
        }
        String[] parts = spec.strip().split(",", -1);
        String profileName = parts[0].strip();
        Profile profile = Stream.of(Profile.values()).filter(p -> p.id().equals(profileName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown metrics profile '" + profileName
                        + "' (known: " + profileIds() + "; then optional ,+family / ,-family items)"));
        List<Item> items = new ArrayList<>();
        for (int i = 1; i < parts.length; i++) {
            items.add(item(parts[i].strip()));
        }
        return new MetricSelection(profile, items);
    }

    private static Item item(String text) {
        if (text.length() < 2 || (text.charAt(0) != '+' && text.charAt(0) != '-')) {
            throw new IllegalArgumentException("metrics item '" + text + "' must be +family or -family (after the "
                    + "profile: " + profileIds() + "), e.g. standard,-rdma_gid_info");
        }
        String name = text.substring(1);
        if (!ITEM.matcher(name).matches()) {
            throw new IllegalArgumentException("metrics item '" + text + "': a family name is [a-z0-9_], with * "
                    + "matching any characters");
        }
        Pattern pattern = Pattern.compile(Stream.of(name.split("\\*", -1)).map(Pattern::quote)
                .collect(Collectors.joining(".*")));
        if (!known(name, pattern)) {
            throw new IllegalArgumentException("unknown metric family '" + name + "' (docs/metrics.md); known: "
                    + String.join(", ", new TreeSet<>(FIXED)) + ", and rdma_port_<counter>_total, "
                    + "rdma_hw_<counter>_total for each counter file (e.g. rdma_hw_out_of_sequence_total), and the "
                    + "process's jvm_*, process_*, system_*, vertx_* families");
        }
        return new Item(text.charAt(0) == '+', name, pattern);
    }

    /** The name is a family, or the pattern can match one (a fixed one, or a counter file's). */
    private static boolean known(String name, Pattern pattern) {
        if (!name.contains("*")) {
            return FIXED.contains(name) || COUNTER_FILE_FAMILY.matcher(name).matches()
                    || PROCESS_FAMILY.matcher(name).matches();
        }
        if (FIXED.stream().anyMatch(f -> pattern.matcher(f).matches())
                || Stream.of("jvm_", "process_", "system_", "vertx_").anyMatch(p -> name.startsWith(p))) {
            return true;
        }
        // could it match a counter file's rdma_port_<x>_total or rdma_hw_<x>_total? The literal text before the first
        // * must agree with one of the prefixes, the text after the last * with _total
        String head = name.substring(0, name.indexOf('*'));
        String tail = name.substring(name.lastIndexOf('*') + 1);
        boolean headFits = Stream.of("rdma_port_", "rdma_hw_", "rdma_fabric_port_").anyMatch(p -> p.startsWith(head) || head.startsWith(p));
        boolean tailFits = "_total".endsWith(tail) || tail.endsWith("_total");
        return headFits && tailFits;
    }

    private static String profileIds() {
        return Stream.of(Profile.values()).map(Profile::id).collect(Collectors.joining(", "));
    }

    /** Whether {@code family} (its name on the sample lines: {@code _total}, {@code _info} included) is rendered. */
    public boolean includes(String family) {
        if (profile == Profile.FULL && items.isEmpty()) {
            return true;
        }
        Boolean known = decided.get(family);
        if (known != null) {
            return known;
        }
        boolean result = decide(family);
        if (decided.size() < 4096) { // family names come from counter files: bounded, but agents choose them
            decided.put(family, result);
        }
        return result;
    }

    private boolean decide(String family) {
        for (int i = items.size() - 1; i >= 0; i--) {
            if (items.get(i).matches(family)) {
                return items.get(i).add();
            }
        }
        return switch (profile) {
            case FULL -> true;
            case STANDARD -> STANDARD.contains(family);
            case MINIMAL -> MINIMAL.contains(family);
        };
    }

    /** Whether {@code family} is rendered; a {@link Family} by its sample-line name. */
    public boolean includes(Family family) {
        return includes(exposedName(family));
    }

    /**
     * For the client library's registry ({@code PrometheusRegistry.scrape(Predicate)}), which asks by the name
     * without {@code _total} / {@code _info}: included when any of the spellings is.
     */
    public boolean includesRegistryName(String name) {
        return includes(name) || includes(name + "_total") || includes(name + "_info");
    }

    public Profile profile() {
        return profile;
    }

    /** True for the default: every family. */
    public boolean isFull() {
        return profile == Profile.FULL && items.isEmpty();
    }

    /** The fixed families {@code profile} holds (tests, docs). */
    public static Set<String> families(Profile profile) {
        return switch (profile) {
            case FULL -> FIXED;
            case STANDARD -> STANDARD;
            case MINIMAL -> MINIMAL;
        };
    }

    static String exposedName(Family family) {
        return switch (family.type()) {
            case COUNTER -> family.name() + "_total";
            case INFO -> family.name() + "_info";
            case GAUGE -> family.name();
        };
    }

    @SafeVarargs
    private static Set<String> union(Set<String>... sets) {
        Set<String> result = new LinkedHashSet<>();
        for (Set<String> s : sets) {
            result.addAll(s);
        }
        return Set.copyOf(result);
    }

    /** The canonical spec: {@code standard,-rdma_gid_info}. */
    @Override
    public String toString() {
        return Stream.concat(Stream.of(profile.id()), items.stream().map(Item::toString))
                .collect(Collectors.joining(","));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MetricSelection other && other.toString().equals(toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }
}
