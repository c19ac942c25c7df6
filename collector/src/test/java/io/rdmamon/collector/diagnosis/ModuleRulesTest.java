package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.diagnosis.rules.ModulePowerOutOfRange;
import io.rdmamon.collector.diagnosis.rules.ModuleTemperatureHigh;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.TransceiverModule.Lane;
import io.rdmamon.protocol.model.TransceiverModule.Limits;
import io.rdmamon.protocol.model.TransceiverModule.Thresholds;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** module_power_out_of_range and module_temperature_high against the module's own thresholds (the §3.4 QSFP28's). */
class ModuleRulesTest {
    private static final DiagnosisConfig CONFIG = DiagnosisConfig.defaults();
    /** Rx: alarm 0.0071..0.5623 mW, warning 0.0089..0.4467 mW; Tx: alarm 0.3548..5.6234, warning 0.4466..4.4668. */
    private static final Thresholds THRESHOLDS = new Thresholds(new Limits(75, -5, 70, 0),
            new Limits(3.63, 2.97, 3.465, 3.135), new Limits(0.5623e-3, 0.0071e-3, 0.4467e-3, 0.0089e-3),
            new Limits(5.6234e-3, 0.3548e-3, 4.4668e-3, 0.4466e-3), new Limits(0.110, 0.020, 0.100, 0.030));

