package io.rdmamon.collector.live;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fleet rows' numbers: four significant digits, short JSON text, the value a JSON parser reads back. */
class DisplayNumbersTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @CsvSource({
            // value, text: the shapes the fleet rows carry (rates in bytes and packets, a link rate, shares, BER, dB)
            "1.0818976647887323E10, 1082e7",
            "2.5E10, 25e9",
            "4000000, 4000000",
            "3154477.0, 3154000",
            "12345678, 1235e4",
            "2641351.1066398392, 2641000",
            "0.954947166666826, 0.9549",
            "0.75, 0.75",
            "1, 1",
            "0, 0",
            "-0.0, 0",
            "12.3456, 12.35",
            "9.201853124111613, 9.202",
            "-3.14159, -3.142",
            "0.001234567, 0.001235",
            "0.0001234567, 1235e-7",
            "1.0311871227364185E-9, 1031e-12",
            "1.02E-9, 102e-11",
            "9999.6, 10000",
            "99996, 100000",
            "999.96, 1000",
            "0.99996, 1",
            "1000, 1000",
            "123.44999, 123.4",
            "5E-324, 4.9E-324",
            "1.7976931348623157E308, 1.7976931348623157E308"
    })
    void fourSignificantDigitsAsShortJsonNumbers(double value, String text) throws IOException {
        String actual = DisplayNumbers.text(value);
        assertEquals(text, actual, "text of " + value);
        double parsed = JSON.readTree(actual).doubleValue();
        assertTrue(JSON.readTree(actual).isNumber(), actual + " is a JSON number");
        if (Math.abs(value) > 1e-300 && Math.abs(value) < 1e300) {
            double expected = new BigDecimal(value).round(new MathContext(DisplayNumbers.DIGITS, RoundingMode.HALF_UP))
                    .doubleValue();
            assertEquals(expected, parsed, Math.abs(expected) * 1e-12, "read back: " + actual);
        }
    }

    @ParameterizedTest
    @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
    void whatJsonCannotCarryIsNull(double value) {
        assertNull(DisplayNumbers.text(value));
    }

    /** Every value from 10^-15 to 10^15 in steps of about 1.7 %: read back as the decimal rounding to four digits. */
    @ParameterizedTest
    @ValueSource(doubles = {1.0, -1.0})
    void aSweepOverTheRangeReadsBackAsTheDecimalRounding(double sign) throws IOException {
        for (double value = 1e-15; value < 1e15; value *= 1.0173) {
            double signed = sign * value;
            String text = DisplayNumbers.text(signed);
            double expected = new BigDecimal(signed).round(new MathContext(DisplayNumbers.DIGITS, RoundingMode.HALF_UP))
                    .doubleValue();
            assertEquals(expected, Double.parseDouble(text), Math.abs(expected) * 1e-12, signed + " -> " + text);
            assertTrue(text.length() <= 9, "short: " + text);
        }
    }
}
