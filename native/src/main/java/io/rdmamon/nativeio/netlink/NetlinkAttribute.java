package io.rdmamon.nativeio.netlink;

import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLA_F_NESTED;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLA_F_NET_BYTEORDER;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLA_HDRLEN;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLA_TYPE_MASK;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code struct nlattr} and its payload, a view into the received bytes. Every accessor checks the payload length
 * first and fails with a {@link NetlinkException} naming the attribute (its path, e.g. {@code DCB_ATTR_IEEE/2}) and
 * what is missing, so that a short or malformed reply is reported and never turns into an index error.
 */
public final class NetlinkAttribute {
    private final int type;
    private final boolean nestedFlag;
    private final boolean netByteOrder;
    private final byte[] data;
    private final int offset;
    private final int length;
    private final String path;

    private NetlinkAttribute(int rawType, byte[] data, int offset, int length, String parentPath) {
        this.type = rawType & NLA_TYPE_MASK;
        this.nestedFlag = (rawType & NLA_F_NESTED) != 0;
        this.netByteOrder = (rawType & NLA_F_NET_BYTEORDER) != 0;
        this.data = data;
        this.offset = offset;
        this.length = length;
        this.path = parentPath + "/" + type;
    }

    /**
     * The attributes in {@code data[offset, offset+length)}, in order, duplicates kept (tables repeat one type).
     *
     * @param where names the enclosing message or attribute in error messages
     * @throws NetlinkException when a header is cut off or an {@code nla_len} is below 4 or runs past the end
     */
    public static List<NetlinkAttribute> parseAll(byte[] data, int offset, int length, String where)
            throws NetlinkException {
        if (offset < 0 || length < 0 || offset + length > data.length) {
            throw NetlinkException.malformed(where + ": attribute area [" + offset + ", " + (offset + length)
                    + ") lies outside the " + data.length + " bytes received");
        }
        List<NetlinkAttribute> attributes = new ArrayList<>();
        ByteBuffer buffer = ByteBuffer.wrap(data).order(ByteOrder.nativeOrder());
        int end = offset + length;
        int position = offset;
        while (position < end) {
            int left = end - position;
            if (left < NLA_HDRLEN) {
                throw NetlinkException.malformed(where + ": " + left + " bytes at offset " + (position - offset)
                        + " are too short for an attribute header (4 bytes)");
            }
            int nlaLength = Short.toUnsignedInt(buffer.getShort(position));
            int rawType = Short.toUnsignedInt(buffer.getShort(position + 2));
            if (nlaLength < NLA_HDRLEN) {
                throw NetlinkException.malformed(where + ": attribute type " + (rawType & NLA_TYPE_MASK)
                        + " at offset " + (position - offset) + " has nla_len " + nlaLength + " (minimum 4)");
            }
            if (nlaLength > left) {
                throw NetlinkException.malformed(where + ": attribute type " + (rawType & NLA_TYPE_MASK)
                        + " at offset " + (position - offset) + " has nla_len " + nlaLength + " but only " + left
                        + " bytes are left");
            }
            attributes.add(new NetlinkAttribute(rawType, data, position + NLA_HDRLEN, nlaLength - NLA_HDRLEN,
                    where));
            // the last attribute may lack its padding
            position = Math.min(end, position + NetlinkAbi.align(nlaLength));
        }
        return attributes;
    }

    /** The first attribute of {@code type} in {@code attributes}, or null. */
    public static NetlinkAttribute first(List<NetlinkAttribute> attributes, int type) {
        for (NetlinkAttribute attribute : attributes) {
            if (attribute.type == type) {
                return attribute;
            }
        }
        return null;
    }

    /** The type with {@code NLA_F_NESTED} and {@code NLA_F_NET_BYTEORDER} masked off. */
    public int type() {
        return type;
    }

    /** Whether the sender set {@code NLA_F_NESTED}; many rtnetlink nests (DCB_ATTR_IEEE) do not. */
    public boolean nestedFlag() {
        return nestedFlag;
    }

    /** Payload bytes ({@code nla_len - 4}). */
    public int length() {
        return length;
    }

    /** Where this attribute sits, e.g. {@code DCB_ATTR_IEEE/3/1}, for error messages. */
    public String path() {
        return path;
    }

    public int u8() throws NetlinkException {
        requireLength(1, "a u8");
        return Byte.toUnsignedInt(data[offset]);
    }

    public int u16() throws NetlinkException {
        requireLength(2, "a u16");
        return Short.toUnsignedInt(payload().getShort(0));
    }

    /** A u32 as a long (unsigned). */
    public long u32() throws NetlinkException {
        requireLength(4, "a u32");
        return Integer.toUnsignedLong(payload().getInt(0));
    }

    /** A u64 in a long with unsigned semantics. */
    public long u64() throws NetlinkException {
        requireLength(8, "a u64");
        return payload().getLong(0);
    }

    /** A string up to its first NUL, or the whole payload when it has none. */
    public String string() {
        int end = offset;
        while (end < offset + length && data[end] != 0) {
            end++;
        }
        return new String(data, offset, end - offset, StandardCharsets.UTF_8);
    }

    /** A copy of the payload. */
    public byte[] bytes() {
        byte[] copy = new byte[length];
        System.arraycopy(data, offset, copy, 0, length);
        return copy;
    }

    /** The payload parsed as attributes, whether or not the sender set {@code NLA_F_NESTED}. */
    public List<NetlinkAttribute> nested() throws NetlinkException {
        return parseAll(data, offset, length, path);
    }

    /**
     * The payload as a buffer in the attribute's byte order, positioned at 0, for decoding a C struct; fails unless it
     * holds at least {@code size} bytes (a longer one, from a newer kernel, is fine).
     */
    public ByteBuffer struct(int size, String structName) throws NetlinkException {
        requireLength(size, structName + " (" + size + " bytes)");
        return payload();
    }

    private ByteBuffer payload() {
        return ByteBuffer.wrap(data, offset, length).slice()
                .order(netByteOrder ? ByteOrder.BIG_ENDIAN : ByteOrder.nativeOrder());
    }

    private void requireLength(int needed, String what) throws NetlinkException {
        if (length < needed) {
            throw NetlinkException.malformed(path + ": payload is " + length + " bytes, " + what + " needs "
                    + needed);
        }
    }
}
