package io.rdmamon.nativeio.netlink;

import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLA_F_NESTED;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLA_HDRLEN;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLA_TYPE_MASK;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLMSG_HDRLEN;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds one netlink request the way libmnl does: {@code nlmsghdr}, the family header (padded to 4), then attributes,
 * each {@code nlattr} + payload padded to 4 with zeros; {@code nla_len} counts the header and the unpadded payload.
 * Values are host byte order. The sequence number and port id are filled in by {@link #build(int, int)}, so a builder
 * can be sent more than once.
 *
 * <p>Misuse (a value out of range, a family header after attributes, an unclosed nest) is a programming error and
 * throws {@link IllegalArgumentException} / {@link IllegalStateException}.
 */
public final class NetlinkMessageBuilder {
    private static final int MAX_NLA_LENGTH = 0xffff;

    private final int type;
    private final int flags;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private boolean attributesStarted;
    private int openNests;

    public NetlinkMessageBuilder(int type, int flags) {
        requireRange("nlmsg_type", type, 0xffff);
        requireRange("nlmsg_flags", flags, 0xffff);
        this.type = type;
        this.flags = flags;
    }

    /** The request's flags: whether an acknowledgement ({@code NLM_F_ACK}) will end the reply. */
    public int flags() {
        return flags;
    }

    /** The family's fixed header ({@code struct dcbmsg}, {@code struct ifinfomsg}, {@code genlmsghdr}). */
    public NetlinkMessageBuilder familyHeader(byte[] header) {
        if (attributesStarted) {
            throw new IllegalStateException("the family header goes before the attributes");
        }
        writePadded(header);
        return this;
    }

    public NetlinkMessageBuilder u8(int attributeType, int value) {
        requireRange("u8 attribute " + attributeType, value, 0xff);
        return attribute(attributeType, new byte[] {(byte) value});
    }

    public NetlinkMessageBuilder u16(int attributeType, int value) {
        requireRange("u16 attribute " + attributeType, value, 0xffff);
        return attribute(attributeType, ByteBuffer.allocate(2).order(ByteOrder.nativeOrder()).putShort((short) value)
                .array());
    }

    /** A u32; {@code value} is taken as unsigned (0 .. 2^32-1). */
    public NetlinkMessageBuilder u32(int attributeType, long value) {
        requireRange("u32 attribute " + attributeType, value, 0xffff_ffffL);
        return attribute(attributeType, ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt((int) value)
                .array());
    }

    /** A NUL-terminated string ({@code NLA_NUL_STRING}, libmnl's {@code mnl_attr_put_strz}). */
    public NetlinkMessageBuilder stringZ(int attributeType, String value) {
        byte[] text = value.getBytes(StandardCharsets.UTF_8);
        return attribute(attributeType, Arrays.copyOf(text, text.length + 1));
    }

    /** Raw bytes, e.g. a C struct. */
    public NetlinkMessageBuilder binary(int attributeType, byte[] value) {
        return attribute(attributeType, value);
    }

    /**
     * Opens a nested attribute with {@code NLA_F_NESTED} set; children follow until {@link #endNested(int)} with the
     * returned handle.
     */
    public int beginNested(int attributeType) {
        requireAttributeType(attributeType);
        attributesStarted = true;
        int start = body.size();
        writeAttributeHeader(0, attributeType | NLA_F_NESTED);
        openNests++;
        return start;
    }

    /** Closes the nest opened at {@code handle}: its {@code nla_len} becomes the size of everything written since. */
    public NetlinkMessageBuilder endNested(int handle) {
        if (openNests == 0) {
            throw new IllegalStateException("no nested attribute is open");
        }
        int length = body.size() - handle;
        if (length > MAX_NLA_LENGTH) {
            throw new IllegalArgumentException("nested attribute of " + length + " bytes exceeds nla_len's 65535");
        }
        byte[] bytes = body.toByteArray();
        ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).putShort(handle, (short) length);
        body.reset();
        body.writeBytes(bytes);
        openNests--;
        return this;
    }

    /** The whole message with {@code seq} and port id {@code pid} (0 lets the kernel fill in the sender's). */
    public byte[] build(int seq, int pid) {
        if (openNests != 0) {
            throw new IllegalStateException(openNests + " nested attribute(s) not closed");
        }
        int length = NLMSG_HDRLEN + body.size();
        ByteBuffer message = ByteBuffer.allocate(length).order(ByteOrder.nativeOrder());
        message.putInt(length).putShort((short) type).putShort((short) flags).putInt(seq).putInt(pid);
        message.put(body.toByteArray());
        return message.array();
    }

    private NetlinkMessageBuilder attribute(int attributeType, byte[] value) {
        requireAttributeType(attributeType);
        int length = NLA_HDRLEN + value.length;
        if (length > MAX_NLA_LENGTH) {
            throw new IllegalArgumentException("attribute " + attributeType + " of " + value.length
                    + " bytes exceeds nla_len's 65535");
        }
        attributesStarted = true;
        writeAttributeHeader(length, attributeType);
        writePadded(value);
        return this;
    }

    private void writeAttributeHeader(int length, int rawType) {
        body.writeBytes(ByteBuffer.allocate(NLA_HDRLEN).order(ByteOrder.nativeOrder())
                .putShort((short) length).putShort((short) rawType).array());
    }

    private void writePadded(byte[] bytes) {
        body.writeBytes(bytes);
        body.writeBytes(new byte[NetlinkAbi.align(bytes.length) - bytes.length]);
    }

    private static void requireAttributeType(int attributeType) {
        if (attributeType < 0 || attributeType > NLA_TYPE_MASK) {
            throw new IllegalArgumentException("attribute type " + attributeType + " outside 0.." + NLA_TYPE_MASK
                    + " (flags are added by the builder)");
        }
    }

    private static void requireRange(String what, long value, long max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(what + " value " + value + " outside 0.." + max);
        }
    }
}
