package io.rdmamon.agent.probe;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BoundedLinesTest {

    static Stream<Arguments> outputs() {
        return Stream.of(
                Arguments.of("", List.of()),
                Arguments.of("a\nb\n", List.of("a", "b")),
                Arguments.of("a\r\nb", List.of("a", "b")),
                Arguments.of("\n\n", List.of("", "")),
                Arguments.of("abcdefgh\nxy\n", List.of("abcde… (3 more characters cut)", "xy")),
                Arguments.of("abcdefgh", List.of("abcde… (3 more characters cut)")),
                Arguments.of("abcde\n", List.of("abcde")));
    }

    @ParameterizedTest
    @MethodSource("outputs")
    void splitsAndCuts(String output, List<String> expected) throws IOException {
        List<String> lines = new ArrayList<>();
        BoundedLines.forEach(new StringReader(output), 5, lines::add);
        assertEquals(expected, lines);
    }

    /** A child printing 64 MB without a newline: one bounded line comes out, never the whole output in memory. */
    @Test
    void anEndlessLineCostsOneBoundedLine() throws IOException {
        long total = 64L << 20;
        Reader endless = new Reader() {
            long left = total;

            @Override
            public int read(char[] buffer, int off, int len) {
                if (left == 0) {
                    return -1;
                }
                int n = (int) Math.min(len, left);
                java.util.Arrays.fill(buffer, off, off + n, 'x');
                left -= n;
                return n;
            }

            @Override
            public void close() {
            }
        };
        List<String> lines = new ArrayList<>();
        BoundedLines.forEach(endless, BoundedLines.DEFAULT_MAX_CHARS, lines::add);
        assertEquals(1, lines.size());
        assertTrue(lines.get(0).startsWith("x".repeat(BoundedLines.DEFAULT_MAX_CHARS) + "… ("), lines.get(0).substring(4090, 4110));
        assertTrue(lines.get(0).endsWith((total - BoundedLines.DEFAULT_MAX_CHARS) + " more characters cut)"));
    }
}
