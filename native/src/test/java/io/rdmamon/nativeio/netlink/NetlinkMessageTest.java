package io.rdmamon.nativeio.netlink;

import static io.rdmamon.nativeio.netlink.RawNetlink.attr;
import static io.rdmamon.nativeio.netlink.RawNetlink.concat;
import static io.rdmamon.nativeio.netlink.RawNetlink.le16;
import static io.rdmamon.nativeio.netlink.RawNetlink.le32;
import static io.rdmamon.nativeio.netlink.RawNetlink.message;
import static io.rdmamon.nativeio.netlink.RawNetlink.u8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Splitting a received datagram into messages. */
class NetlinkMessageTest {

    @Test
    void aDatagramHoldsSeveralAlignedMessages() throws Exception {
        byte[] first = message(16, 0x2, 7, 4242, u8(0, 0, 0, 0), attr(3, u8('v', 'e', 't', 'h', '1', 0)));
        byte[] second = message(3, 0x2, 7, 4242, le32(0));
        byte[] datagram = concat(first, second, new byte[10]);
        List<NetlinkMessage> messages = NetlinkMessage.parseDatagram(datagram, first.length + second.length);
        assertEquals(2, messages.size());
        NetlinkMessage link = messages.get(0);
        assertEquals(16, link.type());
        assertEquals(2, link.flags());
        assertEquals(7, link.seq());
        assertEquals(4242, link.pid());
        assertEquals("veth1", link.attributes(4, "link").get(0).string());
        assertEquals(3, messages.get(1).type());
        assertArrayEquals(le32(0), messages.get(1).payload());
    }

    @Test
    void aFamilyHeaderLongerThanThePayloadIsNamed() throws Exception {
        NetlinkMessage message = NetlinkMessage.parseDatagram(message(78, 0, 1, 0, u8(0, 21)), 18).get(0);
        assertEquals("malformed netlink data: reply: payload of 2 bytes is shorter than its 4-byte family header",
                assertThrows(NetlinkException.class, () -> message.attributes(4, "reply")).getMessage());
        assertEquals("malformed netlink data: message type 78: payload of 2 bytes has no cmd at offset 2",
                assertThrows(NetlinkException.class, () -> message.payloadU8(2, "cmd")).getMessage());
    }

    static Stream<Arguments> malformed() {
        byte[] good = message(78, 0, 1, 0, u8(0, 21, 0, 0));
        byte[] tooLong = Arrays.copyOf(good, good.length);
        tooLong[0] = 40;
        byte[] tooShort = Arrays.copyOf(good, good.length);
        tooShort[0] = 12;
        return Stream.of(
                Arguments.of("header cut off", concat(good, u8(1, 2, 3)),
                        "3 bytes at offset 20 are too short for a message header (16 bytes)"),
                Arguments.of("nlmsg_len beyond the datagram", tooLong,
                        "message type 78 at offset 0 has nlmsg_len 40, outside [16, 20]"),
                Arguments.of("nlmsg_len below the header", tooShort,
                        "message type 78 at offset 0 has nlmsg_len 12, outside [16, 20]"),
                Arguments.of("nlmsg_len of 2^32-1", concat(le32(-1), le16(2), new byte[10]),
                        "message type 2 at offset 0 has nlmsg_len 4294967295, outside [16, 16]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedDatagramsAreNamed(String name, byte[] datagram, String message) {
        assertEquals("malformed netlink data: " + message, assertThrows(NetlinkException.class,
                () -> NetlinkMessage.parseDatagram(datagram, datagram.length)).getMessage());
    }
}
