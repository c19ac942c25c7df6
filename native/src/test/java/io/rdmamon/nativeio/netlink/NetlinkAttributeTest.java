package io.rdmamon.nativeio.netlink;

import static io.rdmamon.nativeio.netlink.RawNetlink.attr;
import static io.rdmamon.nativeio.netlink.RawNetlink.concat;
import static io.rdmamon.nativeio.netlink.RawNetlink.le16;
import static io.rdmamon.nativeio.netlink.RawNetlink.le32;
import static io.rdmamon.nativeio.netlink.RawNetlink.le64;
import static io.rdmamon.nativeio.netlink.RawNetlink.u8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Attribute iteration and typed access on hand-written bytes, including malformed ones. */
class NetlinkAttributeTest {

    @Test
    void typesAreMaskedAndValuesDecoded() throws Exception {
        byte[] bytes = concat(attr(1, u8(200)), attr(2 | 0x8000, attr(7, le16(0xfffe))), attr(3, le32(0xfffffff0L)),
                attr(4, le64(-1L)), attr(5 | 0x4000, u8(0x12, 0x34)), attr(6, u8('m', 'l', 'x', 0, 'z')));
        List<NetlinkAttribute> attributes = NetlinkAttribute.parseAll(bytes, 0, bytes.length, "msg");
        assertEquals(List.of(1, 2, 3, 4, 5, 6), attributes.stream().map(NetlinkAttribute::type).toList());
        assertEquals(200, attributes.get(0).u8());
        assertTrue(attributes.get(1).nestedFlag());
        assertFalse(attributes.get(0).nestedFlag());
        assertEquals(0xfffe, attributes.get(1).nested().get(0).u16());
        assertEquals("msg/2/7", attributes.get(1).nested().get(0).path());
        assertEquals(0xfffffff0L, attributes.get(2).u32());
        assertEquals(-1L, attributes.get(3).u64());
        assertEquals(0x1234, attributes.get(4).u16(), "NLA_F_NET_BYTEORDER payloads are big-endian");
        assertEquals("mlx", attributes.get(5).string());
        assertArrayEquals(u8('m', 'l', 'x', 0, 'z'), attributes.get(5).bytes());
    }

    @Test
    void nestsWithoutTheFlagParseAsNests() throws Exception {
        byte[] bytes = attr(13, attr(1, u8(9)), attr(1, u8(8)));
        NetlinkAttribute nest = NetlinkAttribute.parseAll(bytes, 0, bytes.length, "dcb").get(0);
        assertFalse(nest.nestedFlag());
        assertEquals(List.of(9, 8), nest.nested().stream().map(a -> {
            try {
                return a.u8();
            } catch (NetlinkException e) {
                throw new AssertionError(e);
            }
        }).toList());
    }

    @Test
    void theLastAttributeMayLackItsPadding() throws Exception {
        byte[] bytes = concat(attr(1, le32(5)), le16(5), le16(2), u8(7));
        List<NetlinkAttribute> attributes = NetlinkAttribute.parseAll(bytes, 0, bytes.length, "m");
        assertEquals(7, attributes.get(1).u8());
        assertNull(NetlinkAttribute.first(attributes, 3));
        assertEquals(5L, NetlinkAttribute.first(attributes, 1).u32());
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("header cut off", concat(attr(1, u8(1)), u8(8, 0)),
                        "m: 2 bytes at offset 8 are too short for an attribute header (4 bytes)"),
                Arguments.of("nla_len below 4", concat(le16(3), le16(6)),
                        "m: attribute type 6 at offset 0 has nla_len 3 (minimum 4)"),
                Arguments.of("nla_len beyond the buffer", concat(attr(1, u8(1)), le16(200), le16(0x8003), le32(0)),
                        "m: attribute type 3 at offset 8 has nla_len 200 but only 8 bytes are left"),
                Arguments.of("zero nla_len would loop forever", concat(le16(0), le16(1), le32(0)),
                        "m: attribute type 1 at offset 0 has nla_len 0 (minimum 4)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedAttributesAreNamedNeverAnIndexError(String name, byte[] bytes, String message) {
        NetlinkException e = assertThrows(NetlinkException.class,
                () -> NetlinkAttribute.parseAll(bytes, 0, bytes.length, "m"));
        assertEquals("malformed netlink data: " + message, e.getMessage());
        assertEquals(0, e.errno());
    }

    @Test
    void shortPayloadsAreRefusedByEveryAccessor() throws Exception {
        byte[] bytes = concat(attr(1), attr(2, u8(1, 2)), attr(3, le32(1)), attr(4, u8(1, 2, 3)));
        List<NetlinkAttribute> a = NetlinkAttribute.parseAll(bytes, 0, bytes.length, "r");
        assertEquals("malformed netlink data: r/1: payload is 0 bytes, a u8 needs 1",
                assertThrows(NetlinkException.class, () -> a.get(0).u8()).getMessage());
        assertEquals("malformed netlink data: r/2: payload is 2 bytes, a u32 needs 4",
                assertThrows(NetlinkException.class, () -> a.get(1).u32()).getMessage());
        assertEquals("malformed netlink data: r/3: payload is 4 bytes, a u64 needs 8",
                assertThrows(NetlinkException.class, () -> a.get(2).u64()).getMessage());
        assertEquals("malformed netlink data: r/4: payload is 3 bytes, struct dcb_app (4 bytes) needs 4",
                assertThrows(NetlinkException.class, () -> a.get(3).struct(4, "struct dcb_app")).getMessage());
        // a nest whose child overruns it is reported with the nest's path
        byte[] nest = attr(13, le16(12), le16(1), le32(0));
        assertEquals("malformed netlink data: r/13: attribute type 1 at offset 0 has nla_len 12 but only 8 bytes"
                        + " are left",
                assertThrows(NetlinkException.class,
                        () -> NetlinkAttribute.parseAll(nest, 0, nest.length, "r").get(0).nested()).getMessage());
        assertThrows(NetlinkException.class, () -> NetlinkAttribute.parseAll(nest, 4, nest.length, "r"));
    }
}
