package io.rdmamon.protocol.exposition;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExpositionGzipTest {
    @Test
    void gzipOnlyWhenAcceptedWithoutQZero() {
        assertTrue(ExpositionGzip.accepted("gzip"));
        assertTrue(ExpositionGzip.accepted("deflate, GZIP;q=0.5"));
        assertTrue(ExpositionGzip.accepted("*"));
        assertFalse(ExpositionGzip.accepted(null));
        assertFalse(ExpositionGzip.accepted("identity"));
        assertFalse(ExpositionGzip.accepted("gzip;q=0"));
        assertFalse(ExpositionGzip.accepted("gzip; q=0.0, identity"));
    }
}
