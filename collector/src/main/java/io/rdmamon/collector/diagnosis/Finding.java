package io.rdmamon.collector.diagnosis;

import java.util.Map;

/**
 * A rule's condition holds on one sample: what the evaluator found, before hysteresis decides whether it
 * becomes (or stays) a {@link Diagnosis}.
 *
 * @param rule     the rule
 * @param evidence the numbers, in words
 * @param values   the numbers by name
 */
public record Finding(Rule rule, String evidence, Map<String, Double> values) {
    public Finding {
        values = Map.copyOf(values);
    }
}
