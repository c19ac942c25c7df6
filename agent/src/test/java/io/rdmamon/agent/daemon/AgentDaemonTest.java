package io.rdmamon.agent.daemon;

import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.agent.stream.AgentStreamerOptions;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.net.HostPort;
import io.rdmamon.protocol.testing.Fifos;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The agent's one sampling loop: reads on a worker, a beat skipped while a read overruns, samples to the sinks. */
@ExtendWith(VertxExtension.class)
class AgentDaemonTest {
    private static final Duration INTERVAL = Duration.ofMillis(100);
    private final HttpClient http = HttpClient.newHttpClient();
    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    private Vertx vertx;

    @BeforeEach
    void start(Vertx vertx) {
        this.vertx = vertx;
    }

    private HostSample sample(String name) {
        return new HostSample(name, clock.addAndGet(1000), List.of(), List.of(SourceStatus.ok("sysfs", "host")));
    }

    private String metrics(AgentDaemon daemon) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + daemon.metrics().port() + "/metrics"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void aReadThatOverrunsItsIntervalSkipsBeatsInsteadOfRunningBesideIt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        AtomicInteger calls = new AtomicInteger();
        AtomicBoolean onEventLoop = new AtomicBoolean();
        AgentDaemon daemon = new AgentDaemon(AgentDaemonOptions.of("node-a", INTERVAL, () -> {
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            onEventLoop.compareAndSet(false, Context.isOnEventLoopThread());
            try {
                if (calls.incrementAndGet() == 1) {
                    release.await(10, TimeUnit.SECONDS); // the first read hangs, like a stuck driver
                }
                return sample("sampler-name");
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            } finally {
                running.decrementAndGet();
            }
        }).withMetricsListen(new HostPort("127.0.0.1", 0)));
        await(vertx.deployVerticle(daemon));

        waitFor(() -> daemon.stats().skipped() >= 3, "beats skipped while the first read hangs");
        assertEquals(1, calls.get(), "no read started beside the hanging one");
        assertEquals(1, daemon.stats().reads());
        assertTrue(metrics(daemon).contains("rdma_agent_up{node=\"node-a\"} 0.0"), "no sample yet");

        release.countDown();
        waitFor(() -> calls.get() >= 3, "reads resume after the slow one");
        assertEquals(1, mostAtOnce.get(), "never two reads at once");
        assertFalse(onEventLoop.get(), "reads run on a worker, never on an event loop");
        assertEquals(0, daemon.stats().failed());
        // the sinks get the sample under the configured node name, not the sampler's
        waitFor(() -> {
            try {
                return metrics(daemon).contains("rdma_agent_up{node=\"node-a\"} 1.0");
            } catch (Exception e) {
                return false;
            }
        }, "the sample on the agent's own /metrics");
        assertFalse(metrics(daemon).contains("sampler-name"));
    }

    @Test
    void aFailedReadIsCountedAndTheLoopGoesOn() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        AgentDaemon daemon = new AgentDaemon(AgentDaemonOptions.of("node-a", INTERVAL, () -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("sysfs went away");
            }
            return sample("node-a");
        }).withMetricsListen(new HostPort("127.0.0.1", 0)));
        await(vertx.deployVerticle(daemon));
        waitFor(() -> calls.get() >= 3, "reads after the failed one");
        assertEquals(1, daemon.stats().failed());
    }

    @Test
    void theStreamerMustAnnounceTheDaemonsNodeAndInterval() {
        AgentDaemonOptions daemon = AgentDaemonOptions.of("node-a", INTERVAL, () -> sample("node-a"));
        IllegalArgumentException otherNode = assertThrows(IllegalArgumentException.class,
                () -> daemon.withStreamer(AgentStreamerOptions.of("ws://collector:9470", "node-b").withInterval(INTERVAL)));
        assertTrue(otherNode.getMessage().contains("node-b"), otherNode.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> daemon.withStreamer(AgentStreamerOptions.of("ws://collector:9470", "node-a")));
    }

    /**
     * A FIFO at {@code etc/nccl.conf} or a module capture held the agent's first sample for ever: no sample, no hello,
     * no log line. Now the agent samples, the sources that read them failed and the rest read.
     */
    @Test
    @EnabledOnOs(OS.LINUX)
    void anAgentOnARootWithFifosSamplesAndReportsTheFilesFailed(@TempDir Path dir) throws Exception {
        Path root = Fixtures.copy("mlx5-roce", dir);
        Fifos.make(root.resolve("etc/nccl.conf"));
        Fifos.make(root.resolve("ethtool/ens1f0np0/module"));
        HostReader reader = HostReader.builder(root).qosRefresh(Duration.ofSeconds(30))
                .moduleRefresh(Duration.ofSeconds(30)).build();
        AgentDaemon daemon = new AgentDaemon(AgentDaemonOptions.of("node-a", INTERVAL, () -> reader.read("node-a"))
                .withMetricsListen(new HostPort("127.0.0.1", 0)));
        await(vertx.deployVerticle(daemon));

        waitFor(() -> daemon.stats().reads() >= 2, "samples read");
        String metrics = metrics(daemon);
        assertTrue(metrics.contains("rdma_agent_up{node=\"node-a\"} 1.0"), metrics);
        // per source here; HostReaderIrregularFileTest checks that each status names its file
        assertTrue(metrics.contains("rdma_source_success{node=\"node-a\",source=\"qos\"} 0.0"), metrics);
        assertTrue(metrics.contains("rdma_source_success{node=\"node-a\",source=\"module\"} 0.0"), metrics);
        assertTrue(metrics.contains("rdma_source_success{node=\"node-a\",source=\"sysfs\"} 1.0"), metrics);
        assertEquals(0, daemon.stats().failed());
    }
}
