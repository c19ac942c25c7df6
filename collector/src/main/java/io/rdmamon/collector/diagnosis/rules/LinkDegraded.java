package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.rates.CounterGroup;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * link_degraded: an active port runs below its expected rate ({@link PortInput#expectedRate()}, configured or the
 * fleet's), or its link went down / retrained within the flap window ({@link PortInput#recentFlaps()}, which the
 * engine accumulates from {@link #flaps}). Needs no previous sample: the flaps come counted in the input.
 */
public final class LinkDegraded implements PortRule {
    @Override
    public Rule id() {
        return Rule.LINK_DEGRADED;
    }

    /** link_downed + link_error_recovery increases between two reads of a port (0 without a usable rate). */
    public static long flaps(IbPort previous, IbPort current, long elapsedMillis) {
        if (previous == null || elapsedMillis <= 0) {
            return 0;
        }
        double perSecond = PortDeltas.orZero(PortDeltas.rate(previous, current, elapsedMillis, CounterGroup.PORT_COUNTERS,
                "link_downed")) + PortDeltas.orZero(PortDeltas.rate(previous, current, elapsedMillis,
                CounterGroup.PORT_COUNTERS, "link_error_recovery"));
        return Math.round(perSecond * (elapsedMillis / 1000.0));
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        IbPort port = in.current();
        PortInput.ExpectedRate expected = in.expectedRate();
        boolean slow = port.isActive() && expected != null && port.rateBytesPerSecond() != null
                && port.rateBytesPerSecond() < expected.bytesPerSecond();
        boolean flapping = in.recentFlaps() > 0;
        if (!slow && !flapping) {
            return Optional.empty();
        }
        StringJoiner text = new StringJoiner("; ");
        Map<String, Double> values = new LinkedHashMap<>();
        if (slow) {
            text.add("runs at " + port.rate() + ", expected " + Evidence.gbps(expected.bytesPerSecond()) + " ("
                    + expected.origin() + ")");
            values.put("rateBytesPerSecond", port.rateBytesPerSecond().doubleValue());
            values.put("expectedRateBytesPerSecond", (double) expected.bytesPerSecond());
        }
        if (flapping) {
            text.add(in.recentFlaps() + " link down / retrain event(s) (link_downed, link_error_recovery) in the last "
                    + config.flapWindow().toSeconds() + " s");
            values.put("recentFlaps", (double) in.recentFlaps());
        }
        return Optional.of(new Finding(Rule.LINK_DEGRADED, text.toString(), values));
    }
}
