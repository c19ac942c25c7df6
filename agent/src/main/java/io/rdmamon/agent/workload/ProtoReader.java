package io.rdmamon.agent.workload;

import java.nio.charset.StandardCharsets;

/**
 * Reads protocol-buffers wire format (protobuf.dev "Encoding"): tags, varints, length-delimited fields; skips what the
 * caller does not know, as a protobuf parser must. Enough for the few messages the agent reads, without a protobuf
 * runtime in the agent. Throws {@link IllegalArgumentException} naming the offset of anything malformed.
 */
final class ProtoReader {
    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int LENGTH_DELIMITED = 2;
    static final int FIXED32 = 5;

    private final byte[] bytes;
    private final int start;
    private final int end;
    private int position;

    ProtoReader(byte[] bytes) {
        this(bytes, 0, bytes.length);
    }

    private ProtoReader(byte[] bytes, int start, int end) {
        this.bytes = bytes;
        this.start = start;
        this.position = start;
        this.end = end;
    }

    boolean hasMore() {
        return position < end;
    }

    /** The next field's tag: {@code number << 3 | wireType}. */
    int tag() {
        long tag = varint();
        if (tag >>> 3 == 0 || tag > Integer.MAX_VALUE) {
            throw malformed("field number " + (tag >>> 3));
        }
        return (int) tag;
    }

    long varint() {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (position >= end) {
                throw malformed("varint runs past the end");
            }
            byte b = bytes[position++];
            value |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw malformed("varint longer than 10 bytes");
    }

    String string() {
        int length = length();
        String value = new String(bytes, position, length, StandardCharsets.UTF_8);
        position += length;
        return value;
    }

    /** The embedded message of a length-delimited field, read apart; this reader moves past it. */
    ProtoReader message() {
        int length = length();
        ProtoReader inner = new ProtoReader(bytes, position, position + length);
        position += length;
        return inner;
    }

    /** A second reader of the same message from its first field, for a message read twice; this one stays put. */
    ProtoReader fromStart() {
        return new ProtoReader(bytes, start, end);
    }

    /** Skips the value of a field of {@code wireType} (deprecated groups are refused). */
    void skip(int wireType) {
        switch (wireType) {
            case VARINT -> varint();
            case FIXED64 -> advance(8);
            case LENGTH_DELIMITED -> advance(length());
            case FIXED32 -> advance(4);
            default -> throw malformed("wire type " + wireType);
        }
    }

    private int length() {
        long length = varint();
        if (length < 0 || length > end - position) {
            throw malformed("length " + length + " past the end (" + (end - position) + " bytes left)");
        }
        return (int) length;
    }

    private void advance(int count) {
        if (count > end - position) {
            throw malformed(count + " bytes past the end");
        }
        position += count;
    }

    private IllegalArgumentException malformed(String what) {
        return new IllegalArgumentException("malformed protobuf at byte " + position + ": " + what);
    }
}
