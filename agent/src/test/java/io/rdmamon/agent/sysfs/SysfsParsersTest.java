package io.rdmamon.agent.sysfs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SysfsParsersTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "4: ACTIVE            | 4 | ACTIVE",
            "1: DOWN              | 1 | DOWN",
            "5: ACTIVE_DEFER      | 5 | ACTIVE_DEFER",
            "5: LinkUp            | 5 | LinkUp",
            "7: Phy Test          | 7 | Phy Test",
            "4: PortConfigurationTraining | 4 | PortConfigurationTraining",
            "0: <unknown>         | 0 | <unknown>",
            "1: CA                | 1 | CA",
            "4: RNIC              | 4 | RNIC",
            "6: usNIC UDP         | 6 | usNIC UDP"})
    void idNames(String text, int id, String name) {
        assertEquals(new IdName(id, name), SysfsParsers.parseIdName(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ACTIVE", "4:ACTIVE", "four: ACTIVE", "4: ", "-1: DOWN", "99999999999: X"})
    void idNameGarbageIsRefusedQuotingTheText(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SysfsParsers.parseIdName(text));
        assertTrue(e.getMessage().contains("\"" + text + "\""), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "100 Gb/sec (4X EDR)  | 12500000000",
            "2.5 Gb/sec (1X SDR)  | 312500000",
            "25 Gb/sec (1X EDR)   | 3125000000",
            "40 Gb/sec (4X QDR)   | 5000000000",
            "56 Gb/sec (4X FDR)   | 7000000000",
            "500 Gb/sec (4X HDR)  | 62500000000",
            "800 Gb/sec (8X NDR)  | 100000000000",
            "10 Gb/sec (4X)       | 1250000000",
            "0 GB/sec             | 0"})
    void rates(String text, long bytesPerSecond) {
        assertEquals(bytesPerSecond, SysfsParsers.parseRateBytesPerSecond(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "fast", "100 Mb/sec (1X)", "Gb/sec (4X EDR)", "1.2.3 Gb/sec (4X EDR)",
            "0.0000000001 Gb/sec", "0.000000001 Gb/sec (1X SDR)", "99999999999999999999 Gb/sec (4X EDR)",
            "-100 Gb/sec (4X EDR)", "1e3 Gb/sec", "100\u0000 Gb/sec"})
    void rateGarbageIsRefusedQuotingTheText(String text) {
        // before: a fraction of a byte or a rate beyond a long threw ArithmeticException, which no caller caught
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SysfsParsers.parseRateBytesPerSecond(text));
        assertTrue(e.getMessage().contains(ProblemText.quote(text)), e.getMessage());
    }

    /** Every parser refuses odd input with IllegalArgumentException (one file's problem), never another exception. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "counter | 18446744073709551616",
            "counter | 99999999999999999999999999999999999999",
            "counter | -1",
            "counter | ''",
            "counter | 12\u00003",
            "counter | \ufffd\ufffd",
            "counter | 1.5",
            "idName  | 4: ACT\u0000IVE",
            "idName  | 2147483648: DOWN",
            "gid     | fe80:0000:0000:0000:0000:0000:0000:00\u00000",
            "devPort | -1",
            "devPort | 99999999999",
            "devId   | 0x-1",
            "devId   | 0x",
            "text    | Infini\u0000Band",
            "text    | Infini\u0007Band",
            "text    | 2.31.\ufffd050"})
    void everyParserRefusesOddInputWithOneKindOfError(String parser, String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
            switch (parser) {
                case "counter" -> SysfsParsers.parseCounter(text);
                case "idName" -> SysfsParsers.parseIdName(text);
                case "gid" -> SysfsParsers.parseGid(text);
                case "devPort" -> SysfsParsers.parseDevPort(text);
                case "devId" -> SysfsParsers.parseDevId(text);
                case "text" -> SysfsParsers.parseText(text);
                default -> throw new AssertionError(parser);
            }
        });
        assertTrue(e.getMessage().contains(ProblemText.quote(text)), e.getMessage());
        assertFalse(e.getMessage().chars().anyMatch(c -> c < 0x20 || c == 0xfffd), "problem text is escaped: " + e.getMessage());
    }

    @Test
    void problemTextIsQuotedAndEscaped() {
        assertEquals("\"InfiniBand\"", ProblemText.quote("InfiniBand"));
        assertEquals("\"a\\0b\\nc\\x1b\\x7f\"", ProblemText.quote("a\0b\nc\u001b\u007f"));
        assertEquals("\"say \\\"hi\\\" \\\\\"", ProblemText.quote("say \"hi\" \\"));
        assertEquals("\"2.31.\\ufffd050\"", ProblemText.quote("2.31.\ufffd050"));
    }

    @Test
    void longProblemTextIsCut() {
        String quoted = ProblemText.quote("7".repeat(5000));
        assertEquals("\"" + "7".repeat(ProblemText.MAX_QUOTED_CHARS) + "\"…(5000 chars)", quoted);
    }

    @Test
    void countersAreUnsigned64BitAndNoPmaIsAbsent() {
        assertEquals(0L, SysfsParsers.parseCounter("0"));
        assertEquals(4294967295L, SysfsParsers.parseCounter("4294967295"));
        assertEquals("18446744073709551615", Long.toUnsignedString(SysfsParsers.parseCounter("18446744073709551615")));
        assertNull(SysfsParsers.parseCounter("N/A (no PMA)"));
        for (String garbage : new String[] {"", "-1", "12abc", "0x10", "18446744073709551616"}) {
            assertThrows(IllegalArgumentException.class, () -> SysfsParsers.parseCounter(garbage), garbage);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "0000:0000:0000:0000:0000:ffff:c0a8:0102 | 192.168.1.2",
            "0000:0000:0000:0000:0000:ffff:0a00:00ff | 10.0.0.255",
            "0000:0000:0000:0000:0000:FFFF:C0A8:0102 | 192.168.1.2",
            "fe80:0000:0000:0000:bace:f6ff:fea1:b2c4 | null",
            "2001:0db8:0000:0000:0000:ffff:c0a8:0102 | null",
            "0000:0000:0000:0000:0000:0000:c0a8:0102 | null"})
    void ipv4OfIpv4MappedGidsOnly(String text, String ipv4) {
        assertEquals(ipv4, SysfsParsers.ipv4OfGid(SysfsParsers.parseGid(text)));
    }

    @Test
    void emptyGidsAreTheAllZeroAndTheBareLinkLocalEntry() {
        assertTrue(SysfsParsers.isEmptyGid("0000:0000:0000:0000:0000:0000:0000:0000"));
        assertTrue(SysfsParsers.isEmptyGid("fe80:0000:0000:0000:0000:0000:0000:0000"));
        assertFalse(SysfsParsers.isEmptyGid("fe80:0000:0000:0000:bace:f6ff:fea1:b2c4"));
        assertThrows(IllegalArgumentException.class, () -> SysfsParsers.parseGid("fe80::1"));
        assertThrows(IllegalArgumentException.class, () -> SysfsParsers.parseGid("zz80:0000:0000:0000:0000:0000:0000:0000"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "0216:3eff:fe01:0203 | 00:16:3e:01:02:03",
            "bace:f6ff:fea1:b2c4 | b8:ce:f6:a1:b2:c4",
            "0000:00ff:fe00:0000 | 02:00:00:00:00:00",
            "b8ce:f603:00a1:b2c4 | null",
            "not-a-guid          | null"})
    void macOfEui64NodeGuid(String guid, String mac) {
        assertEquals(mac, SysfsParsers.macOfEui64Guid(guid));
    }

    @Test
    void devPortIsDecimalAndDevIdHex() {
        assertEquals(1, SysfsParsers.parseDevPort("1"));
        assertEquals(1, SysfsParsers.parseDevId("0x1"));
        assertEquals(16, SysfsParsers.parseDevId("0x10"));
        assertThrows(IllegalArgumentException.class, () -> SysfsParsers.parseDevPort("0x1"));
    }

    @Test
    void oneBoundedReadTrimsTrailingBlankLines(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("link_layer"), "InfiniBand\n\n");
        assertEquals("InfiniBand", SysfsFiles.readOnce(file));
        Path big = Files.writeString(dir.resolve("big"), "x".repeat(10_000));
        assertEquals(SysfsFiles.MAX_ATTRIBUTE_BYTES, SysfsFiles.readOnce(big).length());
    }
}
