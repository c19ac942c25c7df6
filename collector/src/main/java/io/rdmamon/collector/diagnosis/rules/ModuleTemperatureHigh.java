package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.model.Severity;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.TransceiverModule.Limits;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * module_temperature_high: the port's transceiver is hotter than its own high warning threshold (warning) or high
 * alarm threshold (critical). A module without temperature thresholds in its image judges nothing.
 */
public final class ModuleTemperatureHigh implements PortRule {
    @Override
    public Rule id() {
        return Rule.MODULE_TEMPERATURE_HIGH;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        TransceiverModule m = in.current().module();
        Limits limits = m == null || m.thresholds() == null ? null : m.thresholds().temperatureCelsius();
        Double temperature = m == null ? null : m.temperatureCelsius();
        if (limits == null || temperature == null || temperature <= limits.highWarning()) {
            return Optional.empty();
        }
        boolean alarm = temperature > limits.highAlarm();
        String where = in.current().netdev() == null ? "" : " of " + in.current().netdev();
        return Optional.of(new Finding(Rule.MODULE_TEMPERATURE_HIGH, String.format(Locale.ROOT,
                "module %s%s at %.1f °C, above its %s %.1f °C (warning %.1f, alarm %.1f); check airflow, then replace it",
                Evidence.module(m), where, temperature, alarm ? "alarm" : "warning",
                alarm ? limits.highAlarm() : limits.highWarning(), limits.highWarning(), limits.highAlarm()),
                Map.of("temperatureCelsius", temperature), alarm ? Severity.CRITICAL : Severity.WARNING));
    }
}
