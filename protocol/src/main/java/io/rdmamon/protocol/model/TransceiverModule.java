package io.rdmamon.protocol.model;

import java.util.List;

/**
 * A pluggable transceiver (optic or cable) as its EEPROM describes it (docs/reference/physical-layer.md §3): identity,
 * the live
 * diagnostic readings (DOM), per lane as {@code ethtool -m} numbers channels (from 1), and the module's own alarm
 * and warning thresholds. Base units: °C, volts, watts, amperes. A reading the module does not provide (a DAC
 * without DOM, a CMIS image without page 11h) is null and {@link #notes} says why.
 *
 * @param standard           {@code SFF-8472}, {@code SFF-8636} or {@code CMIS}
 * @param identifier         SFF-8024 identifier (byte 0)
 * @param type               its name: {@code SFP}, {@code QSFP28}, {@code QSFP-DD}, ...
 * @param vendor             vendor name, trimmed; null when blank
 * @param part               vendor part number
 * @param revision           vendor revision
 * @param serial             vendor serial number
 * @param date               date code {@code YYMMDD}
 * @param temperatureCelsius module temperature
 * @param voltageVolts       supply voltage
 * @param lanes              per-lane readings, lane 1 first; empty without DOM
 * @param thresholds         the module's thresholds; null when the image has none (SFF-8636 flat memory, a
 *                           256-byte read, CMIS without page 02h)
 * @param notes              why something is absent, one line each
 */
public record TransceiverModule(String standard, int identifier, String type, String vendor, String part,
                                String revision, String serial, String date, Double temperatureCelsius,
                                Double voltageVolts, List<Lane> lanes, Thresholds thresholds, List<String> notes) {
    public TransceiverModule {
        lanes = lanes == null ? List.of() : List.copyOf(lanes);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /**
     * One lane (channel).
     *
     * @param lane          1-based
     * @param rxPowerWatts  received optical power (average or OMA, as the module measures); null when not monitored
     * @param txPowerWatts  transmitted optical power; null when not monitored
     * @param txBiasAmperes laser bias current; null when not monitored
     */
    public record Lane(int lane, Double rxPowerWatts, Double txPowerWatts, Double txBiasAmperes) {
    }

    /** One quantity's four thresholds, in the quantity's base unit. */
    public record Limits(double highAlarm, double lowAlarm, double highWarning, double lowWarning) {
    }

    /** The module's thresholds per quantity; a quantity without thresholds is null. */
    public record Thresholds(Limits temperatureCelsius, Limits voltageVolts, Limits rxPowerWatts, Limits txPowerWatts,
                             Limits txBiasAmperes) {
    }
}
