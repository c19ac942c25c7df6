package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.KernelNews;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.model.NicHealthReporter;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * nic_health_reporter_error: a devlink health reporter of the port or its device is in error, or its error count rose
 * since the previous sample (docs/metrics.md {@code rdma_nic_health_reporter_state}, {@code _errors_total}). The
 * evidence names each such reporter with its handle, state and counts.
 */
public final class NicHealthReporterError implements PortRule {
    @Override
    public Rule id() {
        return Rule.NIC_HEALTH_REPORTER_ERROR;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        List<KernelNews.Reporter> bad = in.kernel().reporters().stream()
                .filter(r -> r.now().inError() || r.errorsRisen() > 0).toList();
        if (bad.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Double> values = new LinkedHashMap<>();
        bad.forEach(r -> values.put(r.now().reporter() + "_errors", (double) r.now().errors()));
        List<String> each = bad.stream().map(NicHealthReporterError::describe).toList();
        return Optional.of(new Finding(id(), "devlink health on " + in.device().name() + " port "
                + in.current().port() + ": " + String.join("; ", each), values, id().severity()));
    }

    /** {@code reporter tx (pci/0000:3b:00.0/65535) error, 3 errors (+1 since the previous sample), 2 recovers}. */
    static String describe(KernelNews.Reporter r) {
        NicHealthReporter now = r.now();
        return "reporter " + now.reporter() + " (" + now.handle() + ") " + now.state() + ", " + now.errors()
                + " errors" + (r.errorsRisen() > 0 ? " (+" + r.errorsRisen() + " since the previous sample)" : "")
                + ", " + now.recovers() + " recovers";
    }
}
