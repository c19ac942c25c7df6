package io.rdmamon.cli;

import picocli.CommandLine;

import java.io.StringWriter;

/** Runs {@code rdmamon} in-process, as {@link Main#main} would, with captured stdout and stderr. */
public record CliRun(int exitCode, String out, String err) {
    public static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine(out, err);
        int code = cli.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }

    public String[] errLines() {
        return err.lines().toArray(String[]::new);
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
}
