package io.rdmamon.lab;

import io.rdmamon.cli.Main;

import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Run inside a lab VM: several one-shot rdmamon commands in one JVM, each printing to its own file, as
 * {@code rdmamon CMD ARGS > FILE} would. A guest JVM start costs 15 to 60 s under TCG, most of it loading classes, so
 * commands that read the same still state share one. The commands run through {@link Main#commandLine}, rdmamon's
 * own entry point; the pseudo-command {@code guest-verbs} runs {@link GuestVerbs}.
 *
 * <p>Usage: {@code GuestBatch FILE CMD [ARG…] [-- FILE CMD [ARG…]]…}; exits with the first non-zero exit code, after
 * running every command.
 */
public final class GuestBatch {
    private GuestBatch() {
    }

    public static void main(String[] args) throws Exception {
        int rc = 0;
        for (List<String> command : split(args)) {
            String file = command.get(0);
            String[] commandArgs = command.subList(1, command.size()).toArray(String[]::new);
            PrintStream stdout = System.out;
            try (PrintStream out = new PrintStream(new FileOutputStream(file), true, StandardCharsets.UTF_8)) {
                System.setOut(out); // GuestVerbs prints to System.out
                int exit;
                if (commandArgs.length == 1 && commandArgs[0].equals("guest-verbs")) {
                    GuestVerbs.main(new String[0]);
                    exit = 0;
                } else {
                    Writer writer = new OutputStreamWriter(out, StandardCharsets.UTF_8);
                    exit = Main.commandLine(writer, new OutputStreamWriter(System.err, StandardCharsets.UTF_8))
                            .execute(commandArgs);
                    writer.flush();
                }
                if (exit != 0) {
                    System.err.println("GuestBatch: " + String.join(" ", commandArgs) + " exited " + exit);
                    rc = rc == 0 ? exit : rc;
                }
            } finally {
                System.setOut(stdout);
            }
        }
        System.exit(rc); // a command may leave non-daemon threads behind, as Main.main's own exit does
    }

    private static List<List<String>> split(String[] args) {
        List<List<String>> commands = new ArrayList<>();
        List<String> current = new ArrayList<>();
        for (String arg : args) {
            if (arg.equals("--")) {
                commands.add(current);
                current = new ArrayList<>();
            } else {
                current.add(arg);
            }
        }
        commands.add(current);
        for (List<String> command : commands) {
            if (command.size() < 2) {
                throw new IllegalArgumentException("each command is FILE CMD [ARG…]: " + Arrays.toString(args));
            }
        }
        return commands;
    }
}
