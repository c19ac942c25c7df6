package io.rdmamon.agent.sim;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The transceiver in a simulated RoCE port's cage, written as the EEPROM image {@code ethtool -m IF raw on} gives
 * ({@code ethtool/<if>/module}): a 100G-SR4 QSFP28 (SFF-8636, 640 bytes with page 03h thresholds) or a 400G-SR8
 * QSFP-DD (CMIS 5.0: lower, 00h, 01h, 02h, 10h, 11h). Encoded to the offsets the agent's decoder reads
 * (docs/reference/physical-layer.md §3), so the demo exercises the real read path.
 *
 * <p>{@code dirty-optic}: one lane's Rx power falls {@link #DIRTY_FALL_DB_PER_SECOND} per simulated second down to
 * {@link #DIRTY_FLOOR_DBM} (a connector collecting dust, then a fiber barely passing light), and the link's
 * pre-FEC BER rises with the lost margin ({@link #preFecBer()}).
 */
final class SimulatedOptic {
    static final double DIRTY_FALL_DB_PER_SECOND = 1.2;
    static final double DIRTY_FLOOR_DBM = -16;
    /** The lane that gets dirty (lane 2). */
    static final int DIRTY_LANE = 1;
    /** Healthy pre-FEC BER of a PAM4 link (50G lanes); NRZ links run much cleaner. */
    private static final double HEALTHY_PAM4_BER = 1e-9;
    private static final double HEALTHY_NRZ_BER = 1e-12;
    private static final int PAGE = 128;

    private final boolean cmis;
    private final String serial;
    private final boolean pam4;
    private final double[] rxDbm;
    private final double[] nominalRxDbm;
    private final boolean dirty;
    private double temperature;

    /** {@code cmis}: a QSFP-DD (8 lanes) instead of a QSFP28 (4 lanes). */
    SimulatedOptic(boolean cmis, String serial, boolean pam4, boolean dirty, double temperature) {
        this.cmis = cmis;
        this.serial = serial;
        this.pam4 = pam4;
        this.dirty = dirty;
        this.temperature = temperature;
        int lanes = cmis ? 8 : 4;
        nominalRxDbm = new double[lanes];
        for (int lane = 0; lane < lanes; lane++) {
            nominalRxDbm[lane] = -1.5 - 0.2 * lane;
        }
        rxDbm = nominalRxDbm.clone();
    }

    /** Another module of the same kind in the cage: a new serial, clean and at the old one's temperature. */
    SimulatedOptic replacedBy(String newSerial) {
        return new SimulatedOptic(cmis, newSerial, pam4, false, temperature);
    }

    /** {@code seconds} of simulated time; the dirt accumulates only outside the warm-up. */
    void advance(double seconds, boolean warmUp) {
        if (dirty && !warmUp) {
            rxDbm[DIRTY_LANE] = Math.max(DIRTY_FLOOR_DBM, rxDbm[DIRTY_LANE] - DIRTY_FALL_DB_PER_SECOND * seconds);
        }
    }

    /** BER before FEC: the healthy one, times 10 for every 2 dB the worst lane lost. */
    double preFecBer() {
        double lost = 0;
        for (int lane = 0; lane < rxDbm.length; lane++) {
            lost = Math.max(lost, nominalRxDbm[lane] - rxDbm[lane]);
        }
        return Math.min(1e-2, (pam4 ? HEALTHY_PAM4_BER : HEALTHY_NRZ_BER) * Math.pow(10, lost / 2));
    }

    byte[] image() {
        return cmis ? cmisImage() : sff8636Image();
    }

    private byte[] sff8636Image() {
        byte[] b = new byte[5 * PAGE];
        b[0] = 0x11;
        b[1] = 0x08;
        u16(b, 22, (int) Math.round(temperature * 256));
        u16(b, 26, 33000);
        for (int lane = 0; lane < 4; lane++) {
            u16(b, 34 + 2 * lane, power(rxDbm[lane]));
            u16(b, 42 + 2 * lane, 3500); // 7 mA
            u16(b, 50 + 2 * lane, power(-0.5));
        }
        b[128] = 0x11;
        text(b, 148, 16, "NVIDIA");
        text(b, 168, 16, "MMA1B00-C100D");
        text(b, 184, 2, "A1");
        text(b, 196, 16, serial);
        text(b, 212, 8, "240315");
        int p03 = 4 * PAGE - PAGE;
        thresholds(b, p03);
        return b;
    }

    private byte[] cmisImage() {
        byte[] b = new byte[6 * PAGE];
        b[0] = 0x18;
        b[1] = 0x50;
        b[3] = 0x07;
        u16(b, 14, (int) Math.round(temperature * 256));
        u16(b, 16, 33000);
        b[128] = 0x18;
        text(b, 129, 16, "NVIDIA");
        text(b, 148, 16, "MMA4Z00-NS400");
        text(b, 164, 2, "A0");
        text(b, 166, 16, serial);
        text(b, 182, 8, "240611");
        int p01 = 2 * PAGE - PAGE;
        b[p01 + 160] = 0x07; // Tx bias, Tx power, Rx power monitored; bias multiplier x1
        int p02 = 3 * PAGE - PAGE;
        u16(b, p02 + 128, 75 * 256, -5 * 256, 70 * 256, 0);
        u16(b, p02 + 136, 36300, 29700, 34650, 31350);
        u16(b, p02 + 176, power(4), power(-8.4), power(3), power(-6.4));
        u16(b, p02 + 184, 7500, 1000, 6500, 1500);
        u16(b, p02 + 192, power(4), power(-10.4), power(3), power(-8.4));
        int p11 = 5 * PAGE - PAGE;
        for (int lane = 0; lane < 8; lane++) {
            u16(b, p11 + 154 + 2 * lane, power(0.5));
            u16(b, p11 + 170 + 2 * lane, 4000); // 8 mA
            u16(b, p11 + 186 + 2 * lane, power(rxDbm[lane]));
        }
        return b;
    }

    /** SFF-8636 page 03h: temperature, Vcc, Rx power, Tx bias, Tx power (HA, LA, HW, LW) of a 100G-SR4. */
    private static void thresholds(byte[] b, int p03) {
        u16(b, p03 + 128, 75 * 256, -5 * 256, 70 * 256, 0);
        u16(b, p03 + 144, 36300, 29700, 34650, 31350);
        u16(b, p03 + 176, power(3.4), power(-13.3), power(2.4), power(-11.3));
        u16(b, p03 + 184, 7500, 1000, 6500, 1500);
        u16(b, p03 + 192, power(3.4), power(-10.4), power(2.4), power(-8.4));
    }

    /** dBm to the EEPROM's 0.1 µW units (clamped to the u16 range). */
    private static int power(double dbm) {
        double tenthsOfMicrowatts = Math.pow(10, dbm / 10) * 1e4;
        return (int) Math.max(1, Math.min(0xFFFF, Math.round(tenthsOfMicrowatts)));
    }

    private static void u16(byte[] b, int at, int... values) {
        for (int i = 0; i < values.length; i++) {
            b[at + 2 * i] = (byte) (values[i] >> 8);
            b[at + 2 * i + 1] = (byte) values[i];
        }
    }

    private static void text(byte[] b, int at, int width, String text) {
        byte[] padded = new byte[width];
        Arrays.fill(padded, (byte) ' ');
        byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(ascii, 0, padded, 0, Math.min(width, ascii.length));
        System.arraycopy(padded, 0, b, at, width);
    }
}
