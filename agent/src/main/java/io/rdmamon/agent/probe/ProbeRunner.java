package io.rdmamon.agent.probe;

import io.rdmamon.protocol.probe.PerftestSpec;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.wire.Frame;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs this agent's side of the collector's probes: one perftest per {@link Frame.ProbeStart},
 * answered with {@link Frame.ProbeReport}s (server: LISTENING once its port is in LISTEN, RUNNING
 * once a client connected; client: RUNNING; then DONE, FAILED or CANCELLED with the exit code, the
 * error lines verbatim and the output's tail).
 *
 * <p>Limits: bandwidth probes ({@code ib_write_bw}) only with {@code --allow-probes}, the pingmesh's latency
 * probes ({@code ib_send_lat}) only with {@code --allow-pingmesh}; {@code -D} (a latency probe: its longest time) at
 * most the max duration; on one device port either one bandwidth probe or up to {@link #MAX_LATENCY_PROBES_PER_PORT}
 * latency probes (a port is the server of some peers' probes while the client of another's), never both kinds at
 * once, since each distorts the other: a bandwidth probe fills the queues a latency probe would measure, and a
 * latency probe's retransmission stalls look like the bandwidth probe's; each run killed (its whole process group)
 * at the frame's timeout, which is itself capped at the max duration plus {@link #TIMEOUT_ALLOWANCE}, so a server
 * whose client never comes does not stay.
 *
 * <p>{@link #start} and {@link #cancel} return at once (call them from the event loop); processes
 * are waited for on this runner's own threads, and {@code reports} is called from them.
 */
public final class ProbeRunner implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ProbeRunner.class.getName());
    public static final String DISABLED = "probes are disabled on this agent (start it with --allow-probes)";
    public static final String PINGMESH_DISABLED =
            "latency probes (pingmesh) are disabled on this agent (start it with --allow-pingmesh)";
    /** Latency probes one port runs at once: its own as client and its peers' as server. */
    public static final int MAX_LATENCY_PROBES_PER_PORT = 4;
    /** Longest a probe may live beyond its duration: the server's wait for its client, setup, teardown. */
    static final Duration TIMEOUT_ALLOWANCE = Duration.ofSeconds(60);
    /** Output lines sent with a terminal report (the run keeps more; the frame stays small). */
    static final int REPORTED_LINES = 100;
    private static final long LISTEN_POLL_MILLIS = 50;

    private final ProbeSettings settings;
    private final Consumer<Frame.ProbeReport> reports;
    private final Map<String, Execution> executions = new ConcurrentHashMap<>();
    private final ExecutorService workers = Executors.newCachedThreadPool(daemon("probe-runner"));
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(daemon("probe-timeout"));

    /** @param reports receives every report, from this runner's threads; must be thread safe */
    public ProbeRunner(ProbeSettings settings, Consumer<Frame.ProbeReport> reports) {
        this.settings = settings;
        this.reports = reports;
    }

    /** Probes in progress. */
    public int running() {
        return executions.size();
    }

    /** Validates and starts one side of a probe; refusals are reported as FAILED naming the reason. */
    public synchronized void start(Frame.ProbeStart frame) {
        PerftestSpec spec = frame.spec();
        if (!settings.allows(spec.test())) {
            reports.accept(failure(frame, spec.test().latency() ? PINGMESH_DISABLED : DISABLED));
            return;
        }
        if (spec.durationSeconds() > settings.maxDuration().toSeconds()) {
            reports.accept(failure(frame, "durationSeconds " + spec.durationSeconds() + " exceeds this agent's limit of "
                    + settings.maxDuration().toSeconds() + "s (--probe-max-duration)"));
            return;
        }
        String key = key(frame.probeId(), frame.role());
        if (executions.containsKey(key)) {
            LOG.log(System.Logger.Level.WARNING, "probe {0}: a second start for the running {1} ignored",
                    frame.probeId(), frame.role().wireName());
            return;
        }
        String portName = spec.device() + " port " + spec.port();
        String conflict = portConflict(frame, portName);
        if (conflict != null) {
            reports.accept(failure(frame, conflict));
            return;
        }
        Execution execution = new Execution(frame, portName);
        executions.put(key, execution);
        execution.timeout = timers.schedule(() -> execution.stop(ProbePhase.FAILED,
                "perftest did not finish within " + execution.timeoutMillis + " ms; killed"),
                execution.timeoutMillis, TimeUnit.MILLISECONDS);
        workers.execute(execution::run);
    }

    /**
     * Why {@code frame} may not run on {@code portName} now, or null. Both sides of one probe may share a port (a
     * loopback test); other probes count by kind.
     */
    private String portConflict(Frame.ProbeStart frame, String portName) {
        boolean latency = frame.spec().test().latency();
        Set<String> latencyProbes = new TreeSet<>();
        for (Execution other : executions.values()) {
            String otherId = other.frame.probeId();
            if (!other.portName.equals(portName) || otherId.equals(frame.probeId())) {
                continue;
            }
            boolean otherLatency = other.frame.spec().test().latency();
            if (!latency) {
                return portName + " is already in " + (otherLatency ? "latency probe " : "probe ") + otherId
                        + (otherLatency ? " (a bandwidth probe would distort it, and it the bandwidth)" : "");
            }
            if (!otherLatency) {
                return portName + " is in bandwidth probe " + otherId
                        + " (a latency probe would measure its queues, not the path)";
            }
            latencyProbes.add(otherId);
        }
        if (latencyProbes.size() >= MAX_LATENCY_PROBES_PER_PORT) {
            return portName + " already runs " + latencyProbes.size() + " latency probes (" + String.join(", ",
                    latencyProbes) + "), the most one port runs at once";
        }
        return null;
    }

    /** Stops the probe's process(es) on this agent; each reports CANCELLED with {@code reason}. */
    public void cancel(Frame.ProbeCancel frame) {
        for (ProbeRole role : ProbeRole.values()) {
            Execution execution = executions.get(key(frame.probeId(), role));
            if (execution != null) {
                execution.stop(ProbePhase.CANCELLED, frame.reason());
            }
        }
    }

    /**
     * Kills every probe without reporting it: the collector that asked for them is gone (the
     * connection dropped) and has already failed them.
     */
    public void abandonAll(String reason) {
        for (Execution execution : executions.values()) {
            execution.abandoned = true;
            execution.stop(ProbePhase.CANCELLED, reason);
        }
    }

    /** Kills every probe and waits (briefly) until their processes are gone. */
    @Override
    public void close() {
        abandonAll("agent stopping");
        workers.shutdown();
        try {
            workers.awaitTermination(ProcessPerftestLauncher.KILL_GRACE.toMillis() + 2_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        timers.shutdownNow();
    }

    private static String key(String probeId, ProbeRole role) {
        return probeId + "/" + role.wireName();
    }

    private static Frame.ProbeReport failure(Frame.ProbeStart frame, String error) {
        return new Frame.ProbeReport(frame.probeId(), frame.role(), ProbePhase.FAILED, 0, null, null, error, List.of());
    }

    /** An ephemeral port nobody uses now: bound and released, then handed to perftest's {@code -p}. */
    public static int freeTcpPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** One side of one probe, from validation to its terminal report. */
    private final class Execution {
        final Frame.ProbeStart frame;
        final String portName;
        final long timeoutMillis;
        volatile boolean abandoned;
        volatile ScheduledFuture<?> timeout;
        private PerftestRun run;
        private ProbePhase stopPhase;
        private String stopReason;
        private int tcpPort;
        private boolean connected;

        Execution(Frame.ProbeStart frame, String portName) {
            this.frame = frame;
            this.portName = portName;
            long cap = settings.maxDuration().plus(TIMEOUT_ALLOWANCE).toMillis();
            this.timeoutMillis = Math.min(frame.timeoutMillis(), cap);
        }

        void run() {
            try {
                PerftestRun finished = frame.role() == ProbeRole.SERVER ? serve() : connect();
                report(terminal(finished));
            } catch (IllegalArgumentException e) {
                report(new Frame.ProbeReport(frame.probeId(), frame.role(), ProbePhase.FAILED, 0, null, null,
                        e.getMessage(), List.of()));
            } catch (IOException e) {
                report(new Frame.ProbeReport(frame.probeId(), frame.role(), ProbePhase.FAILED, 0, null, null,
                        "cannot start perftest: " + e.getMessage(), List.of()));
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "probe " + frame.probeId() + " failed", e);
                report(new Frame.ProbeReport(frame.probeId(), frame.role(), ProbePhase.FAILED, 0, null, null,
                        "agent error: " + e, List.of()));
            } finally {
                ScheduledFuture<?> timer = timeout;
                if (timer != null) {
                    timer.cancel(false);
                }
                synchronized (ProbeRunner.this) {
                    executions.remove(key(frame.probeId(), frame.role()));
                }
            }
        }

        /** Server: a free port unless the collector named one; one retry when perftest could not listen on it. */
        private PerftestRun serve() throws IOException {
            PerftestRun current = null;
            for (int attempt = 1; attempt <= 2; attempt++) {
                int port = frame.tcpPort() != 0 ? frame.tcpPort() : freeTcpPort();
                current = launch(PerftestArguments.build(settings.hostRoot(), frame.spec(), ProbeRole.SERVER, port, null),
                        port);
                if (current == null || awaitListening(current, port)) {
                    return current;
                }
                boolean portTaken = PerftestOutputParser.parse(current.output()) instanceof PerftestOutcome.Failed failed
                        && failed.kind() == PerftestFailure.LISTEN_FAILED;
                if (!portTaken || frame.tcpPort() != 0 || stopped()) {
                    return current;
                }
                LOG.log(System.Logger.Level.INFO, "probe {0}: port {1} was taken meanwhile; trying another",
                        frame.probeId(), port);
            }
            return current;
        }

        private PerftestRun connect() throws IOException {
            PerftestRun current = launch(PerftestArguments.build(settings.hostRoot(), frame.spec(), ProbeRole.CLIENT,
                    frame.tcpPort(), frame.serverAddress()), frame.tcpPort());
            if (current != null) {
                report(progress(ProbePhase.RUNNING, 0));
            }
            return current;
        }

        /** Null when stopped before it started. */
        private synchronized PerftestRun launch(List<String> arguments, int port) throws IOException {
            if (stopPhase != null) {
                return null;
            }
            tcpPort = port;
            run = settings.launcher().launch(frame.spec().test(), arguments, this::onLine);
            return run;
        }

        /** True once the port is in LISTEN (reported); false when perftest exited first. */
        private boolean awaitListening(PerftestRun current, int port) {
            while (!current.exit().isDone()) {
                if (current.listening(port)) {
                    report(progress(ProbePhase.LISTENING, port));
                    return true;
                }
                try {
                    current.exit().get(LISTEN_POLL_MILLIS, TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    // still starting: look again
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    current.kill();
                } catch (java.util.concurrent.ExecutionException e) {
                    return false;
                }
            }
            return false;
        }

        /** A server knows its client came when perftest prints the peer's QP ("remote address:"). */
        private void onLine(String line) {
            if (frame.role() == ProbeRole.SERVER && line.startsWith(" remote address:")) {
                boolean first;
                synchronized (this) {
                    first = !connected;
                    connected = true;
                }
                if (first) {
                    report(progress(ProbePhase.RUNNING, tcpPort));
                }
            }
        }

        void stop(ProbePhase phase, String reason) {
            PerftestRun current;
            synchronized (this) {
                if (stopPhase != null) {
                    return;
                }
                stopPhase = phase;
                stopReason = reason;
                current = run;
            }
            if (current != null) {
                current.kill();
            }
        }

        private synchronized boolean stopped() {
            return stopPhase != null;
        }

        private Frame.ProbeReport terminal(PerftestRun finished) {
            ProbePhase phase;
            String reason;
            synchronized (this) {
                phase = stopPhase;
                reason = stopReason;
            }
            if (finished == null) {
                return new Frame.ProbeReport(frame.probeId(), frame.role(), phase, 0, null, null, reason, List.of());
            }
            int exitCode = finished.exit().join();
            synchronized (this) {
                phase = stopPhase;
                reason = stopReason;
            }
            List<String> output = finished.output();
            List<String> reported = reported(output);
            if (phase != null) {
                return new Frame.ProbeReport(frame.probeId(), frame.role(), phase, 0, null, exitCode, reason, reported);
            }
            PerftestOutcome outcome = frame.spec().test().latency() ? PerftestLatencyOutputParser.parse(output)
                    : PerftestOutputParser.parse(output);
            if (exitCode == 0 && outcome instanceof PerftestOutcome.Measured measured) {
                return new Frame.ProbeReport(frame.probeId(), frame.role(), ProbePhase.DONE, 0, measured.result(), 0,
                        null, reported);
            }
            if (exitCode == 0 && outcome instanceof PerftestOutcome.MeasuredLatency measured) {
                // both sides of ib_send_lat time the ping-pong: each reports its own round trips
                return new Frame.ProbeReport(frame.probeId(), frame.role(), ProbePhase.DONE, 0, null,
                        measured.latency(), 0, null, reported);
            }
            if (exitCode == 0 && frame.role() == ProbeRole.SERVER) {
                return new Frame.ProbeReport(frame.probeId(), frame.role(), ProbePhase.DONE, 0, null, 0, null, reported);
            }
            String error = outcome instanceof PerftestOutcome.Failed failed && !failed.lines().isEmpty()
                    ? failed.text()
                    : exitCode == 0 ? "perftest exited 0 without a result row" : "perftest exited with code " + exitCode;
            return new Frame.ProbeReport(frame.probeId(), frame.role(), ProbePhase.FAILED, 0, null, exitCode, error,
                    reported);
        }

        /**
         * The output's last lines for the report; a latency probe's round trips are in its result already, and a
         * pingmesh sends many reports: they are left out.
         */
        private List<String> reported(List<String> output) {
            List<String> kept = frame.spec().test().latency()
                    ? output.stream().filter(line -> !PerftestLatencyOutputParser.isRoundTrip(line)).toList() : output;
            return kept.subList(Math.max(0, kept.size() - REPORTED_LINES), kept.size());
        }

        private Frame.ProbeReport progress(ProbePhase phase, int port) {
            return new Frame.ProbeReport(frame.probeId(), frame.role(), phase, port, null, null, null, List.of());
        }

        private void report(Frame.ProbeReport report) {
            if (!abandoned) {
                reports.accept(report);
            }
        }
    }

    private static ThreadFactory daemon(String name) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
