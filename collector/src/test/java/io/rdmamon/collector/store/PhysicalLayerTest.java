package io.rdmamon.collector.store;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.TransceiverModule.Lane;
import io.rdmamon.protocol.model.TransceiverModule.Limits;
import io.rdmamon.protocol.model.TransceiverModule.Thresholds;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The figures the port page and the fleet rows show: pre-FEC BER between two samples, Rx margin per lane. */
class PhysicalLayerTest {

    @ParameterizedTest(name = "{0}: +{1} corrected, +{2} received bits in 2 s")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            // 100 Gb/s x 2 s = 2e11 bits: 2e4 corrected is 1e-7, estimated from the rate
            "100|20000|null|1.0E-7|true",
            // rx_bits_phy wins over the rate
            "100|20000|4000000000|5.0E-6|false",
            // no rate and no rx_bits_phy: nothing to divide by
            "null|20000|null|null|null"})
    void preFecBer(Long gbps, long corrected, Long received, Double ber, Boolean estimated) {
        IbPort before = port(gbps, 5_000, received == null ? null : 1_000L);
        IbPort after = port(gbps, 5_000 + corrected, received == null ? null : 1_000L + received);

        PhysicalLayer.PreFecBer result = PhysicalLayer.preFecBer(before, after, 2_000);

        if (ber == null) {
            assertNull(result);
        } else {
            assertEquals(ber, result.ber(), ber * 1e-9);
            assertEquals(estimated, result.estimated());
        }
    }

    @ParameterizedTest(name = "Rx {0} mW against a low warning of {1} mW")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "0.2|0.02|10.0", "0.01|0.02|-3.0103", "0|0.02|null", "null|0.02|null", "0.2|null|null"})
    void rxMarginAboveTheModulesLowWarning(Double rxMilliwatts, Double lowWarningMilliwatts, Double marginDb) {
        Thresholds thresholds = lowWarningMilliwatts == null ? null : new Thresholds(null, null,
                new Limits(5e-3, lowWarningMilliwatts * 1e-3 / 2, 4e-3, lowWarningMilliwatts * 1e-3), null, null);
        Lane lane = new Lane(3, rxMilliwatts == null ? null : rxMilliwatts * 1e-3, null, null);
        TransceiverModule module = new TransceiverModule("SFF-8636", 0x11, "QSFP28", "v", "p", "r", "s", "d", null, null,
                List.of(new Lane(1, 1e-3, null, null), lane), thresholds, List.of());

        Double margin = PhysicalLayer.rxMarginDb(lane, module);

        if (marginDb == null) {
            assertNull(margin);
        } else {
            assertEquals(marginDb, margin, 1e-4);
            assertEquals(Math.min(marginDb, 10 * Math.log10(1e-3 / (lowWarningMilliwatts * 1e-3))),
                    PhysicalLayer.worstRxMarginDb(module), 1e-4, "the worst lane");
        }
    }

    private static IbPort port(Long gbps, long corrected, Long received) {
        Map<String, Long> raw = new LinkedHashMap<>();
        raw.put("rx_corrected_bits_phy", corrected);
        if (received != null) {
            raw.put("rx_bits_phy", received);
        }
        return IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .rate(gbps == null ? null : gbps + " Gb/sec (4X EDR)")
                .rateBytesPerSecond(gbps == null ? null : gbps * 125_000_000L).linkLayer("Ethernet").lid("0x0")
                .netdev("ens5f1np1").ethtool(EthtoolStats.of("ens5f1np1", raw)).build();
    }
}
