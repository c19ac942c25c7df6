package io.rdmamon.cli.it;

import io.rdmamon.protocol.testing.Waits;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A server process a test started (Prometheus, Alertmanager): waits for it to answer 200 on its {@code /-/ready},
 * failing at once with its log when it exits first, and stops it.
 */
final class ServerProcess {
    private static final String READY = "ready";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private ServerProcess() {
    }

    static void awaitReady(String name, Process process, String base, Path log, Duration timeout)
            throws IOException, InterruptedException {
        String last = Waits.pollUntil(() -> readiness(name, process, base, log), READY::equals, timeout,
                Duration.ofMillis(200));
        if (!READY.equals(last)) {
            throw new IOException(name + " not ready after " + timeout + " (" + last + "): " + Files.readString(log));
        }
    }

    /** {@link #READY}, or what {@code /-/ready} answered. */
    private static String readiness(String name, Process process, String base, Path log)
            throws IOException, InterruptedException {
        if (!process.isAlive()) {
            throw new IOException(name + " exited with " + process.exitValue() + ": " + Files.readString(log));
        }
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/-/ready")).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? READY : "HTTP " + response.statusCode() + " " + response.body().strip();
        } catch (IOException notYet) {
            return "not listening: " + notYet;
        }
    }

    /** SIGTERM, then SIGKILL when it has not exited within 10 s. */
    static void stop(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
