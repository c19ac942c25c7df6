package io.rdmamon.cli.log;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/**
 * One JSON object per line, for log shippers: {@code {"ts":"2026-11-26T14:20:30.123Z","level":"INFO",
 * "logger":"io.rdmamon.collector.ingest.AgentConnection","msg":"…"}}, plus {@code "thrown":{"class":…,
 * "message":…,"summary":…}} when the event carries a throwable, with {@code "stack"} (the whole trace as one string)
 * for unexpected errors only ({@link LogLines#withStack}). Written by Jackson with every non-ASCII character
 * escaped, so each event is one line of ASCII whatever the message holds and whatever the locale's charset.
 */
public final class JsonLogFormatter extends Formatter {
    private static final JsonFactory JSON = new JsonFactoryBuilder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    @Override
    public String format(LogRecord record) {
        StringWriter out = new StringWriter(200);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("ts", LogLines.timestamp(record.getInstant()));
            json.writeStringField("level", LogLines.level(record.getLevel()));
            json.writeStringField("logger", record.getLoggerName() == null ? "" : record.getLoggerName());
            json.writeStringField("msg", LogLines.message(this, record));
            Throwable thrown = record.getThrown();
            if (thrown != null) {
                json.writeObjectFieldStart("thrown");
                json.writeStringField("class", thrown.getClass().getName());
                json.writeStringField("message", thrown.getMessage());
                json.writeStringField("summary", LogLines.summary(thrown));
                if (LogLines.withStack(record)) {
                    json.writeStringField("stack", LogLines.stack(thrown));
                }
                json.writeEndObject();
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.append('\n').toString();
    }
}
