package io.rdmamon.agent.workload;

import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real gRPC server (grpc-java over netty, on a unix socket as the kubelet serves it) implementing the pod-resources
 * {@code v1.PodResourcesLister/List} method: it answers what the test sets — an encoded message, a gRPC error, or
 * nothing at all — keeps the requests it got, and counts the calls open at once and those the client cancelled.
 * Messages are plain bytes (encoded by {@link Protoc}), so no generated code stands between the test and the wire.
 */
final class GrpcKubelet implements AutoCloseable {
    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };
    static final MethodDescriptor<byte[], byte[]> LIST = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName("v1.PodResourcesLister/List")
            .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();

    /** What {@code List} does. */
    sealed interface Answer permits Message, Failure, Silence {
    }

    record Message(byte[] bytes) implements Answer {
    }

    record Failure(Status status) implements Answer {
    }

    /** Never answers: a hung kubelet. */
    record Silence() implements Answer {
    }

    final List<byte[]> requests = new CopyOnWriteArrayList<>();
    /** Calls the client cancelled (an HTTP/2 {@code RST_STREAM}, or the connection closed). */
    final AtomicInteger cancelled = new AtomicInteger();
    /** The most calls open at once. */
    final AtomicInteger mostOpen = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final EpollEventLoopGroup loops = new EpollEventLoopGroup(1);
    private final Server server;
    private volatile Answer answer;

    GrpcKubelet(Path socket, Answer answer) throws IOException {
        this.answer = answer;
        ServerServiceDefinition service = ServerServiceDefinition.builder("v1.PodResourcesLister")
                .addMethod(LIST, (call, headers) -> listen(call)).build();
        server = NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .channelType(EpollServerDomainSocketChannel.class).bossEventLoopGroup(loops)
                .workerEventLoopGroup(loops).addService(service).build().start();
    }

    void answer(Answer next) {
        answer = next;
    }

    private ServerCall.Listener<byte[]> listen(ServerCall<byte[], byte[]> call) {
        mostOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
        call.request(1);
        return new ServerCall.Listener<byte[]>() {
            @Override
            public void onCancel() {
                cancelled.incrementAndGet();
                open.decrementAndGet();
            }

            @Override
            public void onComplete() {
                open.decrementAndGet();
            }

            @Override
            public void onMessage(byte[] request) {
                requests.add(request);
            }

            @Override
            public void onHalfClose() {
                respond(call);
            }
        };
    }

    private void respond(ServerCall<byte[], byte[]> call) {
        Answer now = answer;
        if (now instanceof Message message) {
            call.sendHeaders(new Metadata());
            call.sendMessage(message.bytes());
            call.close(Status.OK, new Metadata());
        } else if (now instanceof Failure failure) {
            call.close(failure.status(), new Metadata());
        }
        // Silence: the call stays open until the client gives up
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
    }
}
