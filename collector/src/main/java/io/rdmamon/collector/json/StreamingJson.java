package io.rdmamon.collector.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * JSON text written straight through a Jackson generator. The live feed and the diagnoses API
 * render thousands of rows per tick on the event loop; building a {@code JsonObject} tree first
 * doubled the garbage.
 */
public final class StreamingJson {
    private static final JsonFactory JSON = new JsonFactory();

    private StreamingJson() {
    }

    /** Writes one JSON value (object, array, ...) to a generator. */
    @FunctionalInterface
    public interface Writer {
        void write(JsonGenerator g) throws IOException;
    }

    /** The text {@code writer} produces. */
    public static String write(Writer writer) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            writer.write(g);
        } catch (IOException e) {
            // a StringWriter does not fail; only a bug in a writer (unbalanced objects) gets here
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
