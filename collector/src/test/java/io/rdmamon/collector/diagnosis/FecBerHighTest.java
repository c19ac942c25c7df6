package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.diagnosis.rules.FecBerHigh;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.FecMode;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** fec_ber_high: pre-FEC BER from the mlx5 PHY counters over 10 s, against the threshold of the port's modulation. */
class FecBerHighTest {

    @ParameterizedTest(name = "{0}: +{1} corrected bits, +{2} received, +{3} symbol errors in 10 s")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            // 25 Gb/s NRZ lanes: 100 Gb/s x 10 s = 1e12 bits; 1e3 corrected = 1e-9 < 1e-8
            "100 Gb/sec (4X EDR)|1000|null|0|null|null",
            // 2e4 corrected = 2e-8 > 1e-8
            "100 Gb/sec (4X EDR)|20000|null|0|warning|pre-FEC BER 2.00e-08 (estimated from the link rate: no rx_bits_phy), above the NRZ threshold 1.0e-08 on enp65s0f0np0",
            // the same count on a 50 Gb/s-per-lane PAM4 link is healthy
            "200 Gb/sec (4X HDR)|40000|null|0|null|null",
            // 4e12 bits x 3e-5 = 1.2e8 corrected, measured against rx_bits_phy
            "400 Gb/sec (4X NDR)|120000000|4000000000000|0|warning|pre-FEC BER 3.00e-05, above the PAM4 threshold 2.4e-05 on enp65s0f0np0",
            // errors past FEC: critical whatever the BER
            "200 Gb/sec (4X HDR)|100|null|30|critical|pre-FEC BER 5.00e-11 (estimated from the link rate: no rx_bits_phy), below the PAM4 threshold 2.4e-05; 3.0/s symbol errors past FEC (rx_pcs_symbol_err_phy): traffic is lost on enp65s0f0np0"})
    void berAgainstItsModulationsThreshold(String rate, long corrected, Long received, long symbolErrors,
                                           String severity, String evidence) {
        long bytesPerSecond = Long.parseLong(rate.substring(0, rate.indexOf(' '))) * 125_000_000L;
        IbPort before = port(rate, bytesPerSecond, 1_000_000, received == null ? null : 10_000_000L, 7);
        IbPort after = port(rate, bytesPerSecond, 1_000_000 + corrected,
                received == null ? null : 10_000_000L + received, 7 + symbolErrors);

        Optional<Finding> finding = new FecBerHigh().evaluate(new PortInput(new IbDevice("mlx5_4", 1, "CA", null, null,
                "x", "MT4129", null, List.of(after)), before, after, 10_000, null, 0), DiagnosisConfig.defaults());

        assertEquals(Optional.ofNullable(severity), finding.map(f -> f.severity().id()));
        assertEquals(Optional.ofNullable(evidence), finding.map(Finding::evidence));
    }

    /** The FEC encoding in the sample: named in the evidence, explains errors with FEC off, and tells PAM4 without a rate. */
    @ParameterizedTest(name = "{0} FEC {1}: +{2} corrected of +{3} bits, +{4} symbol errors")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "400 Gb/sec (4X NDR)|RS|120000000|4000000000000|0|warning|pre-FEC BER 3.00e-05 under RS FEC, above the PAM4 threshold 2.4e-05 on enp65s0f0np0",
            "200 Gb/sec (4X HDR)|Off|0|2000000000000|30|critical|3.0/s symbol errors with FEC off (ethtool --show-fec: Off; rx_pcs_symbol_err_phy): every one is a lost frame; a PAM4 link needs RS FEC: set it on both ends (ethtool --set-fec IF encoding rs) on enp65s0f0np0",
            "25 Gb/sec (1X EDR)|Off|0|250000000000|30|critical|3.0/s symbol errors with FEC off (ethtool --show-fec: Off; rx_pcs_symbol_err_phy): every one is a lost frame on enp65s0f0np0",
            // no rate: LLRS says PAM4 (1e-7 is healthy there), BASE-R says nothing more than the NRZ default
            "null|LLRS|100000|1000000000000|0|null|null",
            "null|BaseR|100000|1000000000000|0|warning|pre-FEC BER 1.00e-07 under BaseR FEC, above the NRZ threshold 1.0e-08 on enp65s0f0np0"})
    void theFecEncodingInTheSample(String rate, String fec, long corrected, long received, long symbolErrors,
                                   String severity, String evidence) {
        Long bytesPerSecond = rate == null ? null : Long.parseLong(rate.substring(0, rate.indexOf(' '))) * 125_000_000L;
        FecMode mode = new FecMode(fec, List.of(fec));
        IbPort before = withFec(port(rate, bytesPerSecond, 1_000_000, 10_000_000L, 7), mode);
        IbPort after = withFec(port(rate, bytesPerSecond, 1_000_000 + corrected, 10_000_000L + received,
                7 + symbolErrors), mode);

        Optional<Finding> finding = new FecBerHigh().evaluate(new PortInput(new IbDevice("mlx5_4", 1, "CA", null, null,
                "x", "MT4129", null, List.of(after)), before, after, 10_000, null, 0), DiagnosisConfig.defaults());

        assertEquals(Optional.ofNullable(severity), finding.map(f -> f.severity().id()));
        assertEquals(Optional.ofNullable(evidence), finding.map(Finding::evidence));
    }

    private static IbPort withFec(IbPort p, FecMode fec) {
        return p.toBuilder().fec(fec).build();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"100 Gb/sec (4X EDR)|false", "25 Gb/sec (1X EDR)|false",
            "200 Gb/sec (4X HDR)|true", "100 Gb/sec (2X HDR)|true", "400 Gb/sec (4X NDR)|true", "50 Gb/sec (1X HDR)|true"})
    void modulationFromTheLaneRate(String rate, boolean pam4) {
        long bytesPerSecond = Long.parseLong(rate.substring(0, rate.indexOf(' '))) * 125_000_000L;
        assertEquals(pam4, isPam4(port(rate, bytesPerSecond, 0, null, 0)));
    }

    private static boolean isPam4(IbPort port) {
        // the threshold the rule picks shows the modulation: 1e-7 BER warns on NRZ only
        IbPort after = port(port.rate(), port.rateBytesPerSecond(), (long) (port.rateBytesPerSecond() * 8 * 10 * 1e-7),
                null, 0);
        return new FecBerHigh().evaluate(new PortInput(new IbDevice("mlx5_4", 1, "CA", null, null, "x", null, null,
                List.of(after)), port, after, 10_000, null, 0), DiagnosisConfig.defaults()).isEmpty();
    }

    private static IbPort port(String rate, Long bytesPerSecond, long corrected, Long received, long symbolErrors) {
        Map<String, Long> raw = new LinkedHashMap<>();
        raw.put("rx_bytes", 0L);
        raw.put("rx_corrected_bits_phy", corrected);
        if (received != null) {
            raw.put("rx_bits_phy", received);
        }
        raw.put("rx_pcs_symbol_err_phy", symbolErrors);
        return IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp").rate(rate)
                .rateBytesPerSecond(bytesPerSecond).linkLayer("Ethernet").lid("0x0").netdev("enp65s0f0np0")
                .ethtool(EthtoolStats.of("enp65s0f0np0", raw)).build();
    }
}
