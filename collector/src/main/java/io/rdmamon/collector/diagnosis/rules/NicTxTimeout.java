package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.model.Rule;

/** nic_tx_timeout: the kernel logged a {@code tx_timeout} line on the port ({@link KernelEventRule}). */
public final class NicTxTimeout extends KernelEventRule {
    public NicTxTimeout() {
        super(Rule.NIC_TX_TIMEOUT, "tx_timeout", "transmit queue timeout(s)");
    }
}
