package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;

import java.util.Map;
import java.util.Optional;

/**
 * A NIC health rule read from the kernel log: the agent's count of {@code kind} on the port rose since the previous
 * sample (docs/metrics.md {@code rdma_kernel_events_total}). The evidence quotes the kernel's latest line of that kind;
 * the engine adds the workloads on the port. An event, not a state: the rule raises on the sample the count rose in
 * and clears after its window ({@link DiagnosisConfig#defaults()}) without another.
 */
public abstract class KernelEventRule implements PortRule {
    private final Rule rule;
    private final String kind;
    private final String what;

    /** {@code rule} raised by records of {@code kind}, which the evidence calls {@code what}. */
    protected KernelEventRule(Rule rule, String kind, String what) {
        this.rule = rule;
        this.kind = kind;
        this.what = what;
    }

    @Override
    public Rule id() {
        return rule;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        Long risen = in.kernel().risen().get(kind);
        if (risen == null) {
            return Optional.empty();
        }
        String line = in.kernel().lastLine().get(kind);
        return Optional.of(new Finding(rule, "the kernel logged " + risen + " " + what + " on " + in.device().name()
                + " port " + in.current().port() + " since the previous sample"
                + (line == null ? "" : ": \"" + line + "\""), Map.of(kind, (double) risen), rule.severity()));
    }
}
