package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.model.Rule;

/** nic_command_timeout: the kernel logged a {@code command_timeout} line on the port ({@link KernelEventRule}). */
public final class NicCommandTimeout extends KernelEventRule {
    public NicCommandTimeout() {
        super(Rule.NIC_COMMAND_TIMEOUT, "command_timeout", "firmware command timeout(s)");
    }
}
