package io.rdmamon.protocol.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.testing.FixtureHosts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The layout's optional {@code topology}: round trip, a change is a layout change, hostile values refused by name. */
class TopologyWireTest {
    private final FrameCodec codec = new FrameCodec();

    /** One GPU, two NICs: mlx5_0 PIX and ready, mlx5_1 SYS behind an ACS redirect (not_ready). */
    static GpuTopology topology(String verdict) {
        return new GpuTopology(List.of(
                new GpuTopology.Endpoint("GPU0", "GPU0", "gpu", "0000:19:00.0", 0, "0-55", null),
                new GpuTopology.Endpoint("mlx5_0", "NIC0", "nic", "0000:19:02.0", 0, "0-55", true),
                new GpuTopology.Endpoint("mlx5_1", "NIC1", "nic", "0000:99:02.0", null, null, false)),
                List.of(List.of("X", "PIX", "SYS"), List.of("PIX", "X", "SYS"), List.of("SYS", "SYS", "X")),
                List.of(new GpuTopology.Pair("GPU0", "mlx5_0", "PIX", verdict, true, List.of(), List.of()),
                        new GpuTopology.Pair("GPU0", "mlx5_1", "SYS", "not_ready", false, List.of("0000:98:00.0"),
                                List.of("GPU0↔mlx5_1 path SYS: NCCL will not use GPUDirect RDMA"))),
                true, List.of("cmdline: iommu=pt"));
    }

    static HostSample with(HostSample sample, GpuTopology topology) {
        return new HostSample(sample.node(), sample.timestampMillis(), sample.devices(), sample.sources(), null,
                topology);
    }

    @Test
    void topologySurvivesTheWireExactly() throws FrameException {
        HostSample sample = with(FixtureHosts.codec(1, 10, 7L), topology("ready"));
        SampleEncoder encoder = new SampleEncoder("gpu-01", "3.0", 1000);
        SampleDecoder decoder = new SampleDecoder();
        List<HostSample> decoded = new ArrayList<>();
        for (Frame frame : encoder.encode(sample, 1)) {
            decoder.accept(codec.decode(codec.encode(frame))).ifPresent(decoded::add);
        }

        assertEquals(List.of(sample), decoded);
    }

    @Test
    void aVerdictChangeIsALayoutChange() throws FrameException {
        SampleEncoder encoder = new SampleEncoder("gpu-01", "3.0", 1000);
        encoder.encode(with(FixtureHosts.codec(1, 10, 7L), topology("ready")), 1);

        List<Frame> same = encoder.encode(with(FixtureHosts.codec(2, 20, 7L), topology("ready")), 2);
        List<Frame> changed = encoder.encode(with(FixtureHosts.codec(3, 30, 7L), topology("degraded")), 3);

        assertEquals(1, same.size());
        assertInstanceOf(Frame.LayoutChange.class, changed.get(0));
        Frame.LayoutChange change = (Frame.LayoutChange) codec.decode(codec.encode(changed.get(0)));
        assertEquals("degraded", change.layout().topology().pairs().get(0).verdict());
    }

    static Stream<Arguments> malformed() {
        String at = "frame.layout.topology";
        return Stream.of(
                edit("unknown kind", t -> ((ObjectNode) t.get("endpoints").get(0)).put("kind", "fpga"),
                        at + ".endpoints[0].kind: expected \"gpu\" or \"nic\""),
                edit("negative NUMA node", t -> ((ObjectNode) t.get("endpoints").get(1)).put("numaNode", -1),
                        at + ".endpoints[1].numaNode: negative"),
                edit("matrix not square", t -> ((ArrayNode) t.get("matrix").get(1)).remove(2),
                        at + ".matrix[1]: expected 3 path classes"),
                edit("unknown path class in the matrix", t -> ((ArrayNode) t.get("matrix").get(0)).set(1, "NV18"),
                        at + ".matrix[0]: expected one of"),
                edit("unknown verdict", t -> ((ObjectNode) t.get("pairs").get(0)).put("verdict", "fine"),
                        at + ".pairs[0].verdict: expected one of"),
                edit("pair of an unlisted NIC", t -> ((ObjectNode) t.get("pairs").get(0)).put("nic", "mlx5_9"),
                        at + ".pairs[0]: pair 'GPU0'/'mlx5_9' names no listed GPU and NIC"),
                edit("X as a pair's path", t -> ((ObjectNode) t.get("pairs").get(0)).put("path", "X"),
                        at + ".pairs[0].path: expected one of"),
                edit("more pairs than GPUs × NICs", t -> ((ArrayNode) t.get("pairs")).add(t.get("pairs").get(0).deepCopy())
                        .add(t.get("pairs").get(0).deepCopy()), at + ".pairs lists 4 pairs for 1 GPUs and 2 NICs"),
                edit("reason too long", t -> ((ArrayNode) t.get("pairs").get(1).get("reasons")).add("x".repeat(1024)),
                        at + ".pairs[1].reasons: a line longer than 1023 characters"),
                edit("no peermem flag", t -> t.remove("peermem"), at + ".peermem: missing"));
    }

    private static Arguments edit(String name, Consumer<ObjectNode> edit, String expected) {
        return Arguments.of(name, edit, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedTopologyIsRefusedNamingTheField(String name, Consumer<ObjectNode> edit, String expected)
            throws Exception {
        Frame hello = new SampleEncoder("gpu-01", "3.0", 1000)
                .encode(with(FixtureHosts.codec(1, 10, 7L), topology("ready")), 1).get(0);
        ObjectNode json = (ObjectNode) FrameCodec.MAPPER.readTree(codec.encode(hello));
        edit.accept((ObjectNode) json.get("layout").get("topology"));

        FrameException e = assertThrows(FrameException.class,
                () -> codec.decode(FrameCodec.MAPPER.writeValueAsBytes(json)));

        assertTrue(e.getMessage().startsWith(expected), e.getMessage());
    }
}
