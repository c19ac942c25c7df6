package io.rdmamon.cli.daemon;

import io.rdmamon.protocol.json.StrictJson;
import picocli.CommandLine.ITypeConverter;

import java.time.Duration;

/** {@code 500ms}, {@code 1s}, {@code 2m}; a bare number is seconds (same syntax as the collector config). */
final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        return StrictJson.parseDuration(value, "duration");
    }
}
