package io.rdmamon.agent.workload;

import io.grpc.Status;
import io.rdmamon.protocol.testing.Waits;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent's pod-resources client against a real gRPC server ({@link GrpcKubelet}: grpc-java on a unix socket) whose
 * answers the real {@code protoc} encoded; the directory on top of it against a host root with VFs under
 * {@code sys/bus/pci/devices}.
 */
@ExtendWith(VertxExtension.class)
class KubeletPodResourcesTest {
    /** Long enough for a loaded machine's first call; the tests of the deadline itself take {@link #SHORT_DEADLINE}. */
    static final Duration DEADLINE = Duration.ofSeconds(20);
    static final Duration SHORT_DEADLINE = Duration.ofSeconds(1);

    @TempDir
    Path dir;
    private Path socket;
    private KubeletPodResources client;

    @BeforeEach
    void setUp(Vertx vertx) {
        socket = dir.resolve("kubelet.sock");
        client = new KubeletPodResources(vertx, socket, DEADLINE);
    }

    @AfterEach
    void tearDown() {
        client.close();
    }

    private Throwable failure() {
        return failure(client);
    }

    static Throwable failure(KubeletPodResources client) {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> client.list().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS));
        return e.getCause();
    }

    /**
     * Lists until a call is answered, so that the connection is up before a test of the short deadline: a loaded
     * machine's first connection may take longer than the deadline, and then no call reaches the kubelet at all.
     */
    static void connect(KubeletPodResources client) throws Exception {
        Waits.poll("a first answer from the kubelet",
                () -> Waits.await(client.list().map(true).otherwise(false), Duration.ofSeconds(30)),
                answered -> answered, Duration.ofSeconds(60), Duration.ofMillis(20));
    }

    private List<PodResourcesDecoder.AssignedDevice> list() throws Exception {
        return client.list().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void listReturnsEveryDeviceTheKubeletNames() throws Exception {
        byte[] answer = Protoc.encode("ListPodResourcesResponse", PodResourcesDecoderTest.TWO_PODS);
        try (GrpcKubelet kubelet = new GrpcKubelet(socket, new GrpcKubelet.Message(answer))) {
            assertEquals(PodResourcesDecoderTest.TWO_PODS_DEVICES, list());
            assertEquals(1, kubelet.requests.size());
            assertArrayEquals(new byte[0], kubelet.requests.get(0), "the empty ListPodResourcesRequest");
            assertEquals(PodResourcesDecoderTest.TWO_PODS_DEVICES, list(), "the connection is reused");
        }
    }

    @Test
    void aMissingSocketSaysWhereItWasLookedForAndWhatToMount() throws Exception {
        Throwable e = failure();
        assertTrue(e instanceof KubeletPodResources.PodResourcesException, e.toString());
        assertEquals("no pod-resources socket at " + socket
                + " (mount the kubelet's /var/lib/kubelet/pod-resources into the agent)", e.getMessage());
    }

    @Test
    void aSilentKubeletCostsOneDeadlineAndHasItsCallCancelled(Vertx vertx) throws Exception {
        byte[] empty = Protoc.encode("ListPodResourcesResponse", "");
        try (GrpcKubelet kubelet = new GrpcKubelet(socket, new GrpcKubelet.Message(empty));
             KubeletPodResources shortClient = new KubeletPodResources(vertx, socket, SHORT_DEADLINE)) {
            connect(shortClient);
            int cancelled = kubelet.cancelled.get();
            kubelet.answer(new GrpcKubelet.Silence());
            long start = System.nanoTime();
            Throwable e = failure(shortClient);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(e.getMessage().contains("no answer within the deadline"), e.getMessage());
            assertTrue(e.getMessage().contains(socket.toString()), e.getMessage());
            assertTrue(millis >= SHORT_DEADLINE.toMillis() - 50 && millis < 20_000, millis + " ms");
            Waits.waitFor(() -> kubelet.cancelled.get() == cancelled + 1, "the kubelet sees the call cancelled");
            // the kubelet answering again is read again
            kubelet.answer(new GrpcKubelet.Message(empty));
            assertEquals(List.of(), Waits.await(shortClient.list()));
        }
    }

    @Test
    void aGrpcErrorIsReportedWithItsStatusAndMessage() throws Exception {
        try (GrpcKubelet kubelet = new GrpcKubelet(socket,
                new GrpcKubelet.Failure(Status.RESOURCE_EXHAUSTED.withDescription("rejected by rate limit: 100 qps")))) {
            Throwable e = failure();
            assertEquals("pod-resources List on " + socket + ": gRPC status 8 rejected by rate limit: 100 qps",
                    e.getMessage());
        }
    }

    @Test
    void aMalformedAnswerIsNamed() throws Exception {
        try (GrpcKubelet kubelet = new GrpcKubelet(socket, new GrpcKubelet.Message(new byte[]{1 << 3 | 2, 100}))) {
            Throwable e = failure();
            assertTrue(e.getMessage().startsWith("pod-resources List on " + socket + ": "), e.getMessage());
            assertTrue(e.getMessage().contains("malformed protobuf at byte "), e.getMessage());
        }
    }

    @Test
    void aSocketNobodyListensOnIsRefused() throws Exception {
        // a socket bound and closed: its file stays behind, as a kubelet that died leaves it
        ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(UnixDomainSocketAddress.of(socket)).close();
        assertTrue(Files.exists(socket));
        Throwable e = failure();
        assertTrue(e.getMessage().contains("connection refused (the kubelet is not listening"), e.getMessage());
    }

    @Test
    void permissionDeniedSaysWhatTheAgentNeeds() {
        // root (as the tests run in CI) passes a socket's permissions, so the kernel's EACCES text is mapped here
        assertEquals("permission denied (the socket is root's: run the agent as root or give it the socket's group)",
                KubeletPodResources.describe(new java.net.SocketException("connect(..) failed: Permission denied")));
    }

    /** Device ids as device plugins and DRA drivers write them, and the PCI address each names (null: none). */
    @ParameterizedTest
    @CsvSource(nullValues = "-", value = {
            "0000:3b:00.2,       0000:3b:00.2", // the SR-IOV device plugin
            "0000:3B:00.3,       0000:3b:00.3", // sysfs names are lower case
            "pci-0000-8a-00-0,   0000:8a:00.0", // dranet
            "0000-8A-00-7,       0000:8a:00.7", // dra-driver-sriov
            "0,                  -",            // the shared RDMA plugin
            "GPU-8f6c2f4e,       -",
            "gpu-0,              -",            // a DRA GPU driver
            "pci-0000-8a-00-8,   -",            // no function 8
            "0000-8a:00.0,       -",            // the two forms mixed
            "net-nzxw4ylh,       -",            // dranet's name for a virtual interface
            "pci-0000-8a-00-0-1, -"})
    void aDeviceIdNamesAPciAddressInEitherForm(String deviceId, String address) {
        assertEquals(Optional.ofNullable(address), KubeletPodDirectory.pciAddress(deviceId));
    }

    @Test
    void theDirectoryNamesThePodHoldingAVfAndKeepsItWhenTheKubeletGoes(Vertx vertx) throws Exception {
        Path root = dir.resolve("root");
        Files.createDirectories(root.resolve("sys/bus/pci/devices/0000:3b:00.2/infiniband/mlx5_4"));
        Files.createDirectories(root.resolve("sys/bus/pci/devices/0000:3b:00.3/net/ens1f0v1")); // no RDMA device
        Files.createDirectories(root.resolve("sys/bus/pci/devices/0000:8a:00.0/infiniband/mlx5_2")); // dranet's claim
        Files.createDirectories(root.resolve("sys/bus/pci/devices/0000:8a:00.2/infiniband/mlx5_6")); // a DRA SR-IOV VF
        KubeletPodDirectory pods = new KubeletPodDirectory(vertx, client, null, root);
        assertTrue(pods.unknownReason().contains("not read yet"), pods.unknownReason());
        byte[] answer = Protoc.encode("ListPodResourcesResponse", PodResourcesDecoderTest.TWO_PODS);
        try (GrpcKubelet kubelet = new GrpcKubelet(socket, new GrpcKubelet.Message(answer))) {
            pods.refresh().await(30, TimeUnit.SECONDS);
        }
        PodDirectory.PodName train = new PodDirectory.PodName("ml", "train-llama-0", "worker");
        assertEquals(Optional.of(train), pods.holding("mlx5_4"));
        assertEquals(Optional.of(train), pods.holding("mlx5_2"), "through the pod's DRA claim (dranet)");
        assertEquals(Optional.of(train), pods.holding("mlx5_6"), "through the pod's DRA claim (dra-driver-sriov)");
        assertEquals(Optional.empty(), pods.holding("mlx5_0"));
        assertEquals(KubeletPodDirectory.NO_UID, pods.unknownReason());

        assertTrue(Files.notExists(socket), "the server took its socket away");
        pods.refresh().await(30, TimeUnit.SECONDS);
        assertEquals(Optional.of(train), pods.holding("mlx5_4"), "a kubelet restart forgets no VF");
        assertTrue(pods.unknownReason().startsWith("pod name unknown: no pod-resources socket at "),
                pods.unknownReason());
    }
}
