package io.rdmamon.cli.daemon;

import io.rdmamon.protocol.json.StrictJson;
import io.rdmamon.protocol.json.StrictJsonException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;

/** {@code 500ms}, {@code 1s}, {@code 2m}; a bare number is seconds (same syntax as the collector config). */
final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        try {
            return StrictJson.parseDuration(value, "duration");
        } catch (StrictJsonException e) {
            // picocli quotes a TypeConversionException's message as it is, any other with its class name
            throw new TypeConversionException(e.getMessage());
        }
    }
}