    @ParameterizedTest(name = "lane 3 Rx {0} mW, Tx {1} mW")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "0.2|1.4|null|null",
            "0.008|1.4|warning|module QT14241028003 (QSFPTEK QT-QSFP28-ER4) of ens3f0np0: lane 3 Rx power -20.97 dBm below its low warning -20.51 dBm (alarm -21.49 dBm); clean both fiber connectors and reseat, then replace the optic QT14241028003 if it stays out of range",
            "0.0001|1.4|critical|module QT14241028003 (QSFPTEK QT-QSFP28-ER4) of ens3f0np0: lane 3 Rx power -40.00 dBm below its alarm -21.49 dBm; clean both fiber connectors and reseat, then replace the optic QT14241028003 if it stays out of range",
            "0.2|5.0|warning|module QT14241028003 (QSFPTEK QT-QSFP28-ER4) of ens3f0np0: lane 3 Tx power 6.99 dBm above its high warning 6.50 dBm (alarm 7.50 dBm); clean both fiber connectors and reseat, then replace the optic QT14241028003 if it stays out of range",
            "0|1.4|critical|module QT14241028003 (QSFPTEK QT-QSFP28-ER4) of ens3f0np0: lane 3 Rx power -inf dBm below its alarm -21.49 dBm; clean both fiber connectors and reseat, then replace the optic QT14241028003 if it stays out of range"})
    void powerAgainstTheModulesOwnRanges(double rxMilliwatts, double txMilliwatts, String severity, String evidence) {
        Optional<Finding> finding = new ModulePowerOutOfRange().evaluate(input(module(35, rxMilliwatts * 1e-3,
                txMilliwatts * 1e-3, THRESHOLDS)), CONFIG);

        assertEquals(Optional.ofNullable(severity), finding.map(f -> f.severity().id()));
        assertEquals(Optional.ofNullable(evidence), finding.map(Finding::evidence));
        finding.ifPresent(f -> assertEquals(1, f.values().size()));
    }

    @Test
    void noThresholdsJudgeNothing() {
        assertEquals(Optional.empty(), new ModulePowerOutOfRange().evaluate(input(module(90, 0, 0, null)), CONFIG));
        assertEquals(Optional.empty(), new ModuleTemperatureHigh().evaluate(input(module(90, 0, 0, null)), CONFIG));
        assertEquals(Optional.empty(), new ModulePowerOutOfRange().evaluate(input(null), CONFIG));
    }

    /**
     * Drift: lane 3 against its baseline 0.2 mW (-6.99 dBm), every other lane at it. 3 dB is half the power: 0.11 mW
     * is 2.6 dB down (nothing), 0.09 mW 3.5 dB (warning, inside the module's thresholds); a lane past its alarm is
     * reported by the thresholds alone; a module without thresholds is still judged by its drift; a 6 dB setting
     * tolerates 3.5 dB.
     */
    @ParameterizedTest(name = "lane 3 Rx {0} mW, thresholds {1}, drop {2} dB")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "0.11|true|3|null|null",
            "0.09|true|3|warning|module QT14241028003 (QSFPTEK QT-QSFP28-ER4) of ens3f0np0: lane 3 Rx power -10.46 dBm, 3.5 dB below its baseline -6.99 dBm (best 5-minute mean within 1 h); clean both fiber connectors and reseat, then replace the optic QT14241028003 if it stays out of range",
            "0.005|true|3|critical|module QT14241028003 (QSFPTEK QT-QSFP28-ER4) of ens3f0np0: lane 3 Rx power -23.01 dBm below its alarm -21.49 dBm; clean both fiber connectors and reseat, then replace the optic QT14241028003 if it stays out of range",
            "0.09|false|3|warning|module QT14241028003 (QSFPTEK QT-QSFP28-ER4) of ens3f0np0: lane 3 Rx power -10.46 dBm, 3.5 dB below its baseline -6.99 dBm (best 5-minute mean within 1 h); clean both fiber connectors and reseat, then replace the optic QT14241028003 if it stays out of range",
            "0.09|true|6|null|null"})
    void rxPowerAgainstItsOwnBaseline(double rxMilliwatts, boolean thresholds, double dropDb, String severity,
                                      String evidence) {
        DiagnosisConfig config = withDrift(new DiagnosisConfig.RxPowerDrift(dropDb, java.time.Duration.ofHours(1)));
        Map<Integer, Double> baseline = Map.of(1, 2e-4, 2, 2e-4, 3, 2e-4, 4, 2e-4);

        Optional<Finding> finding = new ModulePowerOutOfRange().evaluate(input(module(35, rxMilliwatts * 1e-3, 1.4e-3,
                thresholds ? THRESHOLDS : null), baseline), config);

        assertEquals(Optional.ofNullable(severity), finding.map(f -> f.severity().id()));
        assertEquals(Optional.ofNullable(evidence), finding.map(Finding::evidence));
    }

    private static DiagnosisConfig withDrift(DiagnosisConfig.RxPowerDrift drift) {
        return DiagnosisConfig.defaults().toBuilder().rxPowerDrift(drift).build();
    }

    @ParameterizedTest(name = "{0} °C")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "70|null|null",
            "71.5|warning|module QT14241028003 (QSFPTEK QT-QSFP28-ER4) of ens3f0np0 at 71.5 °C, above its warning 70.0 °C (warning 70.0, alarm 75.0); check airflow, then replace it",
            "76|critical|module QT14241028003 (QSFPTEK QT-QSFP28-ER4) of ens3f0np0 at 76.0 °C, above its alarm 75.0 °C (warning 70.0, alarm 75.0); check airflow, then replace it"})
    void temperatureAgainstTheModulesOwnHighThresholds(double celsius, String severity, String evidence) {
        Optional<Finding> finding = new ModuleTemperatureHigh().evaluate(input(module(celsius, 2e-4, 1.4e-3,
                THRESHOLDS)), CONFIG);

        assertEquals(Optional.ofNullable(severity), finding.map(f -> f.severity().id()));
        assertEquals(Optional.ofNullable(evidence), finding.map(Finding::evidence));
    }

    private static TransceiverModule module(double celsius, double rxLane3, double txLane3, Thresholds thresholds) {
        return new TransceiverModule("SFF-8636", 0x11, "QSFP28", "QSFPTEK", "QT-QSFP28-ER4", "1A", "QT14241028003",
                "241028", celsius, 3.3, List.of(new Lane(1, 2e-4, 1.4e-3, 0.057), new Lane(2, 2e-4, 1.4e-3, 0.057),
                new Lane(3, rxLane3, txLane3, 0.057), new Lane(4, 2e-4, 1.4e-3, 0.057)), thresholds, List.of());
    }

    private static PortInput input(TransceiverModule module) {
        return input(module, Map.of());
    }

    private static PortInput input(TransceiverModule module, Map<Integer, Double> rxBaseline) {
        IbPort port = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("Ethernet").lid("0x0").netdev("ens3f0np0").module(module).build();
        return new PortInput(new IbDevice("mlx5_6", 1, "CA", null, null, "x", "MT4125", null, List.of(port)), null,
                port, 0, null, 0, null, null, null, null, rxBaseline);
    }
}
