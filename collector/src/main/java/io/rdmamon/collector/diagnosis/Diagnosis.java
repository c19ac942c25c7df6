package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.model.Severity;

import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One active diagnosis. Port-level diagnoses name a device and port; node-level ones ({@code agent_stale})
 * have {@code device == null} and {@code port == 0} (ports are numbered from 1).
 *
 * @param rule        what was found
 * @param node        node name
 * @param device      RDMA device, null for a node-level diagnosis
 * @param port        port number, 0 for a node-level diagnosis
 * @param sinceMillis collector time of the first sample of the run of samples that raised it
 * @param evidence    the numbers that raised it, in words
 * @param values      the same numbers, by name (rates per second, shares 0..1, priorities)
 * @param severity    the rule's severity, or the one its finding escalated to (link_flapping); null: the rule's
 */
public record Diagnosis(Rule rule, String node, String device, int port, long sinceMillis, String evidence,
                        Map<String, Double> values, Severity severity) {
    /** Critical first, then the oldest, then by place and rule (a stable order for lists and diffs). */
    public static final Comparator<Diagnosis> ORDER = Comparator.comparing((Diagnosis d) -> d.severity())
            .thenComparingLong(Diagnosis::sinceMillis).thenComparing(Diagnosis::node)
            .thenComparing(d -> d.device() == null ? "" : d.device()).thenComparingInt(Diagnosis::port)
            .thenComparing(Diagnosis::rule);

    public Diagnosis {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(evidence, "evidence");
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        severity = severity == null ? rule.severity() : severity;
    }

    /** A diagnosis of the rule's own severity. */
    public Diagnosis(Rule rule, String node, String device, int port, long sinceMillis, String evidence,
                     Map<String, Double> values) {
        this(rule, node, device, port, sinceMillis, evidence, values, null);
    }

    public boolean nodeLevel() {
        return device == null;
    }

    public String runbook() {
        return rule.runbook();
    }

    public String runbookPath() {
        return rule.runbookPath();
    }
}
