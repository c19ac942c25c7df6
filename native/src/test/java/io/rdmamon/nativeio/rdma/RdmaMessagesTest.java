package io.rdmamon.nativeio.rdma;

import static io.rdmamon.nativeio.netlink.RawNetlink.attr;
import static io.rdmamon.nativeio.netlink.RawNetlink.concat;
import static io.rdmamon.nativeio.netlink.RawNetlink.hex;
import static io.rdmamon.nativeio.netlink.RawNetlink.le16;
import static io.rdmamon.nativeio.netlink.RawNetlink.le32;
import static io.rdmamon.nativeio.netlink.RawNetlink.le64;
import static io.rdmamon.nativeio.netlink.RawNetlink.u8;
import static io.rdmamon.nativeio.rdma.RdmaReplies.MULTI;
import static io.rdmamon.nativeio.rdma.RdmaReplies.NESTED;
import static io.rdmamon.nativeio.rdma.RdmaReplies.devIndex;
import static io.rdmamon.nativeio.rdma.RdmaReplies.devName;
import static io.rdmamon.nativeio.rdma.RdmaReplies.hwCounter;
import static io.rdmamon.nativeio.rdma.RdmaReplies.parse;
import static io.rdmamon.nativeio.rdma.RdmaReplies.qp;
import static io.rdmamon.nativeio.rdma.RdmaReplies.reply;
import static io.rdmamon.nativeio.rdma.RdmaReplies.strz;
import static io.rdmamon.nativeio.rdma.RdmaReplies.summaryEntry;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.rdmamon.nativeio.netlink.NetlinkException;

/** Requests against the bytes iproute2's {@code rdma} sends, and every parser on replies written by hand. */
class RdmaMessagesTest {

    @Test
    void statGetCarriesTheDeviceAndPortIndexWithAnAckAsRdmaStatisticShowLinkDoes() {
        // nlmsghdr: len 32, type 5137 (0x1411), flags REQUEST|ACK; DEV_INDEX 3; PORT_INDEX 1
        assertArrayEquals(hex("20000000 1114 0500 01000000 00000000 | 0800 0100 03000000 | 0800 0300 01000000"),
                RdmaMessages.portHwCountersRequest(3, 1).build(1, 0));
    }

    @Test
    void dumpsAskForADumpWithAnAckAndTheQpDumpNamesTheDevice() {
        // RES_GET 5129 (0x1409), flags REQUEST|ACK|DUMP 0x305, no attribute
        assertArrayEquals(hex("10000000 0914 0503 02000000 00000000"),
                RdmaMessages.resourceSummariesRequest().build(2, 0));
        assertArrayEquals(hex("10000000 0114 0503 02000000 00000000"), RdmaMessages.devicesRequest().build(2, 0));
        // RES_QP_GET 5130 (0x140a) with DEV_INDEX 0: the kernel's dumpit refuses a request without it (EINVAL)
        assertArrayEquals(hex("18000000 0a14 0503 02000000 00000000 | 0800 0100 00000000"),
                RdmaMessages.queuePairsRequest(0).build(2, 0));
    }

    @Test
    void theHwCountersOfARxePortComeInKernelOrderWithU64sAboveLongMaxKeptAsTheirBits() throws Exception {
        Map<String, Long> counters = RdmaMessages.parsePortHwCounters(parse(reply(17, 0, devIndex(0), devName("rxe0"),
                attr(3, le32(1)),
                attr(80 | NESTED, hwCounter("sent_pkts", 94_699), hwCounter("rcvd_pkts", 94_699),
                        hwCounter("duplicate_request", 0), hwCounter("rdma_sends", 0xffff_ffff_ffff_fffeL),
                        hwCounter("sent_pkts", 1)))));
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("sent_pkts", 94_699L); // a repeated name keeps its first value
        expected.put("rcvd_pkts", 94_699L);
        expected.put("duplicate_request", 0L);
        expected.put("rdma_sends", -2L); // 2^64 - 2: unsigned in a long, as every u64 counter of the code base
        assertEquals(expected, counters);
        assertEquals(List.copyOf(expected.keySet()), List.copyOf(counters.keySet()));
        assertEquals("18446744073709551614", Long.toUnsignedString(counters.get("rdma_sends")));
    }

    @Test
    void unknownAttributesAndEntryFieldsOfNewerKernelsAreSkipped() throws Exception {
        // STAT_HWCOUNTER_INDEX (94) and _DYNAMIC (95) inside entries, an unknown top-level attribute (200), an
        // unknown entry type inside the nest, and a nest sent without NLA_F_NESTED
        Map<String, Long> counters = RdmaMessages.parsePortHwCounters(parse(reply(17, 0, attr(200, le32(9)),
                devIndex(1), attr(80, attr(99, le32(1)),
                        attr(81 | NESTED, attr(94, le32(0)), attr(82, strz("rx_write_requests")), attr(95, u8(1)),
                                attr(83, le64(12)))))));
        assertEquals(Map.of("rx_write_requests", 12L), counters);
    }

