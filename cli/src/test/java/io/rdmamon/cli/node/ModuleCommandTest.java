package io.rdmamon.cli.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rdmamon module -i IF} on an {@code ethtool -m IF raw on} capture under a host root. */
class ModuleCommandTest {

    @Test
    void decodesTheCaptureWithPowersInMilliwattsAndDbmAgainstThresholds(@TempDir Path root) throws IOException {
        hostRoot(root, qsfp28());

        CliRun run = CliRun.of("module", "-i", "ens9f0np0", "--host-root", root.toString());

        assertEquals(0, run.exitCode(), run::toString);
        String out = run.out();
        assertTrue(out.contains("\tIdentifier                                      : 0x11 (QSFP28, SFF-8636)\n"), out);
        assertTrue(out.contains("\tVendor SN                                       : QT14241028003\n"), out);
        assertTrue(out.contains("\tModule temperature                              : 33.24 degrees C  [warn 0.00..70.00, alarm -5.00..75.00]\n"), out);
        assertTrue(out.contains("\tTransmit avg optical power (Channel 1)          : 1.4228 mW / 1.53 dBm  [warn 0.4466..4.4668, alarm 0.3548..5.6234]\n"), out);
        assertTrue(out.contains("\tRcvr signal avg optical power (Channel 4)       : 0.0001 mW / -40.00 dBm  [warn 0.0089..0.4467, alarm 0.0071..0.5623]\n"), out);
        assertTrue(out.contains("\tLaser bias current (Channel 4)                  : 62.482 mA"), out);
    }

    @Test
    void jsonNoModuleAndABadImage(@TempDir Path root) throws IOException {
        hostRoot(root, qsfp28());
        Files.createDirectories(root.resolve("sys/class/net/ens9f1np1"));
        Files.createDirectories(root.resolve("sys/class/net/ens9f2np2"));
        Files.createDirectories(root.resolve("ethtool/ens9f2np2"));
        Files.write(root.resolve("ethtool/ens9f2np2/module"), new byte[]{0x11, 0x08});

        JsonNode json = new ObjectMapper().readTree(CliRun.of("module", "-i", "ens9f0np0", "--json", "--host-root",
                root.toString()).out());
        CliRun none = CliRun.of("module", "-i", "ens9f1np1", "--host-root", root.toString());
        CliRun bad = CliRun.of("module", "-i", "ens9f2np2", "--host-root", root.toString());
        CliRun unknown = CliRun.of("module", "-i", "eth7", "--host-root", root.toString());

        assertEquals("QSFPTEK", json.get("vendor").asText());
        assertEquals(4, json.get("lanes").size());
        assertEquals(0.0014228, json.get("lanes").get(0).get("txPowerWatts").asDouble(), 1e-12);
        assertEquals("ens9f1np1: no module (no cage, an empty cage, or no capture under the host root)\n", none.out());
        assertEquals(1, bad.exitCode(), bad::toString);
        assertArrayEquals(new String[] {"rdmamon: ethtool -m ens9f2np2: module EEPROM image of 2 bytes is truncated: "
                + "SFF-8636 needs at least 256 (the lower page and upper page 00h)"}, bad.errLines());
        assertEquals(2, unknown.exitCode());
    }

    private static void hostRoot(Path root, byte[] image) throws IOException {
        Files.createDirectories(root.resolve("sys/class/net/ens9f0np0"));
        Files.createDirectories(root.resolve("ethtool/ens9f0np0"));
        Files.write(root.resolve("ethtool/ens9f0np0/module"), image);
    }

    /** The QSFPTEK QSFP28 of docs/reference/physical-layer.md §3.4, built to SFF-8636 (lower, 00h, 01h-03h; 640 bytes).
     * */
    private static byte[] qsfp28() {
        byte[] b = new byte[640];
        b[0] = 0x11;
        b[1] = 0x08;
        u16(b, 22, 0x213d);
        u16(b, 26, 0x818f);
        u16(b, 34, 1, 1, 1, 1);
        u16(b, 42, 0x704f, 0x6c5f, 0x704f, 0x7a09);
        u16(b, 50, 0x3794, 0x46e4, 0x3d6c, 0x336e);
        text(b, 148, "QSFPTEK         ");
        text(b, 168, "QT-QSFP28-ER4   ");
        text(b, 196, "QT14241028003   ");
        int p03 = 384;
        u16(b, p03 + 128, 75 * 256, -5 * 256, 70 * 256, 0);
        u16(b, p03 + 144, 36300, 29700, 34650, 31350);
        u16(b, p03 + 176, 5623, 71, 4467, 89);
        u16(b, p03 + 184, 55000, 10000, 50000, 15000);
        u16(b, p03 + 192, 56234, 3548, 44668, 4466);
        return b;
    }

    private static void u16(byte[] b, int at, int... values) {
        for (int i = 0; i < values.length; i++) {
            b[at + 2 * i] = (byte) (values[i] >> 8);
            b[at + 2 * i + 1] = (byte) values[i];
        }
    }

    private static void text(byte[] b, int at, String text) {
        byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(ascii, 0, b, at, ascii.length);
    }
}
