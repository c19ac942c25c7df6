package io.rdmamon.protocol.exposition;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Sample values and escaping exactly as the client library wrote them (Double.toString, +Inf, -Inf). */
class ExpositionBytesTest {
    private static String value(double v) {
        ExpositionBytes bytes = new ExpositionBytes(16);
        bytes.value(v);
        return new String(bytes.toByteArray(), StandardCharsets.US_ASCII);
    }

    @Test
    void specialValuesAndFractionsAsTheLibraryWritesThem() {
        assertEquals("+Inf", value(Double.POSITIVE_INFINITY));
        assertEquals("-Inf", value(Double.NEGATIVE_INFINITY));
        assertEquals("NaN", value(Double.NaN));
        assertEquals("-0.0", value(-0.0));
        assertEquals("0.0", value(0));
        assertEquals("5.0E-4", value(500 / 1e6));
        assertEquals("1.700000003E9", value(1_700_000_003_000L / 1000.0));
        assertEquals("1.8446744073709552E19", value(1.8446744073709552E19)); // u64 max, as unsignedToDouble gives it
        assertEquals("-3.0", value(-3));
    }

    @Test
    void integersMatchDoubleToStringAroundEveryBoundary() {
        long[] edges = {0, 1, 9, 10, 9_999_999, 10_000_000, 10_000_001, 12_000_000, 123_456_789, 1L << 52,
                (1L << 53) - 1, 1L << 53, (1L << 53) + 2, 1_000_000_000_000_000L, Long.MAX_VALUE};
        for (long e : edges) {
            for (long v = Math.max(0, e - 3); v <= e + 3 && v >= 0; v++) {
                assertEquals(Double.toString((double) v), value((double) v), "value " + v);
            }
        }
    }

    @Test
    void randomIntegersOfEveryMagnitudeMatchDoubleToString() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 500_000; i++) {
            int bits = 1 + random.nextInt(62);
            long v = random.nextLong() >>> (64 - bits);
            if (random.nextInt(3) == 0) {
                v = v >>> random.nextInt(bits) << random.nextInt(64 - bits); // few significant bits, large exponent
            }
            double d = (double) v;
            assertEquals(Double.toString(d), value(d), "value " + v);
        }
    }

    @Test
    void labelValuesEscapeBackslashQuoteAndNewlineOnly() {
        assertEquals("a\\\\b\\\"c\\nd\te\u00e9",
                new String(ExpositionBytes.escapeLabelValue("a\\b\"c\nd\te\u00e9"), StandardCharsets.UTF_8));
        assertEquals("help \"q\" \\\\ b\\nnl", ExpositionBytes.escapeHelp("help \"q\" \\ b\nnl", false));
        assertEquals("help \\\"q\\\" \\\\ b\\nnl", ExpositionBytes.escapeHelp("help \"q\" \\ b\nnl", true));
    }

    /** Every fraction twice, many sharing a slot of the cache: each time exactly what Double.toString gives. */
    @Test
    void repeatedAndCollidingFractionsMatchDoubleToString() {
        SplittableRandom random = new SplittableRandom(11);
        double[] values = new double[20_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextInt(4) == 0 ? Double.longBitsToDouble(random.nextLong()) : random.nextDouble() * 1e3 - 50;
        }
        for (int round = 0; round < 2; round++) {
            for (double v : values) {
                String expected = v == Double.POSITIVE_INFINITY ? "+Inf" : v == Double.NEGATIVE_INFINITY ? "-Inf"
                        : v >= 0 && v < (1L << 53) && v == Math.rint(v) ? value(v) : Double.toString(v);
                assertEquals(expected, value(v), "value bits " + Long.toHexString(Double.doubleToRawLongBits(v)));
            }
        }
    }

    /** Labels as written in place match the escaping of {@link ExpositionBytes#escapeLabelValue}, UTF-8 included. */
    @Test
    void labelsWrittenInPlaceAreEscapedAndUtf8() {
        ExpositionBytes bytes = new ExpositionBytes(16);
        bytes.label(true, "device", "mlx5_0");
        bytes.label(false, "part", "a\\b\"c\nd");
        bytes.label(false, "vendor", "Caf\u00e9 \u4e2d");
        assertEquals("{device=\"mlx5_0\",part=\"a\\\\b\\\"c\\nd\",vendor=\"Caf\u00e9 \u4e2d\"",
                new String(bytes.toByteArray(), StandardCharsets.UTF_8));
    }
}
