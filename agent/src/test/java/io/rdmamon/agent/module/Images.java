package io.rdmamon.agent.module;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Module EEPROM images built to the specs, byte by byte, with the values of the real modules
 * docs/reference/physical-layer.md §3.4
 * decodes (QSFPTEK QSFP28 ER4, Eoptolink QSFP-DD CMIS 5.0, Champion ONE SFP+ LR) — synthesized from those byte
 * values, not copied from the dumps (which carry no licence).
 */
final class Images {
    private final byte[] bytes;

    Images(int length) {
        bytes = new byte[length];
    }

    byte[] bytes() {
        return bytes.clone();
    }

    byte[] truncated(int length) {
        return Arrays.copyOf(bytes, length);
    }

    Images u8(int at, int value) {
        bytes[at] = (byte) value;
        return this;
    }

    Images u16(int at, int... values) {
        for (int i = 0; i < values.length; i++) {
            bytes[at + 2 * i] = (byte) (values[i] >> 8);
            bytes[at + 2 * i + 1] = (byte) values[i];
        }
        return this;
    }

    Images f32(int at, float value) {
        int bits = Float.floatToIntBits(value);
        return u16(at, bits >>> 16, bits & 0xFFFF);
    }

    /** ASCII padded with spaces to {@code width}. */
    Images text(int at, int width, String text) {
        byte[] ascii = String.format("%-" + width + "s", text).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(ascii, 0, bytes, at, width);
        return this;
    }

    /** The QSFPTEK QT-QSFP28-ER4 of §3.4 as a 640-byte SFF-8636 flat buffer (lower, 00h, 01h, 02h, 03h). */
    static Images qsfp28() {
        Images image = new Images(640).u8(0, 0x11).u8(1, 0x08).u8(2, 0x00).u8(3, 0x0f).u8(5, 0x0f).u8(9, 0x55)
                .u8(10, 0x55)
                .u16(22, 0x213d).u16(26, 0x818f)
                .u16(34, 0x0001, 0x0001, 0x0001, 0x0001)
                .u16(42, 0x704f, 0x6c5f, 0x704f, 0x7a09)
                .u16(50, 0x3794, 0x46e4, 0x3d6c, 0x336e)
                .u8(128, 0x11).text(148, 16, "QSFPTEK").text(168, 16, "QT-QSFP28-ER4").text(184, 2, "1A")
                .text(196, 16, "QT14241028003").text(212, 8, "241028").u8(220, 0x0c);
        int p03 = 384; // page 03h byte N at 384 + N
        return image.u16(p03 + 128, 75 * 256, -5 * 256, 70 * 256, 0)
                .u16(p03 + 144, 36300, 29700, 34650, 31350)
                .u16(p03 + 176, 5623, 71, 4467, 89)
                .u16(p03 + 184, 55000, 10000, 50000, 15000)
                .u16(p03 + 192, 56234, 3548, 44668, 4466);
    }

    /** The Eoptolink EOLD-168HG-10-1 of §3.4: CMIS 5.0, lower, 00h, 01h, 02h, 10h, 11h (768 bytes). */
    static Images qsfpDd() {
        Images image = new Images(768).u8(0, 0x18).u8(1, 0x50).u8(2, 0x00).u8(3, 0x07)
                .u16(14, 0x31be).u16(16, 0x8195)
                .u8(128, 0x18).text(129, 16, "Eoptolink").u8(145, 0x70).u8(146, 0xee).u8(147, 0xa3)
                .text(148, 16, "EOLD-168HG-10-1").text(164, 2, "01").text(166, 16, "DR4R030015").text(182, 8, "250428");
        int p01 = 128; // page 01h byte N at 128 + N
        image.u8(p01 + 142, 0x24).u8(p01 + 151, 0x18).u8(p01 + 160, 0x07);
        int p02 = 256;
        image.u16(p02 + 128, 78 * 256, -8 * 256, 73 * 256, -3 * 256)
                .u16(p02 + 136, 36300, 29700, 34650, 31350)
                .u16(p02 + 176, 51286, 3388, 40738, 4266)
                .u16(p02 + 184, 65000, 5000, 62500, 7500)
                .u16(p02 + 192, 57544, 708, 45709, 891);
        int p11 = 512;
        return image.u16(p11 + 154, 14866, 15710, 17212, 15369, 15030, 14920, 16069, 15156)
                .u16(p11 + 170, 55100, 54777, 48509, 50619, 53383, 55000, 55050, 55150)
                .u16(p11 + 186, 24581, 22837, 25964, 25075, 18168, 24799, 26419, 23416);
    }

    /** The Champion ONE 10GSFP+E-LR of §3.4: SFF-8472, A0h + A2h (512 bytes), internally calibrated. */
    static Images sfp() {
        Images image = new Images(512).u8(0, 0x03).u8(1, 0x04).text(20, 16, "CHAMPION ONE").text(40, 16, "10GSFP+E-LR")
                .text(56, 4, "A").text(68, 16, "ATF0G5M").text(84, 8, "150409").u8(92, 0x68).u8(93, 0xf0);
        int a2 = 256;
        return image.u16(a2, 78 * 256, -13 * 256, 73 * 256, -8 * 256)
                .u16(a2 + 8, 37000, 29000, 36000, 30000)
                .u16(a2 + 16, 42500, 7500, 40000, 10000)
                .u16(a2 + 24, 15849, 1585, 12589, 1995)
                .u16(a2 + 32, 17783, 100, 15849, 158)
                .f32(a2 + 68, 1.0f).u16(a2 + 76, 0x0100).u16(a2 + 80, 0x0100).u16(a2 + 84, 0x0100).u16(a2 + 88, 0x0100)
                .u16(a2 + 96, 0x22e0).u16(a2 + 98, 0x80f8).u16(a2 + 100, 0).u16(a2 + 102, 0x010a).u16(a2 + 104, 0)
                .u8(a2 + 112, 0x05).u8(a2 + 113, 0x40).u8(a2 + 116, 0x05).u8(a2 + 117, 0x40);
    }
}
