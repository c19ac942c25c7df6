package io.rdmamon.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Host commands of the lab ({@code ip}, {@code tc}), each as an argv with a bounded wait. */
final class LabCommands {
    record Result(int rc, String output) {
    }

    private LabCommands() {
    }

    static Result run(List<String> argv, int timeoutSeconds) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
        process.getOutputStream().close();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return new Result(-1, String.join(" ", argv) + ": no exit within " + timeoutSeconds + " s");
        }
        return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** Runs {@code argv} and fails with its output unless it exits 0. */
    static String require(List<String> argv) throws IOException, InterruptedException {
        Result result = run(argv, 30);
        if (result.rc() != 0) {
            throw new IllegalStateException(String.join(" ", argv) + " exited " + result.rc() + ": "
                    + result.output().strip());
        }
        return result.output();
    }
}
