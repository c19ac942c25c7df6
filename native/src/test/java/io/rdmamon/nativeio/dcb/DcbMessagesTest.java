package io.rdmamon.nativeio.dcb;

import static io.rdmamon.nativeio.dcb.DcbReplies.app;
import static io.rdmamon.nativeio.dcb.DcbReplies.attr;
import static io.rdmamon.nativeio.dcb.DcbReplies.buffer;
import static io.rdmamon.nativeio.dcb.DcbReplies.dcbmsg;
import static io.rdmamon.nativeio.dcb.DcbReplies.ets;
import static io.rdmamon.nativeio.dcb.DcbReplies.pfc;
import static io.rdmamon.nativeio.dcb.DcbReplies.strz;
import static io.rdmamon.nativeio.dcb.DcbReplies.u64s;
import static io.rdmamon.nativeio.netlink.RawNetlink.concat;
import static io.rdmamon.nativeio.netlink.RawNetlink.hex;
import static io.rdmamon.nativeio.netlink.RawNetlink.le16;
import static io.rdmamon.nativeio.netlink.RawNetlink.message;
import static io.rdmamon.nativeio.netlink.RawNetlink.u8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.rdmamon.nativeio.dcb.IeeeDcbConfig.DcbApp;
import io.rdmamon.nativeio.dcb.IeeeDcbConfig.DcbBuffer;
import io.rdmamon.nativeio.dcb.IeeeDcbConfig.IeeeEts;
import io.rdmamon.nativeio.dcb.IeeeDcbConfig.IeeePfc;
import io.rdmamon.nativeio.netlink.NetlinkException;
import io.rdmamon.nativeio.netlink.NetlinkMessage;

/**
 * DCB requests against the bytes iproute2 sends, and IEEE_GET replies written to the uapi layouts: an mlx5-like one
 * (64 DSCP entries, no apptrust, empty rewrite table), an old kernel's, a switch ASIC's with apptrust and PCP
 * entries, and malformed ones. Priorities and DSCPs deliberately avoid the textbook 3/26.
 */
class DcbMessagesTest {
    private static final int IEEE_GET = DcbAbi.DCB_CMD_IEEE_GET;
    private static final int[] ZERO8 = new int[8];

    /**
     * iproute2 6.1 {@code dcb pfc show dev lo}, captured with {@code strace -e trace=sendto -e write=3} on this
     * machine (seq 0x6b04b4ab): NLM_F_REQUEST|NLM_F_ACK, dcbmsg {0, 21, 0}, DCB_ATTR_IFNAME "lo\0" + 1 pad byte.
     */
    @Test
    void requestEqualsWhatIproute2DcbSends() throws Exception {
        byte[] captured = hex("1c 00 00 00 4e 00 05 00  ab b4 04 6b 00 00 00 00 | 00 15 00 00 07 00 01 00  6c 6f 00 00");
        assertArrayEquals(captured, DcbMessages.request(IEEE_GET, "lo").build(0x6b04b4ab, 0));
    }

