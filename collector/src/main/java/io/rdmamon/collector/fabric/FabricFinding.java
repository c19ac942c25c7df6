package io.rdmamon.collector.fabric;

import io.rdmamon.collector.model.Rule;

import java.util.Map;
import java.util.Objects;

/**
 * A fabric rule's condition holds on one link (or a port of it) in the last sweep.
 *
 * @param rule     the rule
 * @param link     the link, named by both ends
 * @param evidence the numbers, both ends and the hosts behind them, in words
 * @param values   the numbers by name
 */
public record FabricFinding(Rule rule, LinkEnds link, String evidence, Map<String, Double> values) {
    public FabricFinding {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(link, "link");
        Objects.requireNonNull(evidence, "evidence");
        values = Map.copyOf(values);
    }
}
