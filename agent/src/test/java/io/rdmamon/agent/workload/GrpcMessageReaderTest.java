package io.rdmamon.agent.workload;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The unary answer's one message, read chunk by chunk under a cap. */
class GrpcMessageReaderTest {
    private static final int CAP = 100;

    private static byte[] framed(int flag, long length, byte[] message) {
        Buffer frame = Buffer.buffer().appendByte((byte) flag).appendUnsignedInt(length).appendBytes(message);
        return frame.getBytes();
    }

    private static byte[] message(int length) {
        byte[] message = new byte[length];
        for (int i = 0; i < length; i++) {
            message[i] = (byte) i;
        }
        return message;
    }

    @Test
    void aMessageSplitAnywhereIsReassembled() {
        byte[] message = message(CAP);
        byte[] answer = framed(0, CAP, message);
        for (int split = 0; split <= answer.length; split++) {
            GrpcMessageReader reader = new GrpcMessageReader(CAP);
            reader.append(Buffer.buffer(Arrays.copyOfRange(answer, 0, split)));
            reader.append(Buffer.buffer(Arrays.copyOfRange(answer, split, answer.length)));
            assertArrayEquals(message, reader.message(), "split at " + split);
        }
    }

    @Test
    void aMessageArrivingByteByByteIsReassembled() {
        byte[] message = message(CAP);
        GrpcMessageReader reader = new GrpcMessageReader(CAP);
        for (byte b : framed(0, CAP, message)) {
            reader.append(Buffer.buffer(new byte[]{b}));
        }
        assertArrayEquals(message, reader.message());
    }

    @Test
    void anEmptyMessageIsRead() {
        GrpcMessageReader reader = new GrpcMessageReader(CAP);
        reader.append(Buffer.buffer(framed(0, 0, new byte[0])));
        assertArrayEquals(new byte[0], reader.message());
    }

    @Test
    void aClaimOverTheCapIsRefusedOnceItsPrefixIsIn() {
        GrpcMessageReader reader = new GrpcMessageReader(CAP);
        byte[] prefix = framed(0, 0xffff_ffffL, new byte[0]);
        reader.append(Buffer.buffer(Arrays.copyOf(prefix, 4)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> reader.append(Buffer.buffer(new byte[]{prefix[4]})));
        assertEquals("message of 4294967295 bytes claimed, over the agent's cap of 100 (refused after its 5-byte"
                + " prefix)", e.getMessage());
    }

    static Stream<Arguments> broken() {
        return Stream.of(
                Arguments.of(framed(1, 2, new byte[2]), "compressed answer (none was asked for)"),
                Arguments.of(framed(0, 2, new byte[3]), "more than one message: 1 bytes beyond the 2-byte message of"
                        + " a unary answer"),
                // a second message after the first
                Arguments.of(Buffer.buffer(framed(0, 1, new byte[1])).appendBytes(framed(0, 0, new byte[0]))
                        .getBytes(), "more than one message: 5 bytes beyond the 1-byte message of a unary answer"),
                Arguments.of(new byte[3], "answer of 3 bytes has no gRPC message"),
                Arguments.of(framed(0, 10, new byte[4]), "answer ended after 4 of its message's 10 bytes"));
    }

    @ParameterizedTest
    @MethodSource("broken")
    void aBrokenAnswerIsNamed(byte[] answer, String why) {
        GrpcMessageReader reader = new GrpcMessageReader(CAP);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
            reader.append(Buffer.buffer(answer));
            reader.message();
        });
        assertEquals(why, e.getMessage());
    }
}
