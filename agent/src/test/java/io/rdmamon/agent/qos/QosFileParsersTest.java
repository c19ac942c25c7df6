package io.rdmamon.agent.qos;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QosFileParsersTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "1     | true",
            "0     | false",
            "'1\n' | true",
            "''    | null"})
    void ecnEnable(String text, Boolean expected) {
        assertEquals(expected, QosFileParsers.ecnEnabled(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2", "on", "-1", "1 1"})
    void ecnEnableGarbageQuotesIt(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QosFileParsers.ecnEnabled(text));
        assertTrue(e.getMessage().contains("\"" + text + "\""), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "''                                  | null",
            "Global tclass=106                   | 106",
            "Global tclass=138                   | 138",
            "'Global tclass=0\ndst_ip 10.0.0.1 tclass=96' | 0",
            "Global tclass=-1                    | null"})
    void trafficClass(String text, Integer expected) {
        assertEquals(expected, QosFileParsers.trafficClass(text));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "tclass 106            | unknown traffic_class format \"tclass 106\"",
            "106                   | unknown traffic_class format \"106\"",
            "Global tclass=256     | 256 is outside 0..255"})
    void trafficClassUnknownFormatsAreRefused(String text, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> QosFileParsers.trafficClass(text));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"0 | 0", "138 | 138", "255 | 255"})
    void defaultRoceTos(String text, int expected) {
        assertEquals(expected, QosFileParsers.defaultRoceTos(text));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"256 | outside 0..255", "'' | empty", "x | expected an integer"})
    void defaultRoceTosGarbage(String text, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> QosFileParsers.defaultRoceTos(text));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void cnpFieldsAreRangeChecked() {
        assertEquals(40, QosFileParsers.integerIn("40", 0, 63));
        assertNull(QosFileParsers.integerIn("", 0, 63));
        assertThrows(IllegalArgumentException.class, () -> QosFileParsers.integerIn("64", 0, 63));
    }

    @Test
    void ncclConfAsNcclReadsIt() {
        String text = """
                # written by doRoCE
                NCCL_IB_TC=138

                NCCL_IB_GID_INDEX=5\r
                NCCL_IB_HCA=^mlx5_4,mlx5_7:1
                not a setting
                NCCL_IB_TC=96
                NCCL_SOCKET_IFNAME = bond1
                  # indented, not a comment for NCCL=yes
                """;
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("NCCL_IB_TC", "138");
        expected.put("NCCL_IB_GID_INDEX", "5");
        expected.put("NCCL_IB_HCA", "^mlx5_4,mlx5_7:1");
        expected.put("NCCL_SOCKET_IFNAME ", " bond1");
        expected.put("  # indented, not a comment for NCCL", "yes");

        assertEquals(expected, QosFileParsers.ncclConf(text));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"=106 | line 1: no name before '='"})
    void ncclConfGarbageNamesTheLine(String text, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QosFileParsers.ncclConf(text));
        assertEquals(expected, e.getMessage());
    }

    @Test
    void ncclConfIsBounded() {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i <= QosFileParsers.NCCL_MAX_ENTRIES; i++) {
            many.append("K").append(i).append("=1\n");
        }
        assertThrows(IllegalArgumentException.class, () -> QosFileParsers.ncclConf(many.toString()));
        String longValue = "K=" + "x".repeat(QosFileParsers.NCCL_MAX_FIELD_CHARS + 1);
        assertThrows(IllegalArgumentException.class, () -> QosFileParsers.ncclConf(longValue));
    }
}
