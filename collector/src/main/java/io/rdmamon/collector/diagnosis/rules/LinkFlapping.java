package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.model.Severity;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * link_flapping: the port's flap ledger ({@link io.rdmamon.collector.flaps.FlapLedger}, counted into
 * {@link PortInput#linkFlaps()} by the engine) holds at least {@code warningFlaps} flaps within the warning window
 * (warning), or at least {@code criticalFlaps} within the critical window (critical: a port that flaps all day
 * is a time bomb for the next collective even when it is quiet this minute). Needs no previous sample: the flaps
 * come counted. A counter stuck at 255 is named in the evidence, as it hides further flaps.
 */
public final class LinkFlapping implements PortRule {
    @Override
    public Rule id() {
        return Rule.LINK_FLAPPING;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        PortInput.FlapCounts flaps = in.linkFlaps();
        DiagnosisConfig.LinkFlapping limits = config.linkFlapping();
        boolean critical = flaps.inCriticalWindow() >= limits.criticalFlaps();
        boolean warning = flaps.inWarningWindow() >= limits.warningFlaps();
        if (!critical && !warning) {
            return Optional.empty();
        }
        String where = in.current().netdev() == null ? "the link" : "the link (netdev " + in.current().netdev() + ")";
        StringBuilder text = new StringBuilder(where).append(" went down ").append(flaps.inWarningWindow())
                .append(" time(s) in the last ").append(Evidence.duration(limits.warningWindow())).append(" and ")
                .append(flaps.inCriticalWindow()).append(" in the last ").append(Evidence.duration(limits.criticalWindow()))
                .append(critical ? " (critical from " + limits.criticalFlaps() : " (warning from " + limits.warningFlaps())
                .append("); times in the flap ledger");
        if (!flaps.saturatedCounters().isEmpty()) {
            text.append("; ").append(String.join(", ", flaps.saturatedCounters().stream().sorted().toList()))
                    .append(" stuck at 255, so more flaps may be hidden");
        }
        Map<String, Double> values = new LinkedHashMap<>();
        values.put("flapsInWarningWindow", (double) flaps.inWarningWindow());
        values.put("flapsInCriticalWindow", (double) flaps.inCriticalWindow());
        return Optional.of(new Finding(Rule.LINK_FLAPPING, text.toString(), values,
                critical ? Severity.CRITICAL : Severity.WARNING));
    }
}
