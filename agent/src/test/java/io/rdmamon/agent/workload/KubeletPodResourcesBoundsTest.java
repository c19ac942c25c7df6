package io.rdmamon.agent.workload;

import io.rdmamon.protocol.testing.Waits;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

import static io.rdmamon.agent.workload.KubeletPodResourcesTest.DEADLINE;
import static io.rdmamon.agent.workload.KubeletPodResourcesTest.SHORT_DEADLINE;
import static io.rdmamon.agent.workload.KubeletPodResourcesTest.connect;
import static io.rdmamon.agent.workload.KubeletPodResourcesTest.failure;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A hostile or broken kubelet cannot exhaust the agent (docs/workloads.md, "Bounds on what the kubelet answers"):
 * an answer over the cap is refused at its prefix, an endless one is reset at the deadline, a message of millions of
 * rows is counted rather than decoded, and a burst of refreshes while a call hangs opens no second stream.
 */
@ExtendWith(VertxExtension.class)
class KubeletPodResourcesBoundsTest {
    private static final int CAP = 16 << 20;
    private static final Duration REFRESH_WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;
    private Path socket;

    @BeforeEach
    void setUp() {
        socket = dir.resolve("kubelet.sock");
    }

    @Test
    void anAnswerClaimingMoreThanTheCapIsRefusedAtItsPrefixAndItsStreamReset(Vertx vertx) throws Exception {
        try (HostileKubelet kubelet = new HostileKubelet(vertx, socket, 200L << 20, HostileKubelet.Pace.FLOOD);
             KubeletPodResources client = new KubeletPodResources(vertx, socket, DEADLINE)) {
            kubelet.turnHostile();
            assertEquals("pod-resources List on " + socket + ": message of 209715200 bytes claimed, over the agent's"
                    + " cap of 16777216 (refused after its 5-byte prefix)", failure(client).getMessage());
            Waits.waitFor(() -> kubelet.resets.get() == 1, "the kubelet sees the stream reset");
            // the kubelet writes only as fast as the agent reads (HTTP/2 flow control): what it could write before the
            // reset is what the agent read
            assertTrue(kubelet.written.get() < CAP, kubelet.written + " bytes written before the reset");
        }
    }

    @Test
    void anEndlessAnswerIsCutAtTheDeadlineAndItsStreamReset(Vertx vertx) throws Exception {
        try (HostileKubelet kubelet = new HostileKubelet(vertx, socket, 1 << 20, HostileKubelet.Pace.TRICKLE);
             KubeletPodResources client = new KubeletPodResources(vertx, socket, SHORT_DEADLINE)) {
            connect(client);
            kubelet.turnHostile();
            assertEquals("pod-resources List on " + socket + ": no answer within the deadline (kubelet overloaded or"
                    + " hung)", failure(client).getMessage());
            Waits.waitFor(() -> kubelet.resets.get() == 1, "the kubelet sees the stream reset");
        }
    }

    @Test
    void millionsOfTinyDeviceIdsAreCountedNotDecodedAndTheLastGoodAnswerIsKept(Vertx vertx) throws Exception {
        Files.createDirectories(dir.resolve("sys/bus/pci/devices/0000:3b:00.2/infiniband/mlx5_4"));
        byte[] good = Protoc.encode("ListPodResourcesResponse", PodResourcesDecoderTest.TWO_PODS);
        byte[] hostile = manyDeviceIds(5_000_000);
        assertTrue(hostile.length <= CAP, hostile.length + " bytes: within the cap, the decoded size is the bound");
        try (GrpcKubelet kubelet = new GrpcKubelet(socket, new GrpcKubelet.Message(good));
             KubeletPodResources client = new KubeletPodResources(vertx, socket, DEADLINE)) {
            KubeletPodDirectory pods = new KubeletPodDirectory(vertx, client, null, dir);
            Waits.await(pods.refresh(), REFRESH_WAIT);
            kubelet.answer(new GrpcKubelet.Message(hostile));
            Waits.await(pods.refresh(), REFRESH_WAIT);
            assertEquals("pod name unknown: pod-resources List on " + socket + ": answer beyond the agent's bounds:"
                    + " 4934464 devices over 65536 (none of it used)", pods.unknownReason());
            assertEquals(Optional.of(new PodDirectory.PodName("ml", "train-llama-0", "worker")),
                    pods.holding("mlx5_4"), "the devices of the last good answer are kept");
        }
    }

