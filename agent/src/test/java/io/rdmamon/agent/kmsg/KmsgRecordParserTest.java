package io.rdmamon.agent.kmsg;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KmsgRecordParserTest {

    private static KmsgRecord parse(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return KmsgRecordParser.parse(bytes, bytes.length);
    }

    @Test
    void headerTextAndContinuationLines() {
        KmsgRecord record = parse("3,1024,5843210123,-;mlx5_core 0000:3b:00.0: poll_health:852:(pid 0): device's"
                + " health compromised - reached miss count\n SUBSYSTEM=pci\n DEVICE=+pci:0000:3b:00.0\n");
        assertEquals(0, record.facility());
        assertEquals(3, record.level());
        assertEquals(1024, record.seq());
        assertEquals(5843210123L, record.timestampMicros());
        assertEquals("mlx5_core 0000:3b:00.0: poll_health:852:(pid 0): device's health compromised - reached miss"
                + " count", record.text());
        assertEquals(Map.of("SUBSYSTEM", "pci", "DEVICE", "+pci:0000:3b:00.0"), record.dictionary());
        assertEquals("+pci:0000:3b:00.0", record.device());
        assertTrue(record.fromKernel());
    }

    @Test
    void userspaceWritesCarryFacilityUser() {
        // echo '<2>mlx5_core …' > /dev/kmsg reads back as prefix 10: facility 1 (LOG_USER), level 2
        KmsgRecord record = parse("10,77,100,-;mlx5_core 0000:3b:00.0: Fatal error 1 detected\n");
        assertEquals(1, record.facility());
        assertEquals(2, record.level());
        assertFalse(record.fromKernel());
    }

    @Test
    void extraHeaderFieldsAreIgnored() {
        // since 5.x the header may carry more comma-separated fields (caller id) before the ';'
        KmsgRecord record = parse("6,5,10,c,caller=T12;rdma_rxe: loaded\n");
        assertEquals("rdma_rxe: loaded", record.text());
        assertEquals(6, record.level());
    }

    @Test
    void escapesAreDecodedAndNonUtf8BytesReplaced() {
        byte[] bytes = "4,9,1,-;eth\\x09x caf\\xc3\\xa9 \\x5cbad \\x1b[31m \u0000".getBytes(StandardCharsets.ISO_8859_1);
        bytes[bytes.length - 1] = (byte) 0xff; // a raw byte that is not UTF-8
        KmsgRecord record = KmsgRecordParser.parse(bytes, bytes.length);
        // tab kept; an escape character (a terminal sequence) replaced like the byte that is not UTF-8
        assertEquals("eth\tx café \\bad \uFFFD[31m \uFFFD", record.text());
    }

    @Test
    void aLongTextIsCut() {
        KmsgRecord record = parse("4,9,1,-;" + "x".repeat(5000) + "\n");
        assertEquals(KmsgRecordParser.MAX_TEXT_CHARS, record.text().length());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "no header at all", "3,12;cut", "x,1,2,-;text", "3,-1,2,-;text", "3,1,2;short",
            "99999999999,1,2,-;big prefix"})
    void malformedHeadersAreNoRecord(String text) {
        assertNull(parse(text));
    }
}