    @Test
    void aResourceSummaryDumpGivesEachDevicesCountsInKernelOrder() throws Exception {
        List<ResourceSummary> summaries = RdmaMessages.parseResourceSummaries(parse(
                reply(9, MULTI, devIndex(0), devName("rxe0"), attr(15 | NESTED, summaryEntry("pd", 1),
                        summaryEntry("cq", 1), summaryEntry("qp", 2), summaryEntry("cm_id", 0), summaryEntry("mr", 1),
                        summaryEntry("ctx", 1), summaryEntry("srq", 0))),
                reply(9, MULTI, devIndex(4), devName("mlx5_0"), attr(15 | NESTED, summaryEntry("qp", 70_000)))));
        assertEquals(2, summaries.size());
        assertEquals(new ResourceSummary(0, "rxe0", Map.of("pd", 1L, "cq", 1L, "qp", 2L, "cm_id", 0L, "mr", 1L,
                "ctx", 1L, "srq", 0L)), summaries.get(0));
        assertEquals(List.of("pd", "cq", "qp", "cm_id", "mr", "ctx", "srq"),
                List.copyOf(summaries.get(0).counts().keySet()));
        assertEquals(new ResourceSummary(4, "mlx5_0", Map.of("qp", 70_000L)), summaries.get(1));
    }

    @Test
    void aQpDumpSplitOverMessagesGivesEveryQpWithOptionalFieldsAbsentWhereTheKernelSendsNone() throws Exception {
        List<QueuePairEntry> qps = RdmaMessages.parseQueuePairs(parse(
                reply(10, MULTI, devIndex(0), devName("rxe0"), attr(19 | NESTED,
                        qp(1, 1, null, 1, 3, null, "ib_core"),
                        qp(1, 17, 18L, 2, 3, 4321L, null))),
                reply(10, MULTI, devIndex(0), devName("rxe0"), attr(19 | NESTED,
                        qp(null, 19, null, 0xff, 0, 4321L, null)))));
        assertEquals(List.of(
                new QueuePairEntry(0, "rxe0", 1, 1, null, 1, 3, null, "ib_core"),
                new QueuePairEntry(0, "rxe0", 1, 17, 18L, 2, 3, 4321L, null),
                new QueuePairEntry(0, "rxe0", null, 19, null, 0xff, 0, 4321L, null)), qps);
        assertEquals(List.of("GSI/RTS", "RC/RTS", "DRIVER/RESET"),
                qps.stream().map(q -> q.typeName() + "/" + q.stateName()).toList());
    }

    @Test
    void aQpDumpMessageWithoutATableCarriesNoQp() throws Exception {
        assertEquals(List.of(), RdmaMessages.parseQueuePairs(parse(reply(10, MULTI, devIndex(0), devName("rxe0")))));
    }

