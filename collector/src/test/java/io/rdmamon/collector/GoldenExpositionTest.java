package io.rdmamon.collector;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.FrameException;
import io.rdmamon.protocol.wire.SampleDecoder;
import io.rdmamon.protocol.wire.WireFormat;
import io.rdmamon.protocol.testing.PromtoolCheck;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The rdma_* exposition of the {@link GoldenScenario} store fed {@link FixtureHosts#golden} samples, compared with
 * collector/src/test/resources/golden/metrics.txt (reviewed as a diff; {@code -Dgolden.update=true} rewrites it),
 * and checked by promtool.
 */
class GoldenExpositionTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden/metrics.txt");

    @Test
    void expositionMatchesTheGoldenFile() throws Exception {
        GoldenScenario.assertMatchesGolden(GOLDEN, GoldenScenario.exposition(FixtureHosts::golden));
    }

    /**
     * A protocol 1 agent, whose values frames carry every per-priority counter twice (raw and as typed copies),
     * gives this collector the same model and exposition. The frames in {@code /wire/v1/golden-<node>.jsonl} were
     * written by the protocol 1 encoder for the golden samples (step 1, 2, 3 of gpu-01; step 1 of gpu-02).
     */
    @Test
    void framesOfAProtocolOneAgentGiveTheSameExposition() throws Exception {
        Map<String, List<HostSample>> streams = new HashMap<>();
        for (String node : List.of("gpu-01", "gpu-02")) {
            streams.put(node, decodeProtocolOne("/wire/v1/golden-" + node + ".jsonl"));
        }
        String actual = GoldenScenario.exposition((node, timestampMillis, step) -> {
            HostSample sample = streams.get(node).get((int) step - 1);
            assertEquals(FixtureHosts.golden(node, timestampMillis, step), sample, "the recorded frames' model");
            return sample;
        });
        assertEquals(Files.readString(GOLDEN, StandardCharsets.UTF_8), actual);
    }

    private static List<HostSample> decodeProtocolOne(String resource) throws IOException, FrameException {
        FrameCodec codec = new FrameCodec(WireFormat.DEFAULT_MAX_FRAME_BYTES, "collector");
        SampleDecoder decoder = new SampleDecoder();
        List<HostSample> samples = new ArrayList<>();
        try (InputStream in = GoldenExpositionTest.class.getResourceAsStream(resource)) {
            for (String frame : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
                assertTrue(frame.startsWith("{\"v\":1,"), frame);
                decoder.accept(codec.decode(frame.getBytes(StandardCharsets.UTF_8))).ifPresent(samples::add);
            }
        }
        return samples;
    }

    @Test
    void promtoolFindsNothingToReport() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/promtool")), "promtool not installed at /usr/bin/promtool");
        assertEquals("", PromtoolCheck.check(GoldenScenario.exposition(FixtureHosts::golden)));
    }
}
