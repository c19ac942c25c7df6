package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.store.NodeView;

import java.util.Optional;

/**
 * One node-level rule of docs/architecture.md "Rule ids": its condition on what the store knows of a node, judged on
 * the
 * collector's periodic sweep ({@code engine.DiagnosisEngine#sweep}), which is what notices a node that sends nothing.
 * One class per rule, named after its id, in {@code diagnosis/rules/}; listed in
 * {@code rules.RuleTable}.
 */
public interface NodeRule {
    Rule id();

    /** The finding when the condition holds on {@code view} at {@code nowMillis} (collector time); empty otherwise. */
    Optional<Finding> evaluate(NodeView view, long nowMillis);
}
