package io.rdmamon.nativeio.netlink;

import static io.rdmamon.nativeio.netlink.RawNetlink.attr;
import static io.rdmamon.nativeio.netlink.RawNetlink.le32;
import static io.rdmamon.nativeio.netlink.RawNetlink.message;
import static io.rdmamon.nativeio.netlink.RawNetlink.u8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.rdmamon.nativeio.Errno;

/** When a reply is complete, which messages belong to it, and how the kernel's errors surface. */
class NetlinkReplyTest {
    private static final int SEQ = 0x5eed;
    private static final int PORT = 31337;

    private static NetlinkMessage msg(int type, int flags, int seq, int pid, byte[]... payload) {
        try {
            return NetlinkMessage.parseDatagram(message(type, flags, seq, pid, payload),
                    message(type, flags, seq, pid, payload).length).get(0);
        } catch (NetlinkException e) {
            throw new AssertionError(e);
        }
    }

    private static NetlinkMessage data(int flags) {
        return msg(78, flags, SEQ, PORT, u8(0, 21, 0, 0));
    }

    private static NetlinkMessage ack() {
        return msg(NetlinkAbi.NLMSG_ERROR, 0x100, SEQ, PORT, le32(0), message(78, 5, SEQ, 0));
    }

    private static NetlinkMessage done() {
        return msg(NetlinkAbi.NLMSG_DONE, 0x2, SEQ, PORT, le32(0));
    }

    static Stream<Arguments> sequences() {
        return Stream.of(
                Arguments.of("answer then ack (NLM_F_ACK)", 0x5, List.of(data(0), ack()), List.of(false, true), 1),
                Arguments.of("answer alone (no ack asked)", 0x1, List.of(data(0)), List.of(true), 1),
                Arguments.of("ack alone (a set or a noop)", 0x5, List.of(ack()), List.of(true), 0),
                Arguments.of("dump: parts until DONE", 0x301, List.of(data(2), data(2), data(2), done()),
                        List.of(false, false, false, true), 3),
                Arguments.of("foreign seq, foreign port and NOOP are skipped", 0x1,
                        List.of(msg(78, 0, SEQ + 1, PORT), msg(78, 0, SEQ, PORT + 1),
                                msg(NetlinkAbi.NLMSG_NOOP, 0, SEQ, PORT), data(0)),
                        List.of(false, false, false, true), 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sequences")
    void replyCompletesExactlyWhenTheKernelIsDone(String name, int requestFlags, List<NetlinkMessage> received,
                                                  List<Boolean> completeAfterEach, int dataMessages)
            throws Exception {
        NetlinkReply reply = new NetlinkReply("req", SEQ, PORT, requestFlags);
        List<Boolean> verdicts = new ArrayList<>();
        for (NetlinkMessage message : received) {
            verdicts.add(reply.accept(message));
        }
        assertEquals(completeAfterEach, verdicts);
        assertEquals(dataMessages, reply.messages().size());
        assertTrue(reply.complete());
    }

    @Test
    void kernelErrorCarriesErrnoAndExtendedAckText() {
        NetlinkReply reply = new NetlinkReply("RTM_GETDCB DCB_CMD_IEEE_GET on veth7", SEQ, PORT, 0x5);
        // capped (only the request header echoed), then NLMSGERR_ATTR_MSG and NLMSGERR_ATTR_OFFS
        NetlinkMessage error = msg(NetlinkAbi.NLMSG_ERROR, 0x300, SEQ, PORT, le32(-Errno.EINVAL),
                message(78, 5, SEQ, 0), attr(1, "Missing attribute\0".getBytes()), attr(2, le32(20)));
        NetlinkException e = assertThrows(NetlinkException.class, () -> reply.accept(error));
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals("Missing attribute", e.kernelMessage());
        assertEquals("RTM_GETDCB DCB_CMD_IEEE_GET on veth7 failed: EINVAL (Invalid argument): Missing attribute",
                e.getMessage());
        assertFalse(reply.complete());
    }

    @Test
    void uncappedErrorSkipsTheWholeEchoedRequestBeforeTheTlvs() {
        NetlinkReply reply = new NetlinkReply("req", SEQ, PORT, 0x5);
        byte[] echoed = message(78, 5, SEQ, 0, u8(0, 21, 0, 0), attr(1, u8('x', 0)));
        NetlinkMessage error = msg(NetlinkAbi.NLMSG_ERROR, 0x200, SEQ, PORT, le32(-Errno.ENODEV), echoed,
                attr(1, "no device\0".getBytes()));
        assertEquals("no device", assertThrows(NetlinkException.class, () -> reply.accept(error)).kernelMessage());
    }

    @Test
    void errorWithoutTlvsHasNoKernelMessage() {
        NetlinkReply reply = new NetlinkReply("req", SEQ, PORT, 0x5);
        NetlinkException e = assertThrows(NetlinkException.class, () -> reply.accept(
                msg(NetlinkAbi.NLMSG_ERROR, 0, SEQ, PORT, le32(-Errno.EOPNOTSUPP), message(78, 5, SEQ, 0))));
        assertEquals(Errno.EOPNOTSUPP, e.errno());
        assertNull(e.kernelMessage());
        assertEquals("req failed: EOPNOTSUPP (Operation not supported)", e.getMessage());
    }

    @Test
    void dumpErrorInDoneAndOverrunAndShortErrorAreReported() {
        NetlinkException dump = assertThrows(NetlinkException.class, () -> new NetlinkReply("dump", SEQ, PORT, 0x301)
                .accept(msg(NetlinkAbi.NLMSG_DONE, 2, SEQ, PORT, le32(-Errno.EMSGSIZE))));
        assertEquals(Errno.EMSGSIZE, dump.errno());
        assertEquals(Errno.ENOBUFS, assertThrows(NetlinkException.class, () -> new NetlinkReply("r", SEQ, PORT, 1)
                .accept(msg(NetlinkAbi.NLMSG_OVERRUN, 0, SEQ, PORT))).errno());
        NetlinkException shortError = assertThrows(NetlinkException.class, () -> new NetlinkReply("r", SEQ, PORT, 1)
                .accept(msg(NetlinkAbi.NLMSG_ERROR, 0, SEQ, PORT, u8(1, 2))));
        assertEquals("malformed netlink data: r: NLMSG_ERROR payload of 2 bytes has no error code",
                shortError.getMessage());
        assertEquals(0, shortError.errno());
    }

    @Test
    void aCompleteReplyTakesNoMore() throws Exception {
        NetlinkReply reply = new NetlinkReply("r", SEQ, PORT, 1);
        assertTrue(reply.accept(data(0)));
        assertThrows(IllegalStateException.class, () -> reply.accept(ack()));
    }
}
