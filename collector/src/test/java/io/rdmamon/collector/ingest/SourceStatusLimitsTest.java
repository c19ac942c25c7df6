package io.rdmamon.collector.ingest;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.wire.Frame;

/** A source status's reason, failed or unsupported alike, is text the API and dashboard show: bounded and printable. */
class SourceStatusLimitsTest {
    private final FrameLimits limits = new FrameLimits(IngestLimits.defaults());

    private static Frame.Values values(SourceStatus status) {
        return new Frame.Values(1, 1, 1, new long[0], new BitSet(), List.of(SourceStatus.ok("sysfs", "rxe0"), status));
    }

    private static SourceStatus status(boolean unsupported, String reason) {
        return unsupported ? SourceStatus.unsupported("qos", "eth1", reason)
                : SourceStatus.failed("qos", "eth1", reason);
    }

    @ParameterizedTest(name = "unsupported {0}")
    @CsvSource({"true, unsupported", "false, error"})
    void aPrintableReasonPassesAndAnUnprintableOneIsRefusedNamingItsField(boolean unsupported, String field) {
        assertDoesNotThrow(() -> limits.check(values(status(unsupported, "no DCB support on eth1 (EOPNOTSUPP)"))));

        StreamRefusal refusal = assertThrows(StreamRefusal.class,
                () -> limits.check(values(status(unsupported, "no DCB\u001b[2J"))));

        assertTrue(refusal.getMessage().startsWith("values.sources[1]." + field + " "), refusal.getMessage());
    }

    @ParameterizedTest(name = "unsupported {0}")
    @CsvSource({"true, unsupported", "false, error"})
    void aReasonBeyondTheTextLimitIsRefused(boolean unsupported, String field) {
        StreamRefusal refusal = assertThrows(StreamRefusal.class,
                () -> limits.check(values(status(unsupported, "x".repeat(IngestLimits.MAX_TEXT_CHARS + 1)))));

        assertTrue(refusal.getMessage().startsWith("values.sources[1]." + field + " has "), refusal.getMessage());
    }
}
