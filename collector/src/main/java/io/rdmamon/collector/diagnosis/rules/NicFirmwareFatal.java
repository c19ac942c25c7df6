package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.model.Rule;

/** nic_firmware_fatal: the kernel logged a {@code firmware_fatal} line on the port ({@link KernelEventRule}). */
public final class NicFirmwareFatal extends KernelEventRule {
    public NicFirmwareFatal() {
        super(Rule.NIC_FIRMWARE_FATAL, "firmware_fatal", "firmware fatal error line(s)");
    }
}
