package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.model.Severity;

import java.util.Map;

/**
 * A rule's condition holds on one sample: what the evaluator found, before hysteresis decides whether it
 * becomes (or stays) a {@link Diagnosis}.
 *
 * @param rule     the rule
 * @param evidence the numbers, in words
 * @param values   the numbers by name
 * @param severity how grave it is this time, for a rule that escalates; null for the rule's own severity
 * @param subject  what the finding blames, for a rule whose culprit can change while it holds (a pingmesh verdict
 *                 names a path first, then the port once the port's pairs are judged); null for the others. A held
 *                 diagnosis takes the evidence of a finding whose subject changed.
 */
public record Finding(Rule rule, String evidence, Map<String, Double> values, Severity severity, String subject) {
    public Finding {
        values = Map.copyOf(values);
        severity = severity == null ? rule.severity() : severity;
    }

    /** A finding of {@code severity} whose culprit does not change while it holds. */
    public Finding(Rule rule, String evidence, Map<String, Double> values, Severity severity) {
        this(rule, evidence, values, severity, null);
    }

    /** A finding of the rule's own severity. */
    public Finding(Rule rule, String evidence, Map<String, Double> values) {
        this(rule, evidence, values, null);
    }
}
