package io.rdmamon.agent.module;

import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.TransceiverModule.Lane;
import io.rdmamon.protocol.model.TransceiverModule.Limits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The decoders on images built to the specs ({@link Images}), checked against the values
 * docs/reference/physical-layer.md §3.4 decodes
 * from the real modules' bytes (mW, mA, °C, V there; watts, amperes here).
 */
class ModuleDecoderTest {
    private static final double EPSILON = 1e-9;

    @Test
    void sff8636Qsfp28WithPage03hThresholds() {
        TransceiverModule m = ModuleDecoder.decode(Images.qsfp28().bytes());

        assertEquals(List.of("SFF-8636", 0x11, "QSFP28", "QSFPTEK", "QT-QSFP28-ER4", "1A", "QT14241028003", "241028"),
                List.of(m.standard(), m.identifier(), m.type(), m.vendor(), m.part(), m.revision(), m.serial(), m.date()));
        near(33.238, m.temperatureCelsius(), 0.001);
        near(3.3167, m.voltageVolts(), 1e-9);
        assertLanes(m.lanes(), new double[][]{
                {0.0001e-3, 1.4228e-3, 57.502e-3}, {0.0001e-3, 1.8148e-3, 55.486e-3},
                {0.0001e-3, 1.5724e-3, 57.502e-3}, {0.0001e-3, 1.3166e-3, 62.482e-3}});
        assertLimits(new Limits(75, -5, 70, 0), m.thresholds().temperatureCelsius());
        assertLimits(new Limits(3.63, 2.97, 3.465, 3.135), m.thresholds().voltageVolts());
        assertLimits(new Limits(0.5623e-3, 0.0071e-3, 0.4467e-3, 0.0089e-3), m.thresholds().rxPowerWatts());
        assertLimits(new Limits(110e-3, 20e-3, 100e-3, 30e-3), m.thresholds().txBiasAmperes());
        assertLimits(new Limits(5.6234e-3, 0.3548e-3, 4.4668e-3, 0.4466e-3), m.thresholds().txPowerWatts());
        assertEquals(List.of(), m.notes());
    }

    @Test
    void sff8636WithoutPage03hOrFlatHasNoThresholdsAndSaysWhy() {
        TransceiverModule read256 = ModuleDecoder.decode(Images.qsfp28().truncated(256));
        TransceiverModule flat = ModuleDecoder.decode(Images.qsfp28().u8(2, 0x04).bytes());

        assertNull(read256.thresholds());
        assertEquals(List.of("no page 03h in the image (256 bytes, 640 needed): no thresholds"), read256.notes());
        assertEquals(4, read256.lanes().size());
        assertNull(flat.thresholds());
        assertEquals(List.of("flat memory (byte 2 bit 2): no page 03h, so no thresholds"), flat.notes());
    }

    @Test
    void sff8636CopperWithoutDomHasNoReadings() {
        TransceiverModule dac = ModuleDecoder.decode(Images.qsfp28().u16(22, 0).bytes());

        assertNull(dac.temperatureCelsius());
        assertEquals(List.of(), dac.lanes());
        assertEquals(List.of("no digital diagnostics (temperature reads 0x0: a passive cable or a module without DOM)"),
                dac.notes());
    }

    @Test
    void cmisQsfpDdWithLanesAndPage02hThresholds() {
        TransceiverModule m = ModuleDecoder.decode(Images.qsfpDd().bytes());

        assertEquals(List.of("CMIS", 0x18, "QSFP-DD", "Eoptolink", "EOLD-168HG-10-1", "01", "DR4R030015", "250428"),
                List.of(m.standard(), m.identifier(), m.type(), m.vendor(), m.part(), m.revision(), m.serial(), m.date()));
        near(49.742, m.temperatureCelsius(), 0.001);
        near(3.3173, m.voltageVolts(), 1e-9);
        double[] tx = {1.4866, 1.5710, 1.7212, 1.5369, 1.5030, 1.4920, 1.6069, 1.5156};
        double[] bias = {110.200, 109.554, 97.018, 101.238, 106.766, 110.000, 110.100, 110.300};
        double[] rx = {2.4581, 2.2837, 2.5964, 2.5075, 1.8168, 2.4799, 2.6419, 2.3416};
        double[][] lanes = new double[8][];
        for (int i = 0; i < 8; i++) {
            lanes[i] = new double[]{rx[i] * 1e-3, tx[i] * 1e-3, bias[i] * 1e-3};
        }
        assertLanes(m.lanes(), lanes);
        assertLimits(new Limits(78, -8, 73, -3), m.thresholds().temperatureCelsius());
        assertLimits(new Limits(3.63, 2.97, 3.465, 3.135), m.thresholds().voltageVolts());
        assertLimits(new Limits(5.1286e-3, 0.3388e-3, 4.0738e-3, 0.4266e-3), m.thresholds().txPowerWatts());
        assertLimits(new Limits(130e-3, 10e-3, 125e-3, 15e-3), m.thresholds().txBiasAmperes());
        assertLimits(new Limits(5.7544e-3, 0.0708e-3, 4.5709e-3, 0.0891e-3), m.thresholds().rxPowerWatts());
    }

