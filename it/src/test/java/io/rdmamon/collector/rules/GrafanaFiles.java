package io.rdmamon.collector.rules;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rdmamon.protocol.exposition.MetricSelection;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The project's grafana/ and docs/runbooks/ files, located from the it module (Maven runs
 * tests with it/ as working directory), and the metric-name contract they are held to.
 */
final class GrafanaFiles {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path RULES = ROOT.resolve("grafana/rules");
    static final Path TESTS = ROOT.resolve("grafana/tests");
    static final Path DASHBOARDS = ROOT.resolve("grafana/dashboards");
    static final Path RUNBOOKS = ROOT.resolve("docs/runbooks");
    /**
     * Where the alerts' runbook_url points: the collector's /runbooks/ at the base deployment's in-cluster Service
     * (deploy/scripts/gen-prometheusrule.sh --runbook-base-url rewrites it for an overlay).
     */
    static final String RUNBOOK_BASE_URL = "http://rdmamon-collector.rdmamon.svc:9470/runbooks/";

    /** docs/architecture.md "Rule ids" (contract): the diagnosis rule ids. */
    static final Set<String> RULE_IDS = Set.of("roce_traffic_outside_lossless_priority", "pfc_not_enabled",
            "pfc_pause_storm", "ecn_not_engaged", "cnp_ignored", "transport_loss", "link_down", "link_degraded",
            "link_flapping", "pcie_degraded", "pcie_errors", "module_power_out_of_range",
            "module_temperature_high", "fec_ber_high", "gid_no_rocev2", "erdma_rate_limited", "agent_stale", "node_name_conflict",
            "qos_config_drift", "qos_trust_not_dscp", "roce_dscp_not_lossless", "ecn_disabled_on_lossless",
            "nccl_conf_mismatch", "gpudirect_not_ready", "gpu_nic_cross_numa", "pcie_acs_redirect",
            "pcie_relaxed_ordering_off", "path_loss", "path_latency_high", "port_unreachable", "fabric_cable_errors",
            "fabric_link_degraded", "fabric_link_down", "fabric_congestion", "nic_firmware_fatal",
            "nic_tx_timeout", "nic_command_timeout", "nic_pcie_power_insufficient", "nic_health_reporter_error");

    /** docs/architecture.md "Metric names" (contract): the metrics named one by one. */
    private static final Set<String> CONTRACT_METRICS = Set.of(
            "rdma_port_data_received_bytes_total", "rdma_port_data_transmitted_bytes_total",
            "rdma_port_packets_received_total", "rdma_port_packets_transmitted_total",
            "rdma_prio_bytes_total", "rdma_prio_packets_total",
            "rdma_pfc_pause_frames_total", "rdma_pfc_pause_duration_seconds_total", "rdma_pfc_pause_transitions_total",
            "rdma_port_state_id", "rdma_port_physical_state_id", "rdma_port_rate_bytes_per_second",
            "rdma_device_info", "rdma_port_info", "rdma_gid_info",
            "rdma_agent_up", "rdma_agent_last_sample_timestamp_seconds", "rdma_source_success",
            "rdma_probe_bandwidth_bits_per_second", "rdma_probe_success", "rdma_probe_timestamp_seconds",
            "rdma_diagnosis_active",
            // the physical layer (docs/architecture.md "Metric names"), and the module thresholds named after its
            // conventions
            "rdma_pcie_link_width", "rdma_pcie_link_width_max", "rdma_pcie_link_speed_transfers_per_second",
            "rdma_pcie_link_speed_transfers_per_second_max", "rdma_pcie_aer_errors_total", "rdma_kernel_events_total",
            "rdma_nic_health_reporter_state", "rdma_nic_health_reporter_errors_total", "rdma_module_info",
            "rdma_module_temperature_celsius", "rdma_module_voltage_volts", "rdma_module_rx_power_watts",
            "rdma_module_tx_power_watts", "rdma_module_tx_bias_amperes", "rdma_module_temperature_threshold_celsius",
            "rdma_module_voltage_threshold_volts", "rdma_module_rx_power_threshold_watts",
            "rdma_module_tx_power_threshold_watts", "rdma_module_tx_bias_threshold_amperes",
            "rdma_qos_pfc_enabled", "rdma_qos_info", "rdma_qos_priority_tc", "rdma_qos_tc_bandwidth_percent",
            "rdma_qos_ecn_enabled", "rdma_port_fec_info", "rdma_port_workload_info", "rdma_port_workload_qps",
            // host topology (docs/architecture.md "Metric names")
            "rdma_gpu_nic_path_info", "rdma_gpudirect_ready",
            // the pingmesh (docs/architecture.md "Metric names"): per port and scope, and per ordered group pair
            "rdma_pingmesh_rtt_seconds", "rdma_pingmesh_loss_ratio", "rdma_pingmesh_group_rtt_seconds",
            "rdma_pingmesh_group_loss_ratio");
    /** docs/architecture.md "Metric names" (contract): the families named by pattern, one metric per sysfs counter
     * file. */
    private static final Pattern CONTRACT_FAMILIES = Pattern.compile("rdma_(port|hw)_[a-z0-9_]+_total");

