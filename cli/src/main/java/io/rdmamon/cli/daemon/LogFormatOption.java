package io.rdmamon.cli.daemon;

import io.rdmamon.cli.failure.CliFailure;
import io.rdmamon.cli.log.LogFormat;
import picocli.CommandLine.Option;

/** {@code --log-format text|json} of the daemons ({@code collector}, {@code agent}, {@code demo}). */
public final class LogFormatOption {
    @Option(names = "--log-format", paramLabel = "text|json", defaultValue = "text",
            description = {"Log lines on stderr: text (one event per line: time, level, logger, message) or json (one",
                    "object per line: ts, level, logger, msg, thrown; for log shippers). Default: ${DEFAULT-VALUE}."})
    String logFormat;

    /** Checks the value (exit 2, one line, for an unknown one) and installs the format; first thing a daemon does. */
    void install() {
        LogFormat format = LogFormat.parse(logFormat);
        if (format == null) {
            throw CliFailure.badInput("--log-format '" + logFormat + "': use text or json");
        }
        format.install();
    }
}
