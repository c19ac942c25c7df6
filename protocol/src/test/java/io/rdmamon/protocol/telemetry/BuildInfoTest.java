package io.rdmamon.protocol.telemetry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BuildInfoTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "0.1.0-SNAPSHOT          | 0.1.0-SNAPSHOT",
            "3fa9c1e                 | 3fa9c1e",
            "${git.commit.id.abbrev} | unknown",
            "''                      | unknown",
            "null                    | unknown",
    })
    void aValueMavenDidNotFillInIsUnknown(String value, String expected) {
        assertEquals(expected, BuildInfo.filtered(value));
    }

    /** The Maven build filled in the version (the reactor's) and the Java runtime is this one. */
    @Test
    void theCurrentBuildNamesItsVersionAndJava() {
        BuildInfo build = BuildInfo.current();
        assertTrue(build.version().matches("\\d+\\.\\d+\\.\\d+.*"), build.version());
        assertNotEquals("", build.revision());
        assertEquals(System.getProperty("java.runtime.version"), build.java());
    }
}
