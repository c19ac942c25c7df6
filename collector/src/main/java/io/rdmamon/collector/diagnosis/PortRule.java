package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.model.Rule;

import java.util.Optional;

/**
 * One per-port rule of docs/architecture.md "Rule ids": its condition as a pure function of two consecutive samples of
 * one port,
 * with its evidence. No state, no clock; the engine ({@code engine.DiagnosisEngine}) adds hysteresis. One class per
 * rule, named after its id, in {@code diagnosis/rules/} (docs/diagnosis.md "Where a rule lives"); listed in
 * {@code rules.RuleTable}.
 */
public interface PortRule {
    Rule id();

    /**
     * The finding when the condition holds on {@code in}, with its evidence; empty otherwise, and empty for a
     * rule read from counter rates when {@code in} has none (no rate never counts as a finding). Text is built
     * only for a condition that holds: a healthy port costs its rate computations and nothing more.
     */
    Optional<Finding> evaluate(PortInput in, DiagnosisConfig config);

    /**
     * Whether {@code in} can judge this rule at all: a rule read from counter rates ({@link Rule#fromRates()})
     * needs a usable previous sample. A sample that cannot judge a rule neither raises nor clears it.
     */
    default boolean judges(PortInput in) {
        return !id().fromRates() || in.hasRates();
    }
}
