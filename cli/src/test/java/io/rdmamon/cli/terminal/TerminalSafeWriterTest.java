package io.rdmamon.cli.terminal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TerminalSafeWriterTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "plain text|plain text",
            "mlx5_0\tport 1|mlx5_0\tport 1",
            "py\u001b[31mthon|py\\x1b[31mthon",
            "over\rwrite|over\\x0dwrite",
            "be\u0007ll|be\\x07ll",
            "del\u007f c1\u009b|del\\x7f c1\\x9b",
            "right-to-left \u202eevil|right-to-left \\u202eevil",
            "isolate \u2066x\u2069|isolate \\u2066x\\u2069",
            "ünïcödé µs|ünïcödé µs",
    })
    void escapesWhatCouldDriveATerminal(String text, String printed) throws IOException {
        StringWriter sink = new StringWriter();
        try (PrintWriter out = new PrintWriter(new TerminalSafeWriter(sink))) {
            out.print(text);
            out.print('\u001b'); // a single character goes through write(int)
        }
        assertEquals(printed + "\\x1b", sink.toString());
        assertEquals(printed, TerminalSafeWriter.escape(text));
    }

    @Test
    void newlinesStayLineBreaks() {
        StringWriter sink = new StringWriter();
        try (PrintWriter out = new PrintWriter(new TerminalSafeWriter(sink))) {
            out.print("a\nb\n");
            out.println("c");
        }
        assertEquals("a\nb\nc" + System.lineSeparator(), sink.toString());
    }
}
