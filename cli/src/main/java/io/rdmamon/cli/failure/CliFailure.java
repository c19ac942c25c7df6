package io.rdmamon.cli.failure;

import picocli.CommandLine.ExitCode;

/**
 * A failure the user should see as one line on stderr, with the exit code it maps to. The
 * message names the file, device, interface or flag at fault.
 */
public final class CliFailure extends RuntimeException {
    private final int exitCode;

    private CliFailure(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** Bad input (unknown device, missing host root): exit 2. */
    public static CliFailure badInput(String message) {
        return new CliFailure(ExitCode.USAGE, message, null);
    }

    /** Something that should have worked did not (unreadable file, no counters): exit 1. */
    public static CliFailure runtime(String message, Throwable cause) {
        return new CliFailure(ExitCode.SOFTWARE, message, cause);
    }

    public int exitCode() {
        return exitCode;
    }
}
