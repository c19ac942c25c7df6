package io.rdmamon.collector.rules;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs Debian's {@code /usr/bin/promtool} as a child process (argv list, never a shell). */
final class Promtool {
    static final Path EXECUTABLE = Path.of("/usr/bin/promtool");
    private static final long TIMEOUT_SECONDS = 60;

    /** Exit code and the merged stdout/stderr of one promtool run. */
    record Result(int exitCode, String output) {
    }

    private Promtool() {
    }

    static boolean available() {
        return Files.isExecutable(EXECUTABLE);
    }

    /** Runs {@code promtool args...} in {@code workDir}; the output goes through a file so a chatty run cannot block. */
    static Result run(Path workDir, List<String> args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>();
        argv.add(EXECUTABLE.toString());
        argv.addAll(args);
        Path output = Files.createTempFile("promtool", ".out");
        try {
            Process process = new ProcessBuilder(argv).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("promtool " + args + " did not finish in " + TIMEOUT_SECONDS + " s");
            }
            return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