    /** Page 01h byte 160 bits 4:3 = 1: bias counts in 4 µA (OIF-CMIS 5.4 Table 8-53), lanes and thresholds alike. */
    @Test
    void cmisBiasMultiplierMultiplies() {
        TransceiverModule m = ModuleDecoder.decode(Images.qsfpDd().u8(128 + 160, 0x07 | (1 << 3)).bytes());

        near(2 * 110.200e-3, m.lanes().get(0).txBiasAmperes(), EPSILON);
        near(2 * 130e-3, m.thresholds().txBiasAmperes().highAlarm(), EPSILON);
    }

    @Test
    void cmisLowerAndPage00hOnlyAsTheIoctlWouldGiveIt() {
        TransceiverModule m = ModuleDecoder.decode(Images.qsfpDd().truncated(256));

        assertEquals("DR4R030015", m.serial());
        near(49.742, m.temperatureCelsius(), 0.001);
        assertNull(m.thresholds());
        assertEquals(List.of(), m.lanes());
        assertEquals(List.of("no page 02h in the image (256 bytes): no thresholds",
                "no page 11h in the image (256 bytes, 768 needed): no lane readings"), m.notes());
    }

    @Test
    void cmisMonitorsNotSupportedAreAbsent() {
        TransceiverModule m = ModuleDecoder.decode(Images.qsfpDd().u8(128 + 160, 0x04).bytes());

        assertEquals(8, m.lanes().size());
        near(2.4581e-3, m.lanes().get(0).rxPowerWatts(), EPSILON);
        assertNull(m.lanes().get(0).txPowerWatts());
        assertNull(m.lanes().get(0).txBiasAmperes());
    }

    @Test
    void sff8472InternallyCalibrated() {
        TransceiverModule m = ModuleDecoder.decode(Images.sfp().bytes());

        assertEquals(List.of("SFF-8472", 3, "SFP", "CHAMPION ONE", "10GSFP+E-LR", "ATF0G5M", "150409"),
                List.of(m.standard(), m.identifier(), m.type(), m.vendor(), m.part(), m.serial(), m.date()));
        near(34.875, m.temperatureCelsius(), EPSILON);
        near(3.3016, m.voltageVolts(), EPSILON);
        assertLanes(m.lanes(), new double[][]{{0, 0.0266e-3, 0}});
        assertLimits(new Limits(78, -13, 73, -8), m.thresholds().temperatureCelsius());
        assertLimits(new Limits(3.7, 2.9, 3.6, 3.0), m.thresholds().voltageVolts());
        assertLimits(new Limits(85e-3, 15e-3, 80e-3, 20e-3), m.thresholds().txBiasAmperes());
        assertLimits(new Limits(1.5849e-3, 0.1585e-3, 1.2589e-3, 0.1995e-3), m.thresholds().txPowerWatts());
        assertLimits(new Limits(1.7783e-3, 0.0100e-3, 1.5849e-3, 0.0158e-3), m.thresholds().rxPowerWatts());
    }

