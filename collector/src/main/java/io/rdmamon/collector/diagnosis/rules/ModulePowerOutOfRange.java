package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.model.Severity;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.TransceiverModule.Lane;
import io.rdmamon.protocol.model.TransceiverModule.Limits;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * module_power_out_of_range: a lane's Rx or Tx optical power of the port's transceiver is outside the module's own
 * warning range (warning) or alarm range (critical), as its EEPROM states them (SFF-8472 A2h, SFF-8636 page 03h, CMIS
 * page 02h). Judged only against the module's thresholds, never fixed numbers: an LR4 and an SR4 differ by 10 dB.
 * A module without thresholds in its image is judged by the drift check only.
 *
 * <p>Drift: a lane's Rx power more than {@code diagnosis.rxPowerDrift.dropDb} (3 dB) below its own baseline (its best
 * 5-minute mean of the last hour, {@link io.rdmamon.collector.diagnosis.RxPowerBaseline}) warns while still inside
 * the thresholds: a dirtying connector or a bent fiber is a fall of the one lane, seen before it reaches the module's
 * low warning. A lane already outside its thresholds is reported by those.
 */
public final class ModulePowerOutOfRange implements PortRule {
    @Override
    public Rule id() {
        return Rule.MODULE_POWER_OUT_OF_RANGE;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        TransceiverModule m = in.current().module();
        if (m == null) {
            return Optional.empty();
        }
        StringJoiner lanes = new StringJoiner("; ");
        Map<String, Double> values = new LinkedHashMap<>();
        boolean alarm = false;
        for (Lane lane : m.lanes()) {
            if (m.thresholds() != null) {
                alarm |= check("Rx", lane.lane(), lane.rxPowerWatts(), m.thresholds().rxPowerWatts(), lanes, values);
                alarm |= check("Tx", lane.lane(), lane.txPowerWatts(), m.thresholds().txPowerWatts(), lanes, values);
            }
            if (!values.containsKey("rxPowerWattsLane" + lane.lane())) {
                drift(lane, in.rxPowerBaselineWatts().get(lane.lane()), config.rxPowerDrift(), lanes, values);
            }
        }
        if (values.isEmpty()) {
            return Optional.empty();
        }
        String where = in.current().netdev() == null ? "" : " of " + in.current().netdev();
        return Optional.of(new Finding(Rule.MODULE_POWER_OUT_OF_RANGE, "module " + Evidence.module(m) + where + ": "
                + lanes + "; clean both fiber connectors and reseat, then replace the optic " + (m.serial() == null
                ? "" : m.serial() + " ") + "if it stays out of range", values,
                alarm ? Severity.CRITICAL : Severity.WARNING));
    }

    /** Adds the lane's Rx reading when it fell more than the configured drop below its baseline. */
    private static void drift(Lane lane, Double baselineWatts, DiagnosisConfig.RxPowerDrift drift, StringJoiner text,
                              Map<String, Double> values) {
        Double rx = lane.rxPowerWatts();
        if (rx == null || baselineWatts == null || !(baselineWatts > 0) || rx >= drift.floorWatts(baselineWatts)) {
            return;
        }
        double dropDb = rx > 0 ? 10 * Math.log10(baselineWatts / rx) : Double.POSITIVE_INFINITY;
        text.add("lane " + lane.lane() + " Rx power " + Evidence.dbm(rx) + String.format(Locale.ROOT, ", %.1f dB",
                dropDb) + " below its baseline " + Evidence.dbm(baselineWatts) + " (best 5-minute mean within "
                + Evidence.duration(drift.baselineWindow()) + ")");
        values.put("rxPowerWattsLane" + lane.lane(), rx);
        values.put("rxPowerBaselineWattsLane" + lane.lane(), baselineWatts);
    }

    /** Adds the lane's reading when outside the warning range; true when also outside the alarm range. */
    private static boolean check(String direction, int lane, Double watts, Limits limits, StringJoiner text,
                                 Map<String, Double> values) {
        if (watts == null || limits == null) {
            return false;
        }
        boolean low = watts < limits.lowWarning();
        boolean high = watts > limits.highWarning();
        if (!low && !high) {
            return false;
        }
        boolean alarm = low ? watts < limits.lowAlarm() : watts > limits.highAlarm();
        double warning = low ? limits.lowWarning() : limits.highWarning();
        double alarmLimit = low ? limits.lowAlarm() : limits.highAlarm();
        text.add("lane " + lane + " " + direction + " power " + Evidence.dbm(watts) + (low ? " below" : " above")
                + " its " + (alarm ? "alarm " + Evidence.dbm(alarmLimit) : (low ? "low" : "high") + " warning "
                + Evidence.dbm(warning) + " (alarm " + Evidence.dbm(alarmLimit) + ")"));
        values.put(direction.toLowerCase(Locale.ROOT) + "PowerWattsLane" + lane, watts);
        return alarm;
    }
}
