package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.model.PciFunction;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * pcie_degraded: the PCI function of the port's device trained narrower or slower than its maximum
 * ({@link PciFunction#degraded()}; both values known). The maximum is what the function and its slot can do, as the
 * kernel reads it from the link capabilities, so a card in an x8-wired slot shows max 16, current 8 too: the fix is
 * then the slot, which the evidence leaves to the runbook.
 */
public final class PcieDegraded implements PortRule {
    @Override
    public Rule id() {
        return Rule.PCIE_DEGRADED;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        PciFunction pci = in.device().pci();
        if (pci == null || !pci.degraded()) {
            return Optional.empty();
        }
        Map<String, Double> values = new LinkedHashMap<>();
        put(values, "linkWidth", pci.currentLinkWidth());
        put(values, "maxLinkWidth", pci.maxLinkWidth());
        put(values, "linkSpeedTransfersPerSecond", pci.currentLinkSpeedTransfersPerSecond());
        put(values, "maxLinkSpeedTransfersPerSecond", pci.maxLinkSpeedTransfersPerSecond());
        return Optional.of(new Finding(Rule.PCIE_DEGRADED, "PCIe " + pci.address()
                + (pci.physfn() == null ? "" : " (PF " + pci.physfn() + ")") + " trained at "
                + link(pci.currentLinkSpeed(), pci.currentLinkWidth()) + ", can do "
                + link(pci.maxLinkSpeed(), pci.maxLinkWidth()) + ": the host caps the NIC's bandwidth", values));
    }

    private static String link(String speed, Integer width) {
        return (speed == null ? "?" : speed) + " x" + (width == null ? "?" : width);
    }

    private static void put(Map<String, Double> values, String name, Number value) {
        if (value != null) {
            values.put(name, value.doubleValue());
        }
    }
}
