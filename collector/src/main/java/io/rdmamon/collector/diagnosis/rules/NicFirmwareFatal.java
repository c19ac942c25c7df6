package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.KernelNews;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.model.Rule;

import java.util.Map;
import java.util.Optional;

/**
 * nic_firmware_fatal: the kernel logged a {@code firmware_fatal} line on the port ({@link KernelEventRule}), or the
 * device's devlink {@code fw_fatal} reporter is in error (mlx5 health.c reports it when the firmware's health syndrome
 * is fatal; it stays in error until a recovery succeeds).
 */
public final class NicFirmwareFatal extends KernelEventRule {
    static final String FW_FATAL = "fw_fatal";

    public NicFirmwareFatal() {
        super(Rule.NIC_FIRMWARE_FATAL, "firmware_fatal", "firmware fatal error line(s)");
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        Optional<Finding> logged = super.evaluate(in, config);
        if (logged.isPresent()) {
            return logged;
        }
        return in.kernel().reporters().stream()
                .filter(r -> FW_FATAL.equals(r.now().reporter()) && r.now().inError())
                .findFirst()
                .map(r -> fatal(in, r));
    }

    private Finding fatal(PortInput in, KernelNews.Reporter r) {
        return new Finding(id(), "devlink health on " + in.device().name() + ": " + NicHealthReporterError.describe(r),
                Map.of("fw_fatal_errors", (double) r.now().errors()), id().severity());
    }
}