    /**
     * External calibration (A0h 92 bit 4): slope (u8.u8) × count + offset (s16) for T, V, bias, Tx; Rx power by
     * SFF-8472's 4th order polynomial. Constants chosen exact in binary: Rx4 = 2^-27, Rx2 = 2^-10, Rx1 = 2, Rx0 = 4
     * at count 1024 give 2^13 + 2^10 + 2^11 + 4 = 11,268 × 0.1 µW (ethtool, which applies Rx2..Rx4 linearly and
     * drops Rx4, would print a different value).
     */
    @Test
    void sff8472ExternallyCalibratedFollowsTheSpecPolynomial() {
        int a2 = 256;
        Images image = Images.sfp().u8(92, 0x58)
                .f32(a2 + 56, (float) Math.pow(2, -27)).f32(a2 + 60, 0f).f32(a2 + 64, (float) Math.pow(2, -10))
                .f32(a2 + 68, 2f).f32(a2 + 72, 4f)
                .u16(a2 + 76, 0x0200, 0).u16(a2 + 80, 0x0080, 10).u16(a2 + 84, 0x0180, -256).u16(a2 + 88, 0x0100, 100)
                .u16(a2 + 96, 0x1000, 33000, 10000, 20000, 1024);

        TransceiverModule m = ModuleDecoder.decode(image.bytes());

        near(23.0, m.temperatureCelsius(), EPSILON);
        near(3.31, m.voltageVolts(), EPSILON);
        near(40e-3, m.lanes().get(0).txBiasAmperes(), EPSILON);
        near(1.001e-3, m.lanes().get(0).txPowerWatts(), EPSILON);
        near(1.1268e-3, m.lanes().get(0).rxPowerWatts(), EPSILON);
        assertEquals(List.of("externally calibrated: values from SFF-8472's slopes, offsets and Rx power polynomial"),
                m.notes());
    }

    @Test
    void sff8472WithoutA2hOrWithoutDomSaysWhy() {
        assertEquals(List.of("no A2h page in the image (256 bytes): no diagnostics"),
                ModuleDecoder.decode(Images.sfp().truncated(256)).notes());
        TransceiverModule noDom = ModuleDecoder.decode(Images.sfp().u8(92, 0x00).bytes());
        assertEquals(List.of("no digital diagnostics (A0h byte 92 bit 6 clear: a passive cable or a module without DOM)"),
                noDom.notes());
        assertNull(noDom.temperatureCelsius());
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("empty", new byte[0], "empty module EEPROM image"),
                Arguments.of("unknown identifier", new Images(256).u8(0, 0x42).bytes(),
                        "unknown module identifier 0x42 at byte 0 (SFF-8024): not SFP (0x03), QSFP/QSFP+/QSFP28 "
                                + "(0x0c, 0x0d, 0x11) or a CMIS module (0x18, 0x19, 0x1b, 0x1e, 0x1f, 0x20)"),
                Arguments.of("no module (all ones)", new Images(256).u8(0, 0xff).bytes(),
                        "unknown module identifier 0xff at byte 0 (SFF-8024): not SFP (0x03), QSFP/QSFP+/QSFP28 "
                                + "(0x0c, 0x0d, 0x11) or a CMIS module (0x18, 0x19, 0x1b, 0x1e, 0x1f, 0x20)"),
                Arguments.of("truncated SFP", Images.sfp().truncated(100),
                        "module EEPROM image of 100 bytes is truncated: SFF-8472 needs at least 256 (A0h (the ID page))"),
                Arguments.of("truncated QSFP28", Images.qsfp28().truncated(200),
                        "module EEPROM image of 200 bytes is truncated: SFF-8636 needs at least 256 (the lower page and upper page 00h)"),
                Arguments.of("truncated CMIS", Images.qsfpDd().truncated(128),
                        "module EEPROM image of 128 bytes is truncated: CMIS needs at least 256 (the lower page and page 00h)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void imagesItCannotDecodeAreRefusedNamingWhy(String name, byte[] image, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> ModuleDecoder.decode(image)).getMessage());
    }

    private static void assertLanes(List<Lane> lanes, double[][] expected) {
        assertEquals(expected.length, lanes.size());
        for (int i = 0; i < expected.length; i++) {
            Lane lane = lanes.get(i);
            assertEquals(i + 1, lane.lane());
            near(expected[i][0], lane.rxPowerWatts(), EPSILON);
            near(expected[i][1], lane.txPowerWatts(), EPSILON);
            near(expected[i][2], lane.txBiasAmperes(), EPSILON);
        }
    }

    private static void assertLimits(Limits expected, Limits actual) {
        near(expected.highAlarm(), actual.highAlarm(), EPSILON);
        near(expected.lowAlarm(), actual.lowAlarm(), EPSILON);
        near(expected.highWarning(), actual.highWarning(), EPSILON);
        near(expected.lowWarning(), actual.lowWarning(), EPSILON);
    }

    private static void near(double expected, Double actual, double tolerance) {
        assertEquals(expected, actual, tolerance);
    }
}