    /** docs/reference/qos-dcb.md §1.2's example for eth0, seq 1; it shows mlnx-tools' flags (REQUEST only), iproute2
     * adds ACK. */
    @Test
    void requestEqualsTheReferenceExampleExceptTheAckFlag() throws Exception {
        byte[] example = hex("20000000 4e00 0100 01000000 00000000 | 00 15 0000 | 0900 0100 65746830 00 000000");
        byte[] ours = DcbMessages.request(IEEE_GET, "eth0").build(1, 0);
        assertEquals(0x05, ours[6]);
        ours[6] = 0x01;
        assertArrayEquals(example, ours);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "enp129s0f1np1xyz", "a/b", "ens1\0", ".."})
    void invalidNamesAreRefusedBeforeARequestExists(String name) {
        DcbException e = assertThrows(DcbException.class, () -> DcbMessages.request(IEEE_GET, name));
        assertEquals(0, e.errno());
        assertEquals(name, e.interfaceName());
        assertEquals(true, e.getMessage().startsWith("invalid interface name '" + name + "': "), e.getMessage());
    }

    private static List<NetlinkMessage> reply(int cmd, byte[]... attributes) throws NetlinkException {
        byte[] bytes = message(DcbAbi.RTM_GETDCB, 5, 9, 1234, dcbmsg(cmd), concat(attributes));
        return NetlinkMessage.parseDatagram(bytes, bytes.length);
    }

    private static int[] ints(int... values) {
        return values;
    }

    @Test
    void mlx5LikeReplyWithSixtyFourDscpEntries() throws Exception {
        byte[] etsStruct = ets(0, 8, 0, ints(40, 0, 0, 0, 60, 0, 0, 0), ZERO8, ints(2, 255, 255, 255, 2, 255, 0, 255),
                ints(1, 0, 2, 3, 4, 5, 6, 7), ZERO8, ZERO8, ZERO8);
        long[] requests = {0, 0, 0, 0, 0xffff_ffff_ffff_fff0L, 0, 0, 0};
        long[] indications = {0, 0, 0, 0, 77, 0, 0, 0};
        List<byte[]> entries = new ArrayList<>();
        List<DcbApp> expectedApps = new ArrayList<>();
        for (int dscp = 0; dscp < 64; dscp++) {
            int priority = dscp == 34 ? 4 : dscp == 48 ? 6 : 0;
            entries.add(attr(1, app(5, priority, dscp)));
            expectedApps.add(new DcbApp(5, priority, dscp));
        }
        IeeeDcbConfig config = DcbMessages.parseIeeeGet("enp65s0f1np1", reply(IEEE_GET,
                attr(1, strz("enp65s0f1np1")),
                attr(13,
                        attr(1, etsStruct),
                        attr(7, u64s(0, 0, 0, 0, 25_000_000L, 0, 0, 0)),
                        attr(8, new byte[360]),
                        attr(2, pfc(8, 0x10, 0, 5, requests, indications)),
                        attr(10, buffer(ints(0, 0, 0, 0, 1, 0, 0, 0), new long[] {262144, 131072, 0, 0, 0, 0, 0, 0},
                                393216)),
                        attr(3, entries.toArray(byte[][]::new)),
                        attr(12 | 0x8000)),
                attr(14, u8(0x0d))));

        assertEquals("enp65s0f1np1", config.ifname());
        assertEquals(0x0d, config.dcbx());
        assertEquals(new IeeeEts(0, 8, 0, List.of(40, 0, 0, 0, 60, 0, 0, 0), List.of(0, 0, 0, 0, 0, 0, 0, 0),
                List.of(2, 255, 255, 255, 2, 255, 0, 255), List.of(1, 0, 2, 3, 4, 5, 6, 7),
                List.of(0, 0, 0, 0, 0, 0, 0, 0), List.of(0, 0, 0, 0, 0, 0, 0, 0), List.of(0, 0, 0, 0, 0, 0, 0, 0)),
                config.ets());
        assertEquals(new IeeePfc(8, 0x10, 0, 5, List.of(0L, 0L, 0L, 0L, 0xffff_ffff_ffff_fff0L, 0L, 0L, 0L),
                List.of(0L, 0L, 0L, 0L, 77L, 0L, 0L, 0L)), config.pfc());
        assertEquals(expectedApps, config.appTable());
        assertNull(config.appTrust(), "mlx5 has no dcbnl_getapptrust");
        assertEquals(List.of(), config.rewriteTable());
        assertEquals(new DcbBuffer(List.of(0, 0, 0, 0, 1, 0, 0, 0),
                List.of(262144L, 131072L, 0L, 0L, 0L, 0L, 0L, 0L), 393216), config.buffer());
        assertEquals(List.of(0L, 0L, 0L, 0L, 25_000_000L, 0L, 0L, 0L), config.tcMaxrate());
    }

    @Test
    void oldKernelReplyWithoutApptrustRewriteOrDcbx() throws Exception {
        IeeeDcbConfig config = DcbMessages.parseIeeeGet("ens2", reply(IEEE_GET,
                attr(1, strz("ens2")),
                attr(13, attr(3, attr(1, app(1, 4, 0x8915)), attr(1, app(5, 5, 46))))));
        assertNull(config.dcbx());
        assertNull(config.ets());
        assertNull(config.pfc());
        assertNull(config.buffer());
        assertNull(config.tcMaxrate());
        assertNull(config.appTrust());
        assertNull(config.rewriteTable());
        assertEquals(List.of(new DcbApp(1, 4, 0x8915), new DcbApp(5, 5, 46)), config.appTable());
    }

    @Test
    void apptrustAndPcpEntriesOfBothTypesFlaggedNestsAndUnknownAttributes() throws Exception {
        IeeeDcbConfig config = DcbMessages.parseIeeeGet("swp7", reply(IEEE_GET,
                attr(99, u8(1, 2, 3)),
                attr(13 | 0x8000,
                        attr(4, new byte[59]),
                        attr(40, u8(9)),
                        attr(3 | 0x8000, attr(2, app(255, 6, 13)), attr(1, app(5, 2, 20)), attr(7, app(5, 7, 7))),
                        attr(12 | 0x8000, attr(2, app(255, 1, 9))),
                        attr(11 | 0x8000, attr(2, u8(255)), attr(1, u8(5)))),
                attr(14, u8(0x08))));
        assertEquals(List.of(new DcbApp(255, 6, 13), new DcbApp(5, 2, 20)), config.appTable(),
                "entry types 1 and 2 are read, other types skipped");
        assertEquals(List.of(255, 5), config.appTrust());
        assertEquals(List.of(new DcbApp(255, 1, 9)), config.rewriteTable());
        assertEquals(0x08, config.dcbx());
        assertNull(config.ets(), "peer ETS (4) is not the local ETS");
    }

    @Test
    void gdcbxReplyCarriesTheDcbxByte() throws Exception {
        assertEquals(0x0c, DcbMessages.parseGdcbx(reply(DcbAbi.DCB_CMD_GDCBX, attr(14, u8(0x0c)))));
        assertEquals("malformed netlink data: RTM_GETDCB reply: DCB_CMD_GDCBX reply has no DCB_ATTR_DCBX (14)",
                assertThrows(NetlinkException.class,
                        () -> DcbMessages.parseGdcbx(reply(DcbAbi.DCB_CMD_GDCBX))).getMessage());
    }

    static Stream<Arguments> malformed() throws NetlinkException {
        byte[] twoMessages = concat(message(78, 0, 1, 2, dcbmsg(IEEE_GET), attr(13)),
                message(78, 0, 1, 2, dcbmsg(IEEE_GET), attr(13)));
        byte[] linkMessage = message(16, 0, 1, 2, dcbmsg(IEEE_GET), attr(13));
        return Stream.of(
                Arguments.of("truncated PFC struct", reply(IEEE_GET, attr(13, attr(2, new byte[96]))),
                        "RTM_GETDCB reply/13/2: payload is 96 bytes, struct ieee_pfc (136 bytes) needs 136"),
                Arguments.of("truncated ETS struct", reply(IEEE_GET, attr(13, attr(1, new byte[58]))),
                        "RTM_GETDCB reply/13/1: payload is 58 bytes, struct ieee_ets (59 bytes) needs 59"),
                Arguments.of("short APP entry", reply(IEEE_GET, attr(13, attr(3, attr(1, u8(5, 4))))),
                        "RTM_GETDCB reply/13/3/1: payload is 2 bytes, struct dcb_app (4 bytes) needs 4"),
                Arguments.of("nla_len beyond the IEEE nest", reply(IEEE_GET, attr(13, le16(140), le16(2),
                                new byte[8])),
                        "RTM_GETDCB reply/13: attribute type 2 at offset 0 has nla_len 140 but only 12 bytes are left"),
                Arguments.of("empty apptrust entry", reply(IEEE_GET, attr(13, attr(11 | 0x8000, attr(1)))),
                        "RTM_GETDCB reply/13/11/1: payload is 0 bytes, a u8 needs 1"),
                Arguments.of("no IEEE nest", reply(IEEE_GET, attr(1, strz("x"))),
                        "RTM_GETDCB reply: no DCB_ATTR_IEEE (13) nest"),
                Arguments.of("answer to another command", reply(DcbAbi.DCB_CMD_GDCBX, attr(13)),
                        "RTM_GETDCB reply: dcbmsg.cmd 22, expected 21"),
                Arguments.of("two messages", NetlinkMessage.parseDatagram(twoMessages, twoMessages.length),
                        "RTM_GETDCB reply: expected one message, got 2"),
                Arguments.of("not RTM_GETDCB", NetlinkMessage.parseDatagram(linkMessage, linkMessage.length),
                        "RTM_GETDCB reply: message type 16, expected RTM_GETDCB (78)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedRepliesNameTheCulprit(String name, List<NetlinkMessage> reply, String message) {
        NetlinkException e = assertThrows(NetlinkException.class, () -> DcbMessages.parseIeeeGet("ens9", reply));
        assertEquals("malformed netlink data: " + message, e.getMessage());
        assertEquals(0, e.errno());
    }
}
