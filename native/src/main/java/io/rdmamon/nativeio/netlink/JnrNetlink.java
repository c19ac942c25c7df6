package io.rdmamon.nativeio.netlink;

import static io.rdmamon.nativeio.netlink.NetlinkAbi.AF_NETLINK;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.MSG_TRUNC;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NETLINK_CAP_ACK;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NETLINK_EXT_ACK;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.SOCKADDR_NL_SIZE;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.SOCK_CLOEXEC;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.SOCK_RAW;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.SOL_NETLINK;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.SOL_SOCKET;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.SO_RCVTIMEO;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.TIMEVAL_SIZE;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.LibC;
import io.rdmamon.nativeio.NativeSupport;

/**
 * {@link Netlink} over a real {@code AF_NETLINK} socket, one per exchange: {@code socket}, {@code SO_RCVTIMEO},
 * {@code bind} (the kernel picks the port id), {@code sendto} the kernel, {@code recv} until the reply is complete,
 * {@code close}. Every {@code recv} waits at most the receive timeout, so a kernel that never answers costs the caller
 * that long and an {@code EAGAIN} {@link NetlinkException}, never a hang. Like iproute2 it asks for capped acks and
 * extended-ack texts (both best effort: kernels before 4.12 lack them).
 *
 * <p>Blocking; thread safe. The socket belongs to the network namespace of the calling thread.
 */
public final class JnrNetlink implements Netlink {
    /** Default receive timeout: the kernel answers DCB and link requests in microseconds. */
    public static final Duration DEFAULT_RECEIVE_TIMEOUT = Duration.ofSeconds(2);
    /** One datagram of a reply; the kernel's dump skbs stay below 32 KiB. */
    private static final int RECEIVE_BUFFER = 64 * 1024;

    private final Duration receiveTimeout;
    private final AtomicInteger sequence = new AtomicInteger((int) (System.currentTimeMillis() / 1000));

    public JnrNetlink() {
        this(DEFAULT_RECEIVE_TIMEOUT);
    }

    public JnrNetlink(Duration receiveTimeout) {
        if (receiveTimeout.isNegative() || receiveTimeout.isZero()) {
            throw new IllegalArgumentException("receive timeout must be positive, got " + receiveTimeout);
        }
        this.receiveTimeout = receiveTimeout;
    }

    @Override
    public List<NetlinkMessage> exchange(int protocol, NetlinkMessageBuilder request, String description)
            throws NetlinkException {
        var unsupported = NativeSupport.unsupportedReason();
        if (unsupported.isPresent()) {
            throw new NetlinkException(0, description + ": " + unsupported.get());
        }
        LibC libc = NativeSupport.libc();
        int fd = libc.socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, protocol);
        if (fd < 0) {
            throw systemCallFailed(description, "socket(AF_NETLINK, SOCK_RAW, " + protocol + ")");
        }
        try {
            int portId = prepare(libc, fd, description);
            int seq = sequence.incrementAndGet();
            byte[] message = request.build(seq, 0);
            byte[] kernel = socketAddress(0);
            long sent = libc.sendto(fd, message, message.length, 0, kernel, kernel.length);
            if (sent < 0) {
                throw systemCallFailed(description, "sendto");
            }
            if (sent != message.length) {
                throw new NetlinkException(Errno.EMSGSIZE, description + ": sendto sent " + sent + " of "
                        + message.length + " bytes");
            }
            return receive(libc, fd, new NetlinkReply(description, seq, portId, request.flags()), description);
        } finally {
            libc.close(fd);
        }
    }

    /** Receive timeout, optional ack options, bind; returns the port id the kernel gave the socket. */
    private int prepare(LibC libc, int fd, String description) throws NetlinkException {
        byte[] timeval = ByteBuffer.allocate(TIMEVAL_SIZE).order(ByteOrder.nativeOrder())
                .putLong(receiveTimeout.toSeconds()).putLong(receiveTimeout.toMillisPart() * 1000L).array();
        if (libc.setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, timeval, timeval.length) != 0) {
            throw systemCallFailed(description, "setsockopt(SO_RCVTIMEO)");
        }
        byte[] on = ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.nativeOrder()).putInt(1).array();
        libc.setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, on, on.length);
        libc.setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, on, on.length);
        byte[] local = socketAddress(0);
        if (libc.bind(fd, local, local.length) != 0) {
            throw systemCallFailed(description, "bind");
        }
        int[] length = {SOCKADDR_NL_SIZE};
        if (libc.getsockname(fd, local, length) != 0) {
            throw systemCallFailed(description, "getsockname");
        }
        return ByteBuffer.wrap(local).order(ByteOrder.nativeOrder()).getInt(4);
    }

    private List<NetlinkMessage> receive(LibC libc, int fd, NetlinkReply reply, String description)
            throws NetlinkException {
        byte[] buffer = new byte[RECEIVE_BUFFER];
        while (true) {
            long received = libc.recv(fd, buffer, buffer.length, MSG_TRUNC);
            if (received < 0) {
                int errno = Errno.last();
                if (errno == Errno.EINTR) {
                    continue;
                }
                if (errno == Errno.EAGAIN) {
                    throw new NetlinkException(errno, description + ": no reply within "
                            + receiveTimeout.toMillis() + " ms (" + Errno.describe(errno) + ")");
                }
                throw new NetlinkException(errno, description + ": recv failed: " + Errno.describe(errno));
            }
            if (received > buffer.length) {
                throw new NetlinkException(Errno.EMSGSIZE, description + ": a reply datagram of " + received
                        + " bytes exceeds the " + buffer.length + "-byte receive buffer");
            }
            for (NetlinkMessage message : NetlinkMessage.parseDatagram(buffer, (int) received)) {
                if (reply.accept(message)) {
                    return reply.messages();
                }
            }
        }
    }

    /** {@code struct sockaddr_nl} for port id {@code pid}, no multicast groups. */
    private static byte[] socketAddress(int pid) {
        return ByteBuffer.allocate(SOCKADDR_NL_SIZE).order(ByteOrder.nativeOrder())
                .putShort((short) AF_NETLINK).putShort((short) 0).putInt(pid).putInt(0).array();
    }

    private static NetlinkException systemCallFailed(String description, String call) {
        int errno = Errno.last();
        return new NetlinkException(errno, description + ": " + call + " failed: " + Errno.describe(errno));
    }
}
