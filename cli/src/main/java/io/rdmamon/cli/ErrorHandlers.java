package io.rdmamon.cli;

import io.rdmamon.cli.failure.CliFailure;
import picocli.CommandLine;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;

/** Maps failures to rdmamon's exit codes with a one-line reason on stderr (docs/architecture.md "The rdmamon command").
 * */
final class ErrorHandlers {
    private ErrorHandlers() {
    }

    /** A bad flag or argument: the reason, a hint where to look, exit 2. */
    static int onBadUsage(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println("rdmamon: " + oneLine(ex.getMessage()));
        err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return ExitCode.USAGE;
    }

    /** A failure while running: {@link CliFailure} carries its code, I/O is 1, anything else is 1. */
    static int onFailure(Exception ex, CommandLine cmd, ParseResult parsed) {
        PrintWriter err = cmd.getErr();
        int code;
        String reason;
        if (ex instanceof CliFailure failure) {
            code = failure.exitCode();
            reason = failure.getMessage();
        } else if (ex instanceof IOException || ex instanceof UncheckedIOException) {
            code = ExitCode.SOFTWARE;
            reason = ex.getMessage();
        } else {
            code = ExitCode.SOFTWARE;
            reason = "internal error: " + ex;
        }
        err.println("rdmamon: " + oneLine(reason));
        err.flush();
        return code;
    }

    private static String oneLine(String message) {
        return message == null ? "(no detail)" : message.strip().replaceAll("\\s*\\R\\s*", "; ");
    }
}
