package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.model.Severity;
import io.rdmamon.protocol.model.PciFunction;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * pcie_errors: an AER counter of the PCI function of the port's device rose since the previous sample. Correctable
 * errors warn; a non-fatal or fatal one (an uncorrectable error: a transaction lost) is critical. A counter that went
 * down (device reset, driver reload) is a new baseline. An error is an event, so the rule raises on the sample it
 * rose in and clears a minute later (its default window, {@link DiagnosisConfig#defaults()}).
 */
public final class PcieErrors implements PortRule {
    @Override
    public Rule id() {
        return Rule.PCIE_ERRORS;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        PciFunction now = in.device().pci();
        PciFunction before = in.previousPci();
        if (now == null || before == null || !now.address().equals(before.address())) {
            return Optional.empty();
        }
        StringJoiner text = new StringJoiner(", ");
        Map<String, Double> values = new LinkedHashMap<>();
        boolean uncorrectable = false;
        for (String severity : PciFunction.AER_SEVERITIES) {
            Long from = before.aerErrors().get(severity);
            Long to = now.aerErrors().get(severity);
            if (from != null && to != null && to > from) {
                text.add((to - from) + " " + severity);
                values.put(severity, (double) (to - from));
                uncorrectable |= !severity.equals("correctable");
            }
        }
        if (values.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Rule.PCIE_ERRORS, "PCIe " + now.address()
                + (now.linkFrom().equals(now.address()) ? "" : " (counted at its PF " + now.linkFrom() + ")")
                + " reported AER errors since the previous sample: " + text
                + (uncorrectable ? " (uncorrectable: transactions lost)" : " (corrected by the link)"), values,
                uncorrectable ? Severity.CRITICAL : Severity.WARNING));
    }
}
