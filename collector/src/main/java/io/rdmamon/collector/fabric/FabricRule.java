package io.rdmamon.collector.fabric;

import io.rdmamon.collector.model.Rule;

import java.util.List;

/**
 * One fabric rule of docs/architecture.md "Rule ids": its condition as a pure function of a fabric's last two sweeps
 * ({@link FabricInput}), one finding per link it holds on. No state, no clock: the store ({@link FabricStore}) keeps
 * what was raised and decides when it clears. One class per rule, named after its id, in {@code diagnosis/rules/};
 * listed in {@code rules.RuleTable#FABRIC_RULES}.
 */
public interface FabricRule {
    Rule id();

    /** The findings on {@code in}'s links; empty on a healthy fabric. */
    List<FabricFinding> evaluate(FabricInput in);

    /**
     * How long a verdict of this rule stays raised after the last sweep that found it: 0 clears it on the first sweep
     * without it; a rule read from counter rises holds it a while, so that a cable erring every few sweeps stays
     * named.
     */
    default long holdMillis() {
        return 0;
    }
}
