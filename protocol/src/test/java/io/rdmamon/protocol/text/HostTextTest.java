package io.rdmamon.protocol.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Host text made fit for the wire: escapes visible, cut with an ellipsis, empty names a placeholder. */
class HostTextTest {
    @ParameterizedTest(name = "name {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            // input (\\e = ESC, \\n = newline, \\t = tab) | as a name | as a text
            "python3                 | python3                   | python3",
            "py\\e[31mthon           | py\\u001b[31mthon         | py\\u001b[31mthon",
            "line one\\n at [Source  | line one\\u000a at [Source | line one\\n at [Source",
            "a\\tb                   | a\\u0009b                  | a\\tb",
            "\"\"                    | ?                         | \"\"",
    })
    void escapesWhatTheCollectorRefuses(String input, String asName, String asText) {
        assertEquals(unescape(asName), HostText.name(unescape(input), 256));
        assertEquals(unescape(asText), HostText.text(unescape(input), 4096));
    }

    @Test
    void aLongTextIsCutToTheLimitWithAnEllipsisInTimeLinearInTheLimit() {
        String cut = HostText.text("x".repeat(10_000_000), 1024);

        assertEquals(1024, cut.length());
        assertTrue(cut.endsWith("x…"), cut);
    }

    @Test
    void escapesCountTowardsTheLimit() {
        String cut = HostText.name("\u001b".repeat(100), 64);

        assertEquals(64, cut.length());
        assertTrue(cut.startsWith("\\u001b\\u001b"), cut);
        assertTrue(cut.endsWith("…"), cut);
    }

    @Test
    void aSurrogatePairIsKeptWholeAndAHalfAloneEscaped() {
        assertEquals("gpu\uD83D\uDE80", HostText.name("gpu\uD83D\uDE80", 256));
        assertEquals("gpu\\ud83d!", HostText.name("gpu\uD83D!", 256));
    }

    @Test
    void cleanTextIsReturnedAsItIsAndNullStaysNull() {
        String clean = "no DCB support on eth1 (EOPNOTSUPP)";

        assertSame(clean, HostText.text(clean, 4096));
        assertNull(HostText.name(null, 256));
        assertNull(HostText.text(null, 4096));
    }

    private static String unescape(String s) {
        return s.replace("\\e", "\u001b").replace("\\n", "\n").replace("\\t", "\t");
    }
}
