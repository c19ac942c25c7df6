package io.rdmamon.cli.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.rdmamon.protocol.testing.LoopbackPorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A collector replica as its own JVM process from the shaded jar ({@code rdmamon collector --cluster-listen …
 * --cluster-members …}), as an operator starts one; its output goes to a log file the test prints on failure.
 * {@link #kill()} is {@code kill -9}, {@link #terminate()} SIGTERM, {@link #freeze()} SIGSTOP.
 */
final class ReplicaProcess implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final int httpPort;
    final int memberPort;
    private final List<String> argv;
    private final Path log;
    private Process process;

    private ReplicaProcess(int httpPort, int memberPort, List<String> argv, Path log) {
        this.httpPort = httpPort;
        this.memberPort = memberPort;
        this.argv = argv;
        this.log = log;
    }

    /** Picks the ports of {@code count} replicas on loopback: HTTP, member, and member + 1 (the event bus) free. */
    static List<ReplicaProcess> plan(Path workDir, int count) throws IOException {
        return plan(workDir, count, List.of());
    }

    /** As {@link #plan(Path, int)}, each replica started with {@code extra} arguments too (a config, TLS, …). */
    static List<ReplicaProcess> plan(Path workDir, int count, List<String> extra) throws IOException {
        List<int[]> ports = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ports.add(new int[]{LoopbackPorts.free(), LoopbackPorts.freePair()});
        }
        String members = String.join(",", ports.stream().map(p -> "127.0.0.1:" + p[1]).toList());
        List<ReplicaProcess> replicas = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            replicas.add(member(workDir.resolve("replica-" + i + ".log"), ports.get(i)[0], ports.get(i)[1], members, extra));
        }
        return replicas;
    }

    /**
     * One more collector that tries to join {@code members} (another cluster's): an outsider, with its own
     * {@code extra} arguments.
     */
    static ReplicaProcess outsider(Path workDir, String name, String members, List<String> extra) throws IOException {
        int port = LoopbackPorts.freePair();
        return member(workDir.resolve(name + ".log"), LoopbackPorts.free(), port,
                members + ",127.0.0.1:" + port, extra);
    }

    private static ReplicaProcess member(Path log, int httpPort, int memberPort, String members, List<String> extra) {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-jar", AgentProcess.JAR.toAbsolutePath().toString(), "collector",
                "--listen", "127.0.0.1:" + httpPort, "--cluster-listen", "127.0.0.1:" + memberPort,
                "--cluster-members", members));
        argv.addAll(extra);
        return new ReplicaProcess(httpPort, memberPort, argv, log);
    }

    /** The member addresses of {@code replicas}, as {@code --cluster-members} takes them. */
    static String members(List<ReplicaProcess> replicas) {
        return String.join(",", replicas.stream().map(r -> "127.0.0.1:" + r.memberPort).toList());
    }

    void start() throws IOException {
        process = new ProcessBuilder(argv).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    String url() {
        return "http://127.0.0.1:" + httpPort;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** GET {@code path}; the body, or null when the replica does not answer 200. */
    String get(String path) {
        return get(path, null);
    }

    /** GET {@code path} with a bearer token (null: none); the body, or null when the replica does not answer 200. */
    String get(String path, String token) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(10));
            if (token != null) {
                request.header("Authorization", "Bearer " + token);
            }
            HttpResponse<String> r = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** This replica's {@code /api/cluster}: its id ({@code self}) and the members it sees; null when it does not answer. */
    JsonNode cluster() throws IOException {
        String body = get("/api/cluster");
        return body == null ? null : JSON.readTree(body);
    }

    /** The ids of the members this replica sees (empty when it does not answer). */
    Set<String> memberIds() throws IOException {
        Set<String> ids = new HashSet<>();
        JsonNode cluster = cluster();
        if (cluster != null) {
            cluster.path("members").forEach(m -> ids.add(m.path("id").asText()));
        }
        return ids;
    }

    /** POST {@code body} (JSON) to {@code path} with a bearer token; the status code and body. */
    HttpResponse<String> post(String path, String token, String body) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** {@code kill -9}: no goodbye to the cluster or the agents. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** SIGTERM: the replica drains its agents (close 1012) and leaves the cluster. */
    void terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("replica on " + httpPort + " did not exit within 30 s of SIGTERM");
        }
    }

    /** SIGSTOP: the process stops answering but its sockets stay open (a hung replica). */
    void freeze() throws IOException, InterruptedException {
        signal("-STOP");
    }

    /** SIGCONT: a frozen replica resumes where it stopped. */
    void thaw() throws IOException, InterruptedException {
        signal("-CONT");
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill " + signal + " " + process.pid() + " failed");
        }
    }

    String log() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** The last 3,000 characters of each replica's log, for a failure message. */
    static String logTails(List<ReplicaProcess> replicas) throws IOException {
        StringBuilder logs = new StringBuilder();
        for (ReplicaProcess replica : replicas) {
            String log = replica.log();
            logs.append("\n--- ").append(replica.url()).append(":\n").append(log.substring(Math.max(0, log.length() - 3000)));
        }
        return logs.toString();
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
