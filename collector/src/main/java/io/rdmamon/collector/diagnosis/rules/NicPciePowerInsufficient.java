package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.model.Rule;

/** nic_pcie_power_insufficient: the kernel logged a {@code pcie_power_insufficient} line on the port ({@link KernelEventRule}). */
public final class NicPciePowerInsufficient extends KernelEventRule {
    public NicPciePowerInsufficient() {
        super(Rule.NIC_PCIE_POWER_INSUFFICIENT, "pcie_power_insufficient", "insufficient PCIe slot power report(s)");
    }
}