    @Test
    void aBurstOfRefreshesWhileACallHangsOpensOneStream(Vertx vertx) throws Exception {
        try (GrpcKubelet kubelet = new GrpcKubelet(socket,
                new GrpcKubelet.Message(Protoc.encode("ListPodResourcesResponse", "")));
             KubeletPodResources client = new KubeletPodResources(vertx, socket, SHORT_DEADLINE)) {
            connect(client);
            int connecting = kubelet.requests.size();
            int cancelled = kubelet.cancelled.get();
            kubelet.answer(new GrpcKubelet.Silence());
            KubeletPodDirectory pods = new KubeletPodDirectory(vertx, client, null, dir);
            List<Future<Void>> burst = IntStream.range(0, 10).mapToObj(i -> pods.refresh()).toList();
            Waits.await(Future.all(burst), REFRESH_WAIT);
            assertTrue(pods.unknownReason().contains("no answer within the deadline"), pods.unknownReason());
            assertEquals(connecting + 1, kubelet.requests.size(), "one call for the whole burst");
            Waits.waitFor(() -> kubelet.cancelled.get() == cancelled + 1, "the kubelet sees the call cancelled");
            // the call ended: the next refresh calls again
            Waits.await(pods.refresh(), REFRESH_WAIT);
            assertEquals(connecting + 2, kubelet.requests.size());
            assertEquals(1, kubelet.mostOpen.get(), "calls open at once");
        }
    }

    @Test
    void theHandEncodedAnswerIsWhatProtocWrites() throws Exception {
        assertArrayEquals(Protoc.encode("ListPodResourcesResponse", """
                        pod_resources { name: "flood" namespace: "x" containers { name: "c"
                          devices { resource_name: "r" device_ids: "0" device_ids: "1" device_ids: "2" } } }
                        """), manyDeviceIds(3));
    }

    /**
     * A pod whose one container holds {@code count} one-byte device ids: 3 bytes an id, the most rows a byte buys.
     * Encoded by hand (protoc would read megabytes of text); {@link #theHandEncodedAnswerIsWhatProtocWrites} checks it.
     */
    static byte[] manyDeviceIds(int count) {
        ByteArrayOutputStream devices = new ByteArrayOutputStream();
        field(devices, 1, "r".getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < count; i++) {
            field(devices, 2, new byte[]{(byte) ('0' + i % 10)});
        }
        ByteArrayOutputStream container = new ByteArrayOutputStream();
        field(container, 1, "c".getBytes(StandardCharsets.UTF_8));
        field(container, 2, devices.toByteArray());
        ByteArrayOutputStream pod = new ByteArrayOutputStream();
        field(pod, 1, "flood".getBytes(StandardCharsets.UTF_8));
        field(pod, 2, "x".getBytes(StandardCharsets.UTF_8));
        field(pod, 3, container.toByteArray());
        ByteArrayOutputStream response = new ByteArrayOutputStream();
        field(response, 1, pod.toByteArray());
        return response.toByteArray();
    }

    /** A length-delimited field (protobuf.dev "Encoding"): tag, varint length, bytes. */
    private static void field(ByteArrayOutputStream out, int number, byte[] value) {
        varint(out, number << 3 | 2);
        varint(out, value.length);
        out.writeBytes(value);
    }

    private static void varint(ByteArrayOutputStream out, long value) {
        while (value >= 0x80) {
            out.write((int) (value & 0x7f | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }
}
