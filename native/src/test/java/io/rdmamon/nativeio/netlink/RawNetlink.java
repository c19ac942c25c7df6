package io.rdmamon.nativeio.netlink;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;

/**
 * Netlink bytes written by hand for tests, independent of {@link NetlinkMessageBuilder}: so the parser is checked
 * against the wire layout, not against our own builder.
 */
public final class RawNetlink {
    private RawNetlink() {
    }

    /** An attribute: nla_len = 4 + payload, the raw type as given (flags included), payload padded to 4. */
    public static byte[] attr(int rawType, byte[]... payload) {
        byte[] body = concat(payload);
        return concat(le16(4 + body.length), le16(rawType), body, new byte[NetlinkAbi.align(body.length) - body.length]);
    }

    /** A message: nlmsghdr (len = 16 + payload) + payload. */
    public static byte[] message(int type, int flags, int seq, int pid, byte[]... payload) {
        byte[] body = concat(payload);
        return concat(le32(16 + body.length), le16(type), le16(flags), le32(seq), le32(pid), body);
    }

    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    public static byte[] u8(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    public static byte[] le16(int value) {
        return ByteBuffer.allocate(2).order(ByteOrder.nativeOrder()).putShort((short) value).array();
    }

    public static byte[] le32(long value) {
        return ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt((int) value).array();
    }

    public static byte[] le64(long value) {
        return ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(value).array();
    }

    /** Hex with spaces and '|' ignored, as the reference documents write bytes. */
    public static byte[] hex(String text) {
        return HexFormat.of().parseHex(text.replaceAll("[\\s|]", ""));
    }
}
