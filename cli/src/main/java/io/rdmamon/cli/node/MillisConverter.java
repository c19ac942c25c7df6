package io.rdmamon.cli.node;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A positive deadline in whole milliseconds ({@code --timeout 30000}), refused with what was expected. */
final class MillisConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        long millis;
        try {
            millis = Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("expected a whole number of milliseconds, got '" + value + "'");
        }
        if (millis <= 0) {
            throw new TypeConversionException(millis + ": must be positive");
        }
        return millis;
    }
}
