package io.rdmamon.protocol.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs {@code promtool check metrics} on an exposition; returns its output plus a note when it failed. */
public final class PromtoolCheck {
    private PromtoolCheck() {
    }

    public static String check(String exposition) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(List.of("/usr/bin/promtool", "check", "metrics"))
                .redirectErrorStream(true).start();
        try (OutputStream in = process.getOutputStream()) {
            in.write(exposition.getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return "promtool did not finish in 30 s";
        }
        return process.exitValue() == 0 ? output : output + "(exit " + process.exitValue() + ")";
    }
}
