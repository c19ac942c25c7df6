package io.rdmamon.agent.module;

import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.TransceiverModule.Lane;
import io.rdmamon.protocol.model.TransceiverModule.Limits;
import io.rdmamon.protocol.model.TransceiverModule.Thresholds;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Decodes a module EEPROM image into a {@link TransceiverModule} (docs/reference/physical-layer.md §3; offsets and
 * units from SFF-8472
 * 12.4.3, SFF-8636 2.11 and OIF-CMIS 5.4). Pure: the image is {@code ethtool -m IF raw on}'s flat buffer, or for CMIS
 * the 128-byte pages lower, 00h, 01h, 02h, 10h, 11h concatenated (what the agent reads through netlink; absent pages
 * at the end may be left off). Throws {@link IllegalArgumentException} naming the byte or length at fault for an image
 * it cannot decode (truncated below its standard's minimum, an identifier no standard here covers).
 *
 * <p>Units of the raw values (all big-endian): temperature s16 in 1/256 °C; supply voltage u16 in 100 µV; Tx bias u16
 * in 2 µA (CMIS: times the page 01h multiplier); optical power u16 in 0.1 µW.
 */
public final class ModuleDecoder {
    /** SFF-8024 identifiers, with their names as ethtool prints them (short). */
    private static final Map<Integer, String> SFF_8636_TYPES = Map.of(0x0C, "QSFP", 0x0D, "QSFP+", 0x11, "QSFP28");
    private static final Map<Integer, String> CMIS_TYPES = Map.of(0x18, "QSFP-DD", 0x19, "OSFP", 0x1B, "DSFP",
            0x1E, "QSFP+ (CMIS)", 0x1F, "SFP-DD", 0x20, "SFP+ (CMIS)");
    static final int SFP = 0x03;
    private static final int PAGE = 128;

    private ModuleDecoder() {
    }

    /** A CMIS module's SFF-8024 identifier (QSFP-DD, OSFP, ...): its image is the paged layout. */
    static boolean isCmis(int id) {
        return CMIS_TYPES.containsKey(id);
    }

    /** An SFF-8636 (QSFP, QSFP+, QSFP28) identifier. */
    static boolean isSff8636(int id) {
        return SFF_8636_TYPES.containsKey(id);
    }

    public static TransceiverModule decode(byte[] image) {
        if (image.length == 0) {
            throw new IllegalArgumentException("empty module EEPROM image");
        }
        int id = u8(image, 0);
        if (id == SFP) {
            return sff8472(image);
        }
        if (SFF_8636_TYPES.containsKey(id)) {
            return sff8636(image, id);
        }
        if (CMIS_TYPES.containsKey(id)) {
            return cmis(image, id);
        }
        throw new IllegalArgumentException(String.format(Locale.ROOT,
                "unknown module identifier 0x%02x at byte 0 (SFF-8024): not SFP (0x03), QSFP/QSFP+/QSFP28 (0x0c, 0x0d, "
                        + "0x11) or a CMIS module (0x18, 0x19, 0x1b, 0x1e, 0x1f, 0x20)", id));
    }

    // ---- SFF-8472: A0h at 0-255, A2h at 256-511 ----

    private static TransceiverModule sff8472(byte[] image) {
        requireLength(image, 2 * PAGE, "SFF-8472", "A0h (the ID page)");
        List<String> notes = new ArrayList<>();
        int diagType = u8(image, 92);
        String vendor = text(image, 20, 16);
        String part = text(image, 40, 16);
        String revision = text(image, 56, 4);
        String serial = text(image, 68, 16);
        String date = text(image, 84, 6);
        if ((diagType & 0x40) == 0) {
            notes.add("no digital diagnostics (A0h byte 92 bit 6 clear: a passive cable or a module without DOM)");
            return new TransceiverModule("SFF-8472", SFP, "SFP", vendor, part, revision, serial, date, null, null,
                    List.of(), null, notes);
        }
        if (image.length < 4 * PAGE) {
            notes.add("no A2h page in the image (" + image.length + " bytes): no diagnostics");
            return new TransceiverModule("SFF-8472", SFP, "SFP", vendor, part, revision, serial, date, null, null,
                    List.of(), null, notes);
        }
        int a2 = 2 * PAGE;
        Calibration cal = (diagType & 0x10) != 0 ? Calibration.external(image, a2) : Calibration.INTERNAL;
        if ((diagType & 0x10) != 0) {
            notes.add("externally calibrated: values from SFF-8472's slopes, offsets and Rx power polynomial");
        }
        double temperature = cal.temperature(s16(image, a2 + 96));
        double voltage = cal.voltage(u16(image, a2 + 98));
        Lane lane = new Lane(1, cal.rxPower(u16(image, a2 + 104)), cal.txPower(u16(image, a2 + 102)),
                cal.bias(u16(image, a2 + 100)));
        Thresholds thresholds = new Thresholds(
                limits(i -> cal.temperature(s16(image, a2 + i)), 0),
                limits(i -> cal.voltage(u16(image, a2 + i)), 8),
                limits(i -> cal.rxPower(u16(image, a2 + i)), 32),
                limits(i -> cal.txPower(u16(image, a2 + i)), 24),
                limits(i -> cal.bias(u16(image, a2 + i)), 16));
        return new TransceiverModule("SFF-8472", SFP, "SFP", vendor, part, revision, serial, date, temperature,
                voltage, List.of(lane), thresholds, notes);
    }

    /**
     * SFF-8472 §9: internally calibrated values are in the standard units; externally calibrated ones are A/D counts
     * to be turned into them with the constants at A2h 56-91 (value = slope × count + offset; Rx power by a 4th order
     * polynomial). ethtool applies the Rx polynomial linearly (docs/reference/physical-layer.md §3.1); this follows the
     * spec.
     */
    private record Calibration(double[] rx, double biasSlope, double biasOffset, double txSlope, double txOffset,
                               double tSlope, double tOffset, double vSlope, double vOffset) {
        static final Calibration INTERNAL = new Calibration(null, 1, 0, 1, 0, 1, 0, 1, 0);

        static Calibration external(byte[] image, int a2) {
            double[] rx = new double[5]; // rx[k] = Rx_PWR(k)
            for (int k = 0; k <= 4; k++) {
                rx[k] = Float.intBitsToFloat(s32(image, a2 + 72 - 4 * k));
            }
            return new Calibration(rx, slope(image, a2 + 76), s16(image, a2 + 78), slope(image, a2 + 80),
                    s16(image, a2 + 82), slope(image, a2 + 84), s16(image, a2 + 86), slope(image, a2 + 88),
                    s16(image, a2 + 90));
        }

        double temperature(int raw) {
            return (tSlope * raw + tOffset) / 256.0;
        }

        double voltage(int raw) {
            return (vSlope * raw + vOffset) * 100e-6;
        }

        double bias(int raw) {
            return (biasSlope * raw + biasOffset) * 2e-6;
        }

        double txPower(int raw) {
            return (txSlope * raw + txOffset) * 1e-7;
        }

        double rxPower(int raw) {
            if (rx == null) {
                return raw * 1e-7;
            }
            double ad = raw;
            return (rx[4] * ad * ad * ad * ad + rx[3] * ad * ad * ad + rx[2] * ad * ad + rx[1] * ad + rx[0]) * 1e-7;
        }

        /** Unsigned fixed point 8.8: the integer part, then 1/256ths. */
        private static double slope(byte[] image, int at) {
            return u16(image, at) / 256.0;
        }
    }

    // ---- SFF-8636: lower page, upper page 00h, then pages 01h, 02h, 03h (640 bytes) ----

    private static TransceiverModule sff8636(byte[] image, int id) {
        requireLength(image, 2 * PAGE, "SFF-8636", "the lower page and upper page 00h");
        List<String> notes = new ArrayList<>();
        String type = SFF_8636_TYPES.get(id);
        String vendor = text(image, 148, 16);
        String part = text(image, 168, 16);
        String revision = text(image, 184, 2);
        String serial = text(image, 196, 16);
        String date = text(image, 212, 6);
        int temperatureRaw = u16(image, 22);
        if (temperatureRaw == 0 || temperatureRaw == 0xFFFF) {
            // ethtool's test too (sff8636_show_dom): a copper cable reads 0 here
            notes.add("no digital diagnostics (temperature reads 0x" + Integer.toHexString(temperatureRaw)
                    + ": a passive cable or a module without DOM)");
            return new TransceiverModule("SFF-8636", id, type, vendor, part, revision, serial, date, null, null,
                    List.of(), null, notes);
        }
        List<Lane> lanes = new ArrayList<>(4);
        for (int lane = 0; lane < 4; lane++) {
            lanes.add(new Lane(lane + 1, u16(image, 34 + 2 * lane) * 1e-7, u16(image, 50 + 2 * lane) * 1e-7,
                    u16(image, 42 + 2 * lane) * 2e-6));
        }
        Thresholds thresholds = null;
        boolean flat = (u8(image, 2) & 0x04) != 0;
        if (flat) {
            notes.add("flat memory (byte 2 bit 2): no page 03h, so no thresholds");
        } else if (image.length < 5 * PAGE) {
            notes.add("no page 03h in the image (" + image.length + " bytes, 640 needed): no thresholds");
        } else {
            int p03 = 4 * PAGE - PAGE; // page 03h byte N (128..255) is at 512 + N - 128
            thresholds = new Thresholds(
                    limits(i -> s16(image, p03 + i) / 256.0, 128),
                    limits(i -> u16(image, p03 + i) * 100e-6, 144),
                    limits(i -> u16(image, p03 + i) * 1e-7, 176),
                    limits(i -> u16(image, p03 + i) * 1e-7, 192),
                    limits(i -> u16(image, p03 + i) * 2e-6, 184));
        }
        return new TransceiverModule("SFF-8636", id, type, vendor, part, revision, serial, date,
                s16(image, 22) / 256.0, u16(image, 26) * 100e-6, lanes, thresholds, notes);
    }

    // ---- CMIS: lower, 00h, 01h, 02h, 10h, 11h (bank 0), 128 bytes each ----

    private static TransceiverModule cmis(byte[] image, int id) {
        requireLength(image, 2 * PAGE, "CMIS", "the lower page and page 00h");
        List<String> notes = new ArrayList<>();
        String type = CMIS_TYPES.get(id);
        String vendor = text(image, 129, 16);
        String part = text(image, 148, 16);
        String revision = text(image, 164, 2);
        String serial = text(image, 166, 16);
        String date = text(image, 182, 6);
        Double temperature = s16(image, 14) / 256.0;
        Double voltage = u16(image, 16) * 100e-6;
        if ((u8(image, 2) & 0x80) != 0) {
            notes.add("flat memory (byte 2 bit 7): no pages 01h-11h, so no lane readings or thresholds");
            return new TransceiverModule("CMIS", id, type, vendor, part, revision, serial, date, temperature, voltage,
                    List.of(), null, notes);
        }
        Thresholds thresholds = null;
        if (image.length >= 4 * PAGE) {
            int p02 = 3 * PAGE - PAGE; // page 02h byte N (128..255) is at 384 + N - 128
            thresholds = new Thresholds(
                    limits(i -> s16(image, p02 + i) / 256.0, 128),
                    limits(i -> u16(image, p02 + i) * 100e-6, 136),
                    limits(i -> u16(image, p02 + i) * 1e-7, 192),
                    limits(i -> u16(image, p02 + i) * 1e-7, 176),
                    limits(i -> u16(image, p02 + i) * 2e-6 * biasMultiplier(image), 184));
        } else {
            notes.add("no page 02h in the image (" + image.length + " bytes): no thresholds");
        }
        List<Lane> lanes = new ArrayList<>();
        if (image.length >= 6 * PAGE) {
            int monitors = u8(image, 2 * PAGE + 160 - PAGE); // page 01h byte 160
            int p11 = 5 * PAGE - PAGE; // page 11h byte N is at 640 + N - 128
            double bias = 2e-6 * biasMultiplier(image);
            for (int lane = 0; lane < 8; lane++) {
                lanes.add(new Lane(lane + 1,
                        (monitors & 0x04) != 0 ? u16(image, p11 + 186 + 2 * lane) * 1e-7 : null,
                        (monitors & 0x02) != 0 ? u16(image, p11 + 154 + 2 * lane) * 1e-7 : null,
                        (monitors & 0x01) != 0 ? u16(image, p11 + 170 + 2 * lane) * bias : null));
            }
        } else {
            notes.add("no page 11h in the image (" + image.length + " bytes, 768 needed): no lane readings");
        }
        return new TransceiverModule("CMIS", id, type, vendor, part, revision, serial, date, temperature, voltage,
                lanes, thresholds, notes);
    }

    /**
     * Page 01h byte 160 bits 4:3: the Tx bias multiplier, 0 → ×1, 1 → ×2, 2 → ×4 (OIF-CMIS 5.4 Table 8-53; ethtool
     * shifts right instead, docs/reference/physical-layer.md §3.3 — this follows the spec). 1 when page 01h is not in
     * the image.
     */
    private static int biasMultiplier(byte[] image) {
        if (image.length < 3 * PAGE) {
            return 1;
        }
        int code = (u8(image, 2 * PAGE + 160 - PAGE) >> 3) & 0x03;
        return code == 3 ? 1 : 1 << code; // 3 is reserved
    }

    // ---- bytes ----

    @FunctionalInterface
    private interface Reading {
        double at(int offset);
    }

    /** High alarm, low alarm, high warning, low warning: four 2-byte values from {@code first}. */
    private static Limits limits(Reading reading, int first) {
        return new Limits(reading.at(first), reading.at(first + 2), reading.at(first + 4), reading.at(first + 6));
    }

    private static void requireLength(byte[] image, int minimum, String standard, String what) {
        if (image.length < minimum) {
            throw new IllegalArgumentException("module EEPROM image of " + image.length + " bytes is truncated: "
                    + standard + " needs at least " + minimum + " (" + what + ")");
        }
    }

    /** ASCII, space padded (SFF-8024); null when blank. */
    private static String text(byte[] image, int from, int length) {
        String text = new String(image, from, length, StandardCharsets.US_ASCII).replace('\0', ' ').strip();
        return text.isEmpty() ? null : text;
    }

    private static int u8(byte[] image, int at) {
        return image[at] & 0xFF;
    }

    private static int u16(byte[] image, int at) {
        return (u8(image, at) << 8) | u8(image, at + 1);
    }

    private static int s16(byte[] image, int at) {
        return (short) u16(image, at);
    }

    private static int s32(byte[] image, int at) {
        return (u16(image, at) << 16) | u16(image, at + 2);
    }
}
