package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.PriorityCounters;
import io.rdmamon.protocol.rates.CounterGroup;
import io.rdmamon.protocol.rates.CounterWidth;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * pfc_pause_storm: on a RoCE port some priority is paused at least {@code pauseStormRatio} of the time in either
 * direction ({@code rx/tx_prioN_pause_duration}, µs per second), or the NIC's pause-storm warning / error event
 * counters increase.
 */
public final class PfcPauseStorm implements PortRule {
    private static final double MICROS_PER_SECOND = 1_000_000.0;
    private static final CounterWidth STORM_WIDTH = CounterWidth.of(CounterGroup.ETHTOOL, "tx_pause_storm_error_events");

    @Override
    public Rule id() {
        return Rule.PFC_PAUSE_STORM;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        if (!PortDeltas.isRoce(in) || !PortDeltas.hasEthtoolPair(in)) {
            return Optional.empty();
        }
        EthtoolStats now = in.current().ethtool();
        EthtoolStats before = in.previous().ethtool();
        double[] rx = PortDeltas.priorityRates(in, PriorityCounters::rxPauseDurationMicros);
        double[] tx = PortDeltas.priorityRates(in, PriorityCounters::txPauseDurationMicros);
        int priority = -1;
        String direction = null;
        double ratio = 0;
        for (int p = 0; p < 8; p++) {
            if (tx[p] / MICROS_PER_SECOND > ratio) {
                ratio = tx[p] / MICROS_PER_SECOND;
                priority = p;
                direction = "tx";
            }
            if (rx[p] / MICROS_PER_SECOND > ratio) {
                ratio = rx[p] / MICROS_PER_SECOND;
                priority = p;
                direction = "rx";
            }
        }
        double warnings = PortDeltas.rate(before.pauseStormWarningEvents(), now.pauseStormWarningEvents(),
                in.elapsedMillis(), STORM_WIDTH);
        double errors = PortDeltas.rate(before.pauseStormErrorEvents(), now.pauseStormErrorEvents(),
                in.elapsedMillis(), STORM_WIDTH);
        boolean saturated = ratio >= config.pauseStormRatio();
        if (!saturated && !(warnings > 0) && !(errors > 0)) {
            return Optional.empty();
        }
        Map<String, Double> values = new LinkedHashMap<>();
        values.put("pausedRatio", Math.min(1, ratio));
        if (priority >= 0) {
            values.put("priority", (double) priority);
        }
        values.put("stormWarningEventsPerSecond", PortDeltas.orZero(warnings));
        values.put("stormErrorEventsPerSecond", PortDeltas.orZero(errors));
        String text = (priority >= 0 ? "priority " + priority + " paused " + Evidence.percent(Math.min(1, ratio))
                + " of the time (" + direction + " pause duration " + String.format(Locale.ROOT, "%.3f", ratio) + " s/s)"
                : "no pause time counted")
                + "; pause-storm warning events " + Evidence.perSecond(PortDeltas.orZero(warnings)) + ", error events "
                + Evidence.perSecond(PortDeltas.orZero(errors));
        return Optional.of(new Finding(Rule.PFC_PAUSE_STORM, text, values));
    }
}