    private static final Pattern STRING_LITERAL = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern RDMA_NAME = Pattern.compile("(?<![A-Za-z0-9_:])rdma[_:][A-Za-z0-9_:]*");
    private static final Pattern NAME_REGEX = Pattern.compile("__name__\\s*=~\\s*\"([^\"]*)\"");

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The dashboard of rdmamon's own health: the collector replicas and the agents' processes, no ports. */
    static final String HEALTH_DASHBOARD = "rdmamon-health.json";
    /**
     * The one {@code rdma_*} family of a process's own health (docs/metrics.md "Process health"): the agent's read time
     * per source, named beside {@code rdma_source_success}.
     */
    private static final String AGENT_READ_TIME = "rdma_source_duration_seconds";
    /** The families of the processes themselves (docs/metrics.md "Process health"), and Prometheus's own. */
    private static final Pattern SELF_NAME = Pattern.compile(
            "(?<![A-Za-z0-9_:])(rdmamon_[a-z0-9_]+|jvm_[a-z0-9_]+|process_[a-z0-9_]+|vertx_[a-z0-9_]+|up|scrape_duration_seconds"
                    + "|" + AGENT_READ_TIME + ")"
                    + "(?![A-Za-z0-9_:(])");
    private static final MetricSelection STANDARD = MetricSelection.parse("standard");

    private GrafanaFiles() {
    }

    /** The rdmamon_/jvm_/process_/vertx_ names (and Prometheus's up, scrape_duration_seconds) an expression reads. */
    static Set<String> selfMetricNames(String expr) {
        return SELF_NAME.matcher(STRING_LITERAL.matcher(expr).replaceAll("\"\"")).results().map(MatchResult::group)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /**
     * True for a family the processes export in the standard profile ({@code rdmamon_collector_*}, the process's own
     * families the health dashboard reads; a histogram by its {@code _bucket}/{@code _sum}/{@code _count}), or one
     * Prometheus records for every target.
     */
    static boolean knownSelfMetric(String name) {
        String family = name.replaceFirst("_(bucket|sum|count)$", "");
        return Set.of("up", "scrape_duration_seconds").contains(name) || MetricSelection.COLLECTOR_SELF.contains(family)
                || (STANDARD.includes(family) && (!family.startsWith("rdma_") || family.equals(AGENT_READ_TIME)));
    }

    static List<Path> list(Path dir, String suffix) {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> found = files.filter(f -> f.getFileName().toString().endsWith(suffix)).sorted().toList();
            if (found.isEmpty()) {
                throw new AssertionError("no *" + suffix + " files in " + dir);
            }
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    static JsonNode yaml(Path file) {
        try {
            return YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot parse " + file, e);
        }
    }

    static JsonNode json(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot parse " + file, e);
        }
    }

    /** Every rule (recording and alerting) of every rule file, in file order. */
    static List<JsonNode> rules() {
        List<JsonNode> rules = new ArrayList<>();
        for (Path file : list(RULES, ".yml")) {
            for (JsonNode group : yaml(file).path("groups")) {
                group.path("rules").forEach(rules::add);
            }
        }
        return rules;
    }

    static List<JsonNode> alerts() {
        return rules().stream().filter(r -> r.has("alert")).toList();
    }

    /**
     * The alerts for rdmamon itself (grafana/rules/rdmamon-self.yml): labelled {@code component="rdmamon"} instead of
     * a diagnosis {@code rule} (docs/metrics.md "Self alerts").
     */
    static List<JsonNode> selfAlerts() {
        return alerts().stream().filter(GrafanaFiles::isSelfAlert).toList();
    }

    /** The alerts of the diagnosis rules: every alert but the self alerts. */
    static List<JsonNode> diagnosisAlerts() {
        return alerts().stream().filter(a -> !isSelfAlert(a)).toList();
    }

    private static boolean isSelfAlert(JsonNode alert) {
        return alert.path("labels").path("component").asText().equals("rdmamon");
    }

    static Set<String> recordedNames() {
        Set<String> names = new LinkedHashSet<>();
        rules().stream().filter(r -> r.has("record")).forEach(r -> names.add(r.get("record").asText()));
        return names;
    }

    /**
     * The rdma_/rdma: metric names a PromQL expression reads, and the regexes of its
     * {@code __name__=~"..."} selectors. Other string literals are dropped first: label values are
     * not names.
     */
    static Set<String> metricNames(String expr) {
        Set<String> names = new LinkedHashSet<>();
        Matcher regexes = NAME_REGEX.matcher(expr);
        while (regexes.find()) {
            names.add(regexes.group(1));
        }
        String code = STRING_LITERAL.matcher(expr).replaceAll("\"\"");
        Matcher m = RDMA_NAME.matcher(code);
        while (m.find()) {
            names.add(m.group());
        }
        return names;
    }

    /**
     * True for a name of docs/architecture.md "Metric names" or one recorded by our rules. A name regex qualifies when
     * all
     * it can match lies in a §5 counter family: an rdma_port_/rdma_hw_ prefix, a _total suffix and
     * no alternation outside parentheses.
     */
    static boolean knownMetric(String name, Set<String> recorded) {
        if (CONTRACT_METRICS.contains(name) || CONTRACT_FAMILIES.matcher(name).matches() || recorded.contains(name)) {
            return true;
        }
        return (name.startsWith("rdma_port_") || name.startsWith("rdma_hw_")) && name.endsWith("_total")
                && !hasTopLevelAlternation(name);
    }

    private static boolean hasTopLevelAlternation(String regex) {
        int depth = 0;
        for (char c : regex.toCharArray()) {
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == '|' && depth == 0) {
                return true;
            }
        }
        return false;
    }
}
