package io.rdmamon.nativeio.netlink;

import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLMSG_DONE;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLMSG_ERROR;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLMSG_HDRLEN;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLMSG_NOOP;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLMSG_OVERRUN;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLM_F_ACK;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLM_F_ACK_TLVS;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLM_F_CAPPED;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLM_F_MULTI;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLMSGERR_ATTR_MSG;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import io.rdmamon.nativeio.Errno;

/**
 * Collects the reply to one request from the messages received, and decides when it is complete. Pure: the socket
 * feeds it; tests feed it built messages.
 *
 * <ul>
 *   <li>Messages with another sequence number or port id are not ours (a late answer to an earlier request) and are
 *       skipped, as are {@code NLMSG_NOOP}s.</li>
 *   <li>{@code NLMSG_ERROR} with a negative error fails the request with that errno and the kernel's extended-ack
 *       text; with error 0 it is the acknowledgement and completes the reply.</li>
 *   <li>{@code NLMSG_DONE} ends a multi-part reply (a negative int in its payload is the dump's error).</li>
 *   <li>A data message completes the reply unless it is multi-part ({@code NLM_F_MULTI}) or an acknowledgement was
 *       asked for ({@code NLM_F_ACK}), which then follows it.</li>
 * </ul>
 */
public final class NetlinkReply {
    private final String request;
    private final int seq;
    private final int portId;
    private final boolean ackRequested;
    private final List<NetlinkMessage> messages = new ArrayList<>();
    private boolean complete;

    /**
     * @param request names the request in error messages, e.g. {@code RTM_GETDCB DCB_CMD_IEEE_GET}
     * @param portId  the socket's port id (the kernel addresses replies to it)
     */
    public NetlinkReply(String request, int seq, int portId, int requestFlags) {
        this.request = request;
        this.seq = seq;
        this.portId = portId;
        this.ackRequested = (requestFlags & NLM_F_ACK) != 0;
    }

    /**
     * Takes one received message.
     *
     * @return whether the reply is now complete
     * @throws NetlinkException the kernel's error for this request, or a malformed error message
     */
    public boolean accept(NetlinkMessage message) throws NetlinkException {
        if (complete) {
            throw new IllegalStateException("reply to " + request + " is already complete");
        }
        if (message.seq() != seq || message.pid() != portId || message.type() == NLMSG_NOOP) {
            return false;
        }
        switch (message.type()) {
            case NLMSG_ERROR -> {
                ByteBuffer payload = requirePayload(message, "NLMSG_ERROR");
                int error = payload.getInt(0);
                if (error < 0) {
                    String kernelMessage = extendedAck(message, payload);
                    throw new NetlinkException(-error, request + " failed: " + Errno.describe(-error)
                            + (kernelMessage == null ? "" : ": " + kernelMessage), kernelMessage);
                }
                complete = true;
            }
            case NLMSG_DONE -> {
                if (message.payloadLength() >= Integer.BYTES) {
                    int error = requirePayload(message, "NLMSG_DONE").getInt(0);
                    if (error < 0) {
                        throw new NetlinkException(-error, request + " dump failed: " + Errno.describe(-error));
                    }
                }
                complete = true;
            }
            case NLMSG_OVERRUN -> throw new NetlinkException(Errno.ENOBUFS, request
                    + ": the kernel reports NLMSG_OVERRUN (data lost)");
            default -> {
                messages.add(message);
                complete = (message.flags() & NLM_F_MULTI) == 0 && !ackRequested;
            }
        }
        return complete;
    }

    public boolean complete() {
        return complete;
    }

    /** The data messages of the reply, in arrival order (no ERROR/DONE). */
    public List<NetlinkMessage> messages() {
        return List.copyOf(messages);
    }

    private ByteBuffer requirePayload(NetlinkMessage message, String what) throws NetlinkException {
        if (message.payloadLength() < Integer.BYTES) {
            throw NetlinkException.malformed(request + ": " + what + " payload of " + message.payloadLength()
                    + " bytes has no error code");
        }
        return ByteBuffer.wrap(message.payload()).order(ByteOrder.nativeOrder());
    }

    /**
     * {@code NLMSGERR_ATTR_MSG} from the TLVs after the echoed request (its header only when {@code NLM_F_CAPPED},
     * else the whole request as its {@code nlmsg_len} says); null when absent or unreadable, since the errno alone
     * already says what failed.
     */
    private static String extendedAck(NetlinkMessage message, ByteBuffer payload) {
        if ((message.flags() & NLM_F_ACK_TLVS) == 0 || payload.capacity() < Integer.BYTES + NLMSG_HDRLEN) {
            return null;
        }
        int echoed = (message.flags() & NLM_F_CAPPED) != 0 ? NLMSG_HDRLEN : payload.getInt(Integer.BYTES);
        int start = Integer.BYTES + NetlinkAbi.align(Math.max(NLMSG_HDRLEN, echoed));
        if (start > payload.capacity()) {
            return null;
        }
        try {
            NetlinkAttribute text = NetlinkAttribute.first(NetlinkAttribute.parseAll(message.payload(), start,
                    payload.capacity() - start, "NLMSG_ERROR"), NLMSGERR_ATTR_MSG);
            return text == null ? null : text.string();
        } catch (NetlinkException unreadable) {
            return null;
        }
    }
}
