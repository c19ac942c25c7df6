package io.rdmamon.nativeio.netlink;

import static io.rdmamon.nativeio.netlink.RawNetlink.attr;
import static io.rdmamon.nativeio.netlink.RawNetlink.concat;
import static io.rdmamon.nativeio.netlink.RawNetlink.hex;
import static io.rdmamon.nativeio.netlink.RawNetlink.le16;
import static io.rdmamon.nativeio.netlink.RawNetlink.le32;
import static io.rdmamon.nativeio.netlink.RawNetlink.message;
import static io.rdmamon.nativeio.netlink.RawNetlink.u8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The builder against hand-written wire bytes (libmnl layout: 4-byte alignment, nla_len without padding). */
class NetlinkMessageBuilderTest {

    /** docs/reference/qos-dcb.md §1.2: IEEE_GET for "eth0", seq 1, NLM_F_REQUEST only (as mlnx-tools sends it). */
    @Test
    void dcbRequestEqualsTheReferenceExampleBytes() {
        byte[] built = new NetlinkMessageBuilder(78, NetlinkAbi.NLM_F_REQUEST)
                .familyHeader(u8(0, 21, 0, 0)).stringZ(1, "eth0").build(1, 0);
        assertArrayEquals(hex("20000000 4e00 0100 01000000 00000000 | 00 15 0000 | 0900 0100 65746830 00 000000"),
                built);
    }

    static Stream<Arguments> attributes() {
        return Stream.of(
                Arguments.of("u8 pads 3", (Consumer<NetlinkMessageBuilder>) b -> b.u8(7, 0xab),
                        attr(7, u8(0xab))),
                Arguments.of("u16", (Consumer<NetlinkMessageBuilder>) b -> b.u16(300, 0xbeef), attr(300, le16(0xbeef))),
                Arguments.of("u32 unsigned max", (Consumer<NetlinkMessageBuilder>) b -> b.u32(2, 0xffff_ffffL),
                        attr(2, le32(0xffff_ffffL))),
                Arguments.of("strz of 3 chars needs no pad", (Consumer<NetlinkMessageBuilder>) b -> b.stringZ(1, "ib0"),
                        concat(le16(8), le16(1), u8('i', 'b', '0', 0))),
                Arguments.of("empty strz", (Consumer<NetlinkMessageBuilder>) b -> b.stringZ(1, ""),
                        concat(le16(5), le16(1), u8(0, 0, 0, 0))),
                Arguments.of("binary of 6", (Consumer<NetlinkMessageBuilder>) b -> b.binary(9, u8(1, 2, 3, 4, 5, 6)),
                        concat(le16(10), le16(9), u8(1, 2, 3, 4, 5, 6, 0, 0))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("attributes")
    void attributesAreLaidOutAsLibmnlDoes(String name, Consumer<NetlinkMessageBuilder> add, byte[] expected) {
        NetlinkMessageBuilder builder = new NetlinkMessageBuilder(20, 0x5);
        add.accept(builder);
        assertArrayEquals(message(20, 0x5, 77, 9, expected), builder.build(77, 9));
    }

    @Test
    void nestedAttributesCarryTheFlagAndTheirChildrenLength() {
        NetlinkMessageBuilder builder = new NetlinkMessageBuilder(100, 1).familyHeader(u8(2));
        int outer = builder.beginNested(3);
        builder.u8(1, 4);
        int inner = builder.beginNested(2);
        builder.u16(6, 0x1234);
        builder.endNested(inner);
        builder.endNested(outer);
        builder.u32(5, 42);
        byte[] expected = message(100, 1, 5, 0, u8(2, 0, 0, 0),
                attr(3 | 0x8000, attr(1, u8(4)), attr(2 | 0x8000, attr(6, le16(0x1234)))),
                attr(5, le32(42)));
        assertArrayEquals(expected, builder.build(5, 0));
    }

    @Test
    void oneBuilderSendsWithFreshSequenceNumbers() {
        NetlinkMessageBuilder builder = new NetlinkMessageBuilder(18, 0x301);
        assertArrayEquals(message(18, 0x301, 1, 0), builder.build(1, 0));
        assertArrayEquals(message(18, 0x301, -2, 0), builder.build(-2, 0));
    }

    @Test
    void misuseIsRefusedWithTheReason() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new NetlinkMessageBuilder(1, 0).u8(1, 256))
                .getMessage().contains("u8 attribute 1 value 256"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new NetlinkMessageBuilder(1, 0).u8(0x8001, 1))
                .getMessage().contains("attribute type 32769"));
        assertThrows(IllegalStateException.class,
                () -> new NetlinkMessageBuilder(1, 0).u8(1, 1).familyHeader(u8(0, 0, 0, 0)));
        NetlinkMessageBuilder open = new NetlinkMessageBuilder(1, 0);
        open.beginNested(1);
        assertEquals("1 nested attribute(s) not closed",
                assertThrows(IllegalStateException.class, () -> open.build(1, 0)).getMessage());
        assertThrows(IllegalStateException.class, () -> new NetlinkMessageBuilder(1, 0).endNested(0));
        assertThrows(IllegalArgumentException.class, () -> new NetlinkMessageBuilder(1, 0).binary(1, new byte[65532]));
        assertThrows(IllegalArgumentException.class, () -> new NetlinkMessageBuilder(0x10000, 0));
    }
}
