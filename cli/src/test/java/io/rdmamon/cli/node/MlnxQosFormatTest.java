package io.rdmamon.cli.node;

import io.rdmamon.protocol.model.QosConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MlnxQosFormatTest {
    private static final List<Integer> IDENTITY = IntStream.range(0, 8).boxed().toList();
    private static final List<Integer> DRIVER_DEFAULT_TC = List.of(1, 0, 2, 3, 4, 5, 6, 7);

    private static List<QosConfig.AppEntry> dscpMap(int dscp, int priority) {
        List<QosConfig.AppEntry> app = new ArrayList<>();
        IntStream.range(0, 64).forEach(d -> app.add(new QosConfig.AppEntry(5, d == dscp ? priority : d >> 3, d)));
        return app;
    }

    private static QosConfig.Ets vendorDefaults() {
        return new QosConfig.Ets(false, 8, Collections.nCopies(8, 100), Collections.nCopies(8, "vendor"),
                DRIVER_DEFAULT_TC);
    }

    static Stream<Arguments> configurations() {
        return Stream.of(
                // the real mlnx_qos output of docs/reference/qos-dcb.md §3.2 (trust dscp, PFC on 3, driver ETS)
                Arguments.of("mlnx_qos sample", new QosConfig(QosConfig.SOURCE_NETLINK, 0x0d,
                        new QosConfig.Pfc(8, 1 << 3, 7), vendorDefaults(), dscpMap(-1, 0), null, null,
                        Collections.nCopies(8, 0L), null, null, null), """
                        DCBX mode: OS controlled
                        Priority trust state: dscp
                        dscp2prio mapping:
                        \tprio:0 dscp:07,06,05,04,03,02,01,00,
                        \tprio:1 dscp:15,14,13,12,11,10,09,08,
                        \tprio:2 dscp:23,22,21,20,19,18,17,16,
                        \tprio:3 dscp:31,30,29,28,27,26,25,24,
                        \tprio:4 dscp:39,38,37,36,35,34,33,32,
                        \tprio:5 dscp:47,46,45,44,43,42,41,40,
                        \tprio:6 dscp:55,54,53,52,51,50,49,48,
                        \tprio:7 dscp:63,62,61,60,59,58,57,56,
                        Cable len: 7
                        PFC configuration:
                        \tpriority    0   1   2   3   4   5   6   7
                        \tenabled     0   0   0   1   0   0   0   0
                        tc: 0 ratelimit: unlimited, tsa: vendor
                        \t priority:  1
                        tc: 1 ratelimit: unlimited, tsa: vendor
                        \t priority:  0
                        tc: 2 ratelimit: unlimited, tsa: vendor
                        \t priority:  2
                        tc: 3 ratelimit: unlimited, tsa: vendor
                        \t priority:  3
                        tc: 4 ratelimit: unlimited, tsa: vendor
                        \t priority:  4
                        tc: 5 ratelimit: unlimited, tsa: vendor
                        \t priority:  5
                        tc: 6 ratelimit: unlimited, tsa: vendor
                        \t priority:  6
                        tc: 7 ratelimit: unlimited, tsa: vendor
                        \t priority:  7
                        """),
                // PFC on 6, DSCP 10 remapped onto 6 (9 DSCPs there: the list wraps), ETS with bandwidths,
                // buffers, a rate limit, OFED ECN with an unknown entry, ToS 40 = DSCP 10
                Arguments.of("remapped, buffers, ECN, ToS", new QosConfig(QosConfig.SOURCE_CAPTURE, 0x0c,
                        new QosConfig.Pfc(8, 1 << 6, 2),
                        new QosConfig.Ets(false, 8, List.of(30, 0, 0, 0, 0, 0, 70, 0),
                                List.of("ets", "strict", "strict", "strict", "strict", "strict", "ets", "strict"),
                                List.of(0, 0, 0, 0, 0, 0, 6, 0)),
                        dscpMap(10, 6), null,
                        new QosConfig.Buffer(List.of(0, 0, 0, 0, 0, 0, 1, 0), List.of(262144L, 524288L, 0L, 0L, 0L, 0L,
                                0L, 0L), 786432L),
                        List.of(0L, 0L, 0L, 0L, 0L, 0L, 25_000_000L, 0L),
                        new QosConfig.Ecn(Map.of(0, false, 6, true), Map.of(6, false), 48, 7), 40, 0), """
                        DCBX mode: Firmware controlled
                        Priority trust state: dscp
                        dscp2prio mapping:
                        \tprio:0 dscp:07,06,05,04,03,02,01,00,
                        \tprio:1 dscp:15,14,13,12,11,09,08,
                        \tprio:2 dscp:23,22,21,20,19,18,17,16,
                        \tprio:3 dscp:31,30,29,28,27,26,25,24,
                        \tprio:4 dscp:39,38,37,36,35,34,33,32,
                        \tprio:5 dscp:47,46,45,44,43,42,41,40,
                        \tprio:6 dscp:55,54,53,52,51,50,49,48,
                        \t       10,
                        \tprio:7 dscp:63,62,61,60,59,58,57,56,
                        Receive buffer size (bytes): 262144,524288,0,0,0,0,0,0,max_buffer_size=786432
                        Cable len: 2
                        PFC configuration:
                        \tpriority    0   1   2   3   4   5   6   7
                        \tenabled     0   0   0   0   0   0   1   0
                        \tbuffer      0   0   0   0   0   0   1   0
                        tc: 0 ratelimit: unlimited, tsa: ets, bw: 30%
                        \t priority:  0
                        \t priority:  1
                        \t priority:  2
                        \t priority:  3
                        \t priority:  4
                        \t priority:  5
                        \t priority:  7
                        tc: 1 ratelimit: unlimited, tsa: strict
                        tc: 2 ratelimit: unlimited, tsa: strict
                        tc: 3 ratelimit: unlimited, tsa: strict
                        tc: 4 ratelimit: unlimited, tsa: strict
                        tc: 5 ratelimit: unlimited, tsa: strict
                        tc: 6 ratelimit: 25.0 Gbps, tsa: ets, bw: 70%
                        \t priority:  6
                        tc: 7 ratelimit: unlimited, tsa: strict
                        ECN (DCQCN) enabled:
                        \tpriority    0   1   2   3   4   5   6   7
                        \troce_np     0   ?   ?   ?   ?   ?   1   ?
                        \troce_rp     ?   ?   ?   ?   ?   ?   0   ?
                        CNP: dscp 48, priority 7
                        RoCE traffic_class: 40 (DSCP 10 -> priority 6, PFC on)
                        rdma_cm default_roce_tos: 0 (DSCP 0 -> priority 0, no PFC)
                        """),
                // after a reboot: trust pcp (no map printed), PFC off, nothing else read
                Arguments.of("lost, parts not read", new QosConfig(QosConfig.SOURCE_CAPTURE, null,
                        new QosConfig.Pfc(8, 0, 0), null, List.of(), null, null, null, null, 104, null), """
                        DCBX mode: unknown
                        Priority trust state: pcp
                        Cable len: 0
                        PFC configuration:
                        \tpriority    0   1   2   3   4   5   6   7
                        \tenabled     0   0   0   0   0   0   0   0
                        ETS configuration: not read
                        RoCE traffic_class: 104 (DSCP 26)
                        """));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configurations")
    void printsLikeMlnxQos(String name, QosConfig qos, String expected) {
        assertEquals(expected, MlnxQosFormat.text(qos));
    }

    @Test
    void pfcNotReadSaysSo() {
        QosConfig qos = new QosConfig(QosConfig.SOURCE_CAPTURE, 0x0d, null, vendorDefaults(), List.of(), null, null,
                null, null, null, null);
        String text = MlnxQosFormat.text(qos);
        assertEquals(true, text.contains("PFC configuration: not read\n"), text);
        assertEquals(true, text.contains("tc: 0 ratelimit: unknown, tsa: vendor\n"), text);
    }
}
