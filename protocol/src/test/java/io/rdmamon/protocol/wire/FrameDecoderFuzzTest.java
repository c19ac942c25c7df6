package io.rdmamon.protocol.wire;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Fuzzes the collector's side of one agent connection: {@link FrameCodec#decode} of each message, then
 * {@link SampleDecoder#accept} of the decoded frames in order. An input is one connection, one frame per line
 * (the seeds are real frames of {@link SampleEncoder}: hello, values, layout, heartbeat, probe frames).
 * The only refusal allowed is a {@link FrameException} with a reason, after which the collector closes the
 * connection; anything else thrown is a finding. A values frame the streaming parser accepts must decode
 * the same through the tree, its documented reference.
 */
class FrameDecoderFuzzTest {
    private static final FrameCodec CODEC = new FrameCodec();

    @FuzzTest
    void framesOfOneConnectionDecodeAndApplyOrAreRefusedWithAReason(byte[] connection) {
        SampleDecoder decoder = new SampleDecoder();
        int start = 0;
        while (start <= connection.length) {
            int end = indexOf(connection, (byte) '\n', start);
            byte[] message = Arrays.copyOfRange(connection, start, end);
            start = end + 1;
            try {
                Frame frame = CODEC.decode(message);
                if (frame instanceof Frame.Values values) {
                    assertEquals(decodeWithTree(message), values,
                            () -> "the streaming and the tree path disagree on " + utf8(message));
                }
                decoder.accept(frame);
            } catch (FrameException refused) {
                assertFalse(refused.getMessage() == null || refused.getMessage().isBlank(),
                        () -> "a refusal without a reason for " + utf8(message));
                return;
            }
        }
    }

    /** The tree path's frame; its refusal of a frame the streaming path accepted is a finding, not a refusal. */
    private static Frame decodeWithTree(byte[] message) {
        try {
            return CODEC.decodeWithTree(message);
        } catch (FrameException e) {
            throw new AssertionError("the streaming path accepted what the tree refuses (" + e.getMessage() + "): "
                    + utf8(message), e);
        }
    }

    private static int indexOf(byte[] bytes, byte wanted, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return bytes.length;
    }

    private static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
