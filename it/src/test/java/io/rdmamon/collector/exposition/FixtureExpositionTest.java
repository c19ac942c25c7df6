package io.rdmamon.collector.exposition;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.collector.PromtoolCheck;
import io.rdmamon.collector.http.MetricsHandler;
import io.rdmamon.collector.metrics.RdmaMetrics;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.SampleDecoder;
import io.rdmamon.protocol.wire.SampleEncoder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * End to end: the agent's fixture host roots, read by {@link HostReader}, sent through the wire (SampleEncoder,
 * FrameCodec encode and decode, SampleDecoder) into the collector's store and rendered as /metrics, compared with
 * it/src/test/resources/golden/fixture-metrics.txt (reviewed as a diff; {@code -Dgolden.update=true} rewrites it).
 * The collector's own GoldenExpositionTest keeps testing the renderer (and protocol 1 frames) on a built model.
 */
class FixtureExpositionTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden/fixture-metrics.txt");

    /** One agent: a fixture host root read at fixed times, and the wire its samples travel. */
    private static final class Agent {
        private final String root;
        private final SampleEncoder encoder;
        private final FrameCodec codec = new FrameCodec();
        private final SampleDecoder decoder = new SampleDecoder();
        private long seq;

        Agent(String node, String root) {
            this.root = root;
            this.encoder = new SampleEncoder(node, "1.0", 1000);
        }

        /** The sample the collector decodes from what the agent sent for its reading at {@code timestampMillis}. */
        HostSample sampleAt(String node, long timestampMillis) throws Exception {
            HostReader reader = Fixtures.reader(root)
                    .withClock(Clock.fixed(Instant.ofEpochMilli(timestampMillis), ZoneOffset.UTC));
            Optional<HostSample> received = Optional.empty();
            for (Frame frame : encoder.encode(reader.read(node), ++seq)) {
                received = decoder.accept(codec.decode(codec.encode(frame)));
            }
            return received.orElseThrow(() -> new AssertionError("no sample decoded from the frames of " + root));
        }
    }

    static String exposition() throws Exception {
        Agent roce = new Agent("gpu-01", "mlx5-roce");
        Agent erdma = new Agent("gpu-02", "erdma");
        AtomicLong now = new AtomicLong(1_700_000_000_000L);
        NodeStore store = new NodeStore(now::get, 3, 600_000, 900, 100);
        store.connect("gpu-01", "1.0", 1000);
        store.accept(roce.sampleAt("gpu-01", 1_699_999_999_000L));
        store.accept(roce.sampleAt("gpu-01", 1_700_000_000_000L));
        store.connect("gpu-02", "1.0", 1000);
        store.accept(erdma.sampleAt("gpu-02", 1_699_999_990_000L));
        now.addAndGet(3_001); // gpu-02 is past 3 intervals: stale, still exported, rdma_agent_up 0
        store.accept(roce.sampleAt("gpu-01", 1_700_000_003_000L));
        store.connect("gpu-03", "1.0", 1000); // connected, no sample yet: only rdma_agent_up 0
        return MetricsHandler.text(new RdmaMetrics(store), new PrometheusRegistry());
    }

    @Test
    void fixtureHostsThroughTheWireGiveTheGoldenExposition() throws Exception {
        String actual = exposition();
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(GOLDEN, actual, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(GOLDEN), () -> GOLDEN.toAbsolutePath() + " missing (run from the it module directory)");
        assertEquals(Files.readString(GOLDEN, StandardCharsets.UTF_8), actual,
                "exposition differs from " + GOLDEN + " (rerun with -Dgolden.update=true and review the diff)");
    }

    @Test
    void promtoolFindsNothingToReport() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/promtool")), "promtool not installed at /usr/bin/promtool");
        assertEquals("", PromtoolCheck.check(exposition()));
    }
}
