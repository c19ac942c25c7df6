package io.rdmamon.collector.exposition;

import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.collector.GoldenScenario;
import io.rdmamon.protocol.testing.PromtoolCheck;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.SampleDecoder;
import io.rdmamon.protocol.wire.SampleEncoder;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
            HostReader reader = Fixtures.builder(root)
                    .clock(Clock.fixed(Instant.ofEpochMilli(timestampMillis), ZoneOffset.UTC)).build();
            Optional<HostSample> received = Optional.empty();
            for (Frame frame : encoder.encode(reader.read(node), ++seq)) {
                received = decoder.accept(codec.decode(codec.encode(frame)));
            }
            return received.orElseThrow(() -> new AssertionError("no sample decoded from the frames of " + root));
        }
    }

    /** gpu-01 is the RoCE fixture host, every other node the eRDMA one. */
    static String exposition() throws Exception {
        Agent roce = new Agent("gpu-01", "mlx5-roce");
        Agent erdma = new Agent("gpu-02", "erdma");
        return GoldenScenario.exposition((node, timestampMillis, step) ->
                (node.equals("gpu-01") ? roce : erdma).sampleAt(node, timestampMillis));
    }

    @Test
    void fixtureHostsThroughTheWireGiveTheGoldenExposition() throws Exception {
        GoldenScenario.assertMatchesGolden(GOLDEN, exposition());
    }

    @Test
    void promtoolFindsNothingToReport() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/promtool")), "promtool not installed at /usr/bin/promtool");
        assertEquals("", PromtoolCheck.check(exposition()));
    }
}
