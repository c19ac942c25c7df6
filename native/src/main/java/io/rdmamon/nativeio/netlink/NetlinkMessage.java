package io.rdmamon.nativeio.netlink;

import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLMSG_HDRLEN;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * One received netlink message: the {@code struct nlmsghdr} fields and its payload (family header, then attributes).
 * The payload array is the message's own copy.
 */
public final class NetlinkMessage {
    private final int type;
    private final int flags;
    private final int seq;
    private final int pid;
    private final byte[] payload;

    public NetlinkMessage(int type, int flags, int seq, int pid, byte[] payload) {
        this.type = type;
        this.flags = flags;
        this.seq = seq;
        this.pid = pid;
        this.payload = payload;
    }

    /**
     * The messages of one datagram (a multi-part reply packs several), each at a 4-byte aligned offset.
     *
     * @throws NetlinkException when a header is cut off or an {@code nlmsg_len} is below 16 or runs past the datagram
     */
    public static List<NetlinkMessage> parseDatagram(byte[] datagram, int length) throws NetlinkException {
        if (length > datagram.length) {
            throw NetlinkException.malformed("datagram length " + length + " exceeds the " + datagram.length
                    + "-byte buffer");
        }
        ByteBuffer buffer = ByteBuffer.wrap(datagram, 0, length).order(ByteOrder.nativeOrder());
        List<NetlinkMessage> messages = new ArrayList<>();
        int position = 0;
        while (position < length) {
            int left = length - position;
            if (left < NLMSG_HDRLEN) {
                throw NetlinkException.malformed(left + " bytes at offset " + position
                        + " are too short for a message header (16 bytes)");
            }
            long messageLength = Integer.toUnsignedLong(buffer.getInt(position));
            int type = Short.toUnsignedInt(buffer.getShort(position + 4));
            if (messageLength < NLMSG_HDRLEN || messageLength > left) {
                throw NetlinkException.malformed("message type " + type + " at offset " + position + " has nlmsg_len "
                        + messageLength + ", outside [16, " + left + "]");
            }
            byte[] payload = new byte[(int) messageLength - NLMSG_HDRLEN];
            System.arraycopy(datagram, position + NLMSG_HDRLEN, payload, 0, payload.length);
            messages.add(new NetlinkMessage(type, Short.toUnsignedInt(buffer.getShort(position + 6)),
                    buffer.getInt(position + 8), buffer.getInt(position + 12), payload));
            position = Math.min(length, position + NetlinkAbi.align((int) messageLength));
        }
        return messages;
    }

    public int type() {
        return type;
    }

    public int flags() {
        return flags;
    }

    public int seq() {
        return seq;
    }

    /** {@code nlmsg_pid}: for a kernel reply, the port id of the socket that asked. */
    public int pid() {
        return pid;
    }

    /** The payload after the {@code nlmsghdr}: a copy. */
    public byte[] payload() {
        return payload.clone();
    }

    public int payloadLength() {
        return payload.length;
    }

    /** A byte of the payload (a family header field), checked. */
    public int payloadU8(int index, String field) throws NetlinkException {
        if (index >= payload.length) {
            throw NetlinkException.malformed("message type " + type + ": payload of " + payload.length
                    + " bytes has no " + field + " at offset " + index);
        }
        return Byte.toUnsignedInt(payload[index]);
    }

    /**
     * The attributes after a family header of {@code familyHeaderLength} bytes ({@code struct dcbmsg}: 4,
     * {@code struct ifinfomsg}: 16, genetlink: 4).
     *
     * @param where names the message in error messages, e.g. {@code RTM_GETDCB reply}
     */
    public List<NetlinkAttribute> attributes(int familyHeaderLength, String where) throws NetlinkException {
        int start = NetlinkAbi.align(familyHeaderLength);
        if (payload.length < familyHeaderLength) {
            throw NetlinkException.malformed(where + ": payload of " + payload.length
                    + " bytes is shorter than its " + familyHeaderLength + "-byte family header");
        }
        return NetlinkAttribute.parseAll(payload, Math.min(start, payload.length),
                Math.max(0, payload.length - start), where);
    }

    @Override
    public String toString() {
        return "NetlinkMessage[type=" + type + ", flags=0x" + Integer.toHexString(flags) + ", seq="
                + Integer.toUnsignedString(seq) + ", pid=" + Integer.toUnsignedString(pid) + ", payload="
                + payload.length + " bytes]";
    }
}
