package io.rdmamon.agent.host;

import io.rdmamon.agent.stream.AgentStreamer;
import io.rdmamon.agent.stream.AgentStreamerOptions;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.SourceStatus;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 34's invariant, for every registered source in turn: a source that throws, throws a huge unprintable message,
 * or never returns costs only itself. The sample still comes back (a hang is left behind at the watchdog's section
 * deadline), the other sources report as they did on the healthy host, and the real collector admits the node with
 * the failed source's status, made printable and bounded by the agent on its way out.
 */
@ExtendWith(VertxExtension.class)
class SourceFaultIsolationTest {
    /**
     * A section is hung after five of these without a step: short, so that the hangs cost seconds, not minutes, yet
     * long enough that no healthy read of a fixture file misses it on a loaded machine.
     */
    private static final Duration READ_DEADLINE = Duration.ofMillis(500);
    /** A bound on a read that must come back, far above the section deadline on a loaded machine. */
    private static final Duration SAMPLE_BOUND = Duration.ofSeconds(60);
    /** Cases run at once: four overlapping hangs, on a machine of two cores that other builds share. */
    private static final int CASES_AT_ONCE = 4;
    private static final String HUGE = "\u001b[31m" + "x".repeat(1 << 20) + "\nforged: log line\u0007";
    private final CountDownLatch release = new CountDownLatch(1);

    private enum Fault { THROWS, HUGE_MESSAGE, HANGS }

    @AfterEach
    void releaseHungReads() {
        release.countDown();
    }

    @Test
    void eachFaultInEachRegisteredSourceCostsOnlyThatSource(Vertx vertx, @TempDir Path dir) throws Exception {
        Path root = Fixtures.copy("mlx5-roce", dir);
        Collector.Running collector = await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0")));
        HostReader healthyReader = reader(root, SourceFaults.NONE);
        HostSample healthy = healthyReader.read("healthy");
        List<String> sources = healthyReader.sourceNames();
        assertTrue(sources.containsAll(List.of("sysfs", "ethtool", "module", "fec", "lldp", "qos", "topology")),
                sources.toString());
        List<Callable<List<String>>> cases = new ArrayList<>();
        for (String faulty : sources) {
            for (Fault fault : Fault.values()) {
                cases.add(() -> faultCase(vertx, collector, root, healthy, faulty, fault));
            }
        }
        // a hang costs its case the watchdog's 2.5 s of waiting, and there is one a source: run a few cases at once,
        // each with its own reader, node and stream, so that the waits overlap
        List<String> failures = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(CASES_AT_ONCE);
        try {
            for (Future<List<String>> done : pool.invokeAll(cases)) {
                failures.addAll(done.get());
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(List.of(), failures);
    }

    /** One fault in one source: what went wrong, empty when the fault cost only that source. */
    private List<String> faultCase(Vertx vertx, Collector.Running collector, Path root, HostSample healthy,
                                   String faulty, Fault fault) throws Exception {
        List<String> failures = new ArrayList<>();
        String node = "n-" + faulty + "-" + fault.name().toLowerCase().replace('_', '-');
        HostReader reader = reader(root, (source, subject) -> {
            // the lambda runs on the reader thread: a fault is what that source's own code would do
            if (source.equals(faulty)) {
                inject(fault, source);
            }
        });
        HostSample sample = assertTimeoutPreemptively(SAMPLE_BOUND, () -> reader.read(node), node);

        List<SourceStatus> failed = sample.sources().stream()
                .filter(s -> s.source().equals(faulty) && !s.success()).toList();
        if (failed.isEmpty()) {
            failures.add(node + ": no failed status of " + faulty + " in " + sample.sources());
        }
        if (fault == Fault.HANGS && failed.stream().noneMatch(s -> s.error().contains("stuck"))) {
            failures.add(node + ": the hang is not named stuck: " + failed);
        }
        Set<SourceStatus> stillOk = expectedOk(healthy, faulty);
        Set<SourceStatus> ok = sample.sources().stream().filter(SourceStatus::success)
                .map(s -> new SourceStatus(s.source(), s.subject(), true, null, s.unsupported()))
                .collect(Collectors.toSet());
        if (!ok.containsAll(stillOk)) {
            failures.add(node + ": other sources lost: expected " + stillOk + " among " + ok);
        }
        admitted(vertx, collector, node, sample, faulty, failures);
        return failures;
    }

    private HostReader reader(Path root, SourceFaults faults) throws HostRootException {
        return HostReader.builder(root).readDeadline(READ_DEADLINE).faults(faults).build();
    }

    private void inject(Fault fault, String source) throws Exception {
        switch (fault) {
            case THROWS -> throw new IllegalStateException("injected into " + source);
            case HUGE_MESSAGE -> throw new RuntimeException(HUGE);
            case HANGS -> release.await();
        }
    }

    /**
     * The statuses of the healthy sample that must survive a fault in {@code faulty}: every other source's; when the
     * device itself (sysfs) is what fails, its ports are not read, so only the host's own sources must survive.
     */
    private static Set<SourceStatus> expectedOk(HostSample healthy, String faulty) {
        Set<String> hostSubjects = Set.of("etc/nccl.conf", "host", "sys/bus/pci");
        return healthy.sources().stream()
                .filter(s -> s.success() && !s.source().equals(faulty))
                .filter(s -> !faulty.equals("sysfs") || hostSubjects.contains(s.subject()) || s.source().equals("topology"))
                .map(s -> new SourceStatus(s.source(), s.subject(), true, null, s.unsupported()))
                .collect(Collectors.toSet());
    }

    /** Streams {@code sample} as the agent does and checks the collector took it, with the fault's status printable. */
    private static void admitted(Vertx vertx, Collector.Running collector, String node, HostSample sample,
                                 String faulty, List<String> failures) throws Exception {
        AgentStreamer streamer = new AgentStreamer(
                AgentStreamerOptions.of("http://127.0.0.1:" + collector.port(), node));
        String deployment = await(vertx.deployVerticle(streamer));
        waitFor(() -> streamer.stats().connected(), node + " connected");
        streamer.offer(sample);
        waitFor(() -> streamer.stats().acknowledgedSeq() >= 1 || !streamer.stats().connected(),
                node + " acknowledged or refused");
        if (streamer.stats().acknowledgedSeq() < 1) {
            failures.add(node + ": the collector refused the sample: " + streamer.stats());
            await(vertx.undeploy(deployment));
            return;
        }
        NodeStore.LastSamples stored = collector.store().lastSamples(node).orElseThrow();
        List<SourceStatus> failed = stored.last().sources().stream()
                .filter(s -> s.source().equals(faulty) && !s.success()).toList();
        assertFalse(failed.isEmpty(), node + ": the failed status reached the collector");
        for (SourceStatus status : failed) {
            if (status.error().length() > 4096 || status.error().chars().anyMatch(c -> c < 0x20)) {
                failures.add(node + ": an unbounded or unprintable error reached the collector: "
                        + status.error().substring(0, Math.min(200, status.error().length())));
            }
        }
        await(vertx.undeploy(deployment));
    }
}
