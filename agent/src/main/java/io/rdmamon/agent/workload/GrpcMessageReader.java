package io.rdmamon.agent.workload;

import io.vertx.core.buffer.Buffer;

import java.util.Arrays;

/**
 * The one message of a unary gRPC answer, read as its bytes arrive under a cap (grpc/grpc doc/PROTOCOL-HTTP2.md,
 * "Length-Prefixed-Message": a compressed flag, a 4-byte big-endian length, the message). The length is checked as
 * soon as the 5-byte prefix is in, so an answer claiming more than the cap is refused before any of it is kept; the
 * buffer grows with what arrived (a claim alone reserves nothing), and a byte beyond the claimed length is refused
 * rather than kept. Pure; one per call.
 */
final class GrpcMessageReader {
    static final int PREFIX_BYTES = 5;
    private static final int FIRST_BUFFER_BYTES = 64 << 10;

    private final int cap;
    private final byte[] prefix = new byte[PREFIX_BYTES];
    private int prefixRead;
    /** The claimed length; -1 until the prefix is in. */
    private int length = -1;
    private byte[] message;
    private int messageRead;

    GrpcMessageReader(int cap) {
        this.cap = cap;
    }

    /** @throws IllegalArgumentException naming the bound or framing rule the answer broke */
    void append(Buffer chunk) {
        int offset = 0;
        if (length < 0) {
            offset = Math.min(PREFIX_BYTES - prefixRead, chunk.length());
            chunk.getBytes(0, offset, prefix, prefixRead);
            prefixRead += offset;
            if (prefixRead < PREFIX_BYTES) {
                return;
            }
            length = claimedLength();
            message = new byte[Math.min(length, FIRST_BUFFER_BYTES)];
        }
        int arrived = chunk.length() - offset;
        if (arrived > length - messageRead) {
            throw new IllegalArgumentException("more than one message: " + (messageRead + arrived - length)
                    + " bytes beyond the " + length + "-byte message of a unary answer");
        }
        if (messageRead + arrived > message.length) {
            message = Arrays.copyOf(message, (int) Math.min(length,
                    Math.max(messageRead + arrived, 2L * message.length)));
        }
        chunk.getBytes(offset, chunk.length(), message, messageRead);
        messageRead += arrived;
    }

    private int claimedLength() {
        if (prefix[0] != 0) {
            throw new IllegalArgumentException("compressed answer (none was asked for)");
        }
        long claimed = (prefix[1] & 0xffL) << 24 | (prefix[2] & 0xff) << 16 | (prefix[3] & 0xff) << 8
                | prefix[4] & 0xff;
        if (claimed > cap) {
            throw new IllegalArgumentException("message of " + claimed + " bytes claimed, over the agent's cap of "
                    + cap + " (refused after its 5-byte prefix)");
        }
        return (int) claimed;
    }

    /** The message, once the answer ended; @throws IllegalArgumentException when it ended short */
    byte[] message() {
        if (length < 0) {
            throw new IllegalArgumentException("answer of " + prefixRead + " bytes has no gRPC message");
        }
        if (messageRead < length) {
            throw new IllegalArgumentException("answer ended after " + messageRead + " of its message's " + length
                    + " bytes");
        }
        return message;
    }
}