    @Test
    void typeAndStateNamesAreIproute2s() {
        List<String> types = Stream.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0xff)
                .map(t -> new QueuePairEntry(0, "d", null, 1, null, t, 0, null, null).typeName()).toList();
        assertEquals(List.of("SMI", "GSI", "RC", "UC", "UD", "RAW_IPV6", "RAW_ETHERTYPE", "UNKNOWN", "RAW_PACKET",
                "XRC_INI", "XRC_TGT", "UNKNOWN", "DRIVER"), types);
        List<String> states = Stream.of(0, 1, 2, 3, 4, 5, 6, 7)
                .map(s -> new QueuePairEntry(0, "d", null, 1, null, 2, s, null, null).stateName()).toList();
        assertEquals(List.of("RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR", "UNKNOWN"), states);
    }

    @Test
    void aDeviceDumpGivesIndexAndName() throws Exception {
        assertEquals(List.of(new RdmaDeviceIndex(0, "rxe0"), new RdmaDeviceIndex(3, "mlx5_1")),
                RdmaMessages.parseDevices(parse(
                        reply(1, MULTI, devIndex(0), devName("rxe0"), attr(3, le32(1)), attr(4, le64(5))),
                        reply(1, MULTI, devIndex(3), devName("mlx5_1")))));
    }

    interface Parser {
        Object parse(byte[] datagram) throws NetlinkException;
    }

    static Stream<Arguments> malformedReplies() {
        Parser stat = d -> RdmaMessages.parsePortHwCounters(parse(d));
        Parser summary = d -> RdmaMessages.parseResourceSummaries(parse(d));
        Parser qps = d -> RdmaMessages.parseQueuePairs(parse(d));
        Parser devices = d -> RdmaMessages.parseDevices(parse(d));
        return Stream.of(
                Arguments.of("STAT_GET without the hwcounters nest", stat, reply(17, 0, devIndex(0)),
                        "malformed netlink data: RDMA_NLDEV_CMD_STAT_GET reply: no RDMA_NLDEV_ATTR_STAT_HWCOUNTERS (80)"),
                Arguments.of("an entry without its value", stat,
                        reply(17, 0, attr(80 | NESTED, attr(81 | NESTED, attr(82, strz("x"))))),
                        "malformed netlink data: RDMA_NLDEV_CMD_STAT_GET reply: no "
                                + "RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE (83)"),
                Arguments.of("a value cut to 4 bytes", stat,
                        reply(17, 0, attr(80 | NESTED, attr(81 | NESTED, attr(82, strz("x")), attr(83, le32(1))))),
                        "malformed netlink data: RDMA_NLDEV_CMD_STAT_GET reply/80/81/83: payload is 4 bytes, a u64 "
                                + "needs 8"),
                Arguments.of("an entry whose nla_len runs past its nest", stat,
                        reply(17, 0, attr(80 | NESTED, concat(le16(40), le16(81 | NESTED),
                                attr(82, strz("x"))))),
                        "malformed netlink data: RDMA_NLDEV_CMD_STAT_GET reply/80: attribute type 81 at offset 0 has "
                                + "nla_len 40 but only 12 bytes are left"),
                Arguments.of("two STAT_GET messages", stat,
                        concat(reply(17, 0, attr(80 | NESTED)), reply(17, 0, attr(80 | NESTED))),
                        "malformed netlink data: RDMA_NLDEV_CMD_STAT_GET reply: 2 messages, expected 1"),
                Arguments.of("a reply of another command", stat, reply(9, 0, attr(80 | NESTED)),
                        "malformed netlink data: RDMA_NLDEV_CMD_STAT_GET reply: message type 5129, expected 5137"),
                Arguments.of("a summary without its nest", summary, reply(9, MULTI, devIndex(0), devName("rxe0")),
                        "malformed netlink data: RDMA_NLDEV_CMD_RES_GET reply: no RDMA_NLDEV_ATTR_RES_SUMMARY (15)"),
                Arguments.of("a summary entry without a count", summary, reply(9, MULTI, devIndex(0), devName("rxe0"),
                                attr(15 | NESTED, attr(16 | NESTED, attr(17, strz("qp"))))),
                        "malformed netlink data: RDMA_NLDEV_CMD_RES_GET reply: no "
                                + "RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR (18)"),
                Arguments.of("a QP without its number", qps, reply(10, MULTI, devIndex(0), devName("rxe0"),
                                attr(19 | NESTED, attr(20 | NESTED, attr(26, u8(2)), attr(27, u8(3))))),
                        "malformed netlink data: RDMA_NLDEV_CMD_RES_QP_GET reply: no RDMA_NLDEV_ATTR_RES_LQPN (21)"),
                Arguments.of("a QP dump message without the device", qps, reply(10, MULTI, attr(19 | NESTED)),
                        "malformed netlink data: RDMA_NLDEV_CMD_RES_QP_GET reply: no RDMA_NLDEV_ATTR_DEV_INDEX (1)"),
                Arguments.of("a QP type as a u32 cut to nothing", qps, reply(10, MULTI, devIndex(0), devName("rxe0"),
                                attr(19 | NESTED, attr(20 | NESTED, attr(21, le32(1)), attr(26), attr(27, u8(3))))),
                        "malformed netlink data: RDMA_NLDEV_CMD_RES_QP_GET reply/19/20/26: payload is 0 bytes, a u8 "
                                + "needs 1"),
                Arguments.of("a device without its name", devices, reply(1, MULTI, devIndex(0)),
                        "malformed netlink data: RDMA_NLDEV_CMD_GET reply: no RDMA_NLDEV_ATTR_DEV_NAME (2)"),
                Arguments.of("a device index cut to 2 bytes", devices, reply(1, MULTI, attr(1, u8(1, 0)),
                                devName("x")),
                        "malformed netlink data: RDMA_NLDEV_CMD_GET reply/1: payload is 2 bytes, a u32 needs 4"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedReplies")
    void aMalformedReplyIsNamedNeverAnIndexError(String name, Parser parser, byte[] datagram, String message) {
        NetlinkException e = assertThrows(NetlinkException.class, () -> parser.parse(datagram));
        assertEquals(0, e.errno());
        assertEquals(message, e.getMessage());
    }
}
