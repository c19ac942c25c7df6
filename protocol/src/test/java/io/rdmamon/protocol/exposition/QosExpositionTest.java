package io.rdmamon.protocol.exposition;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.testing.QosSamples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rdma_qos_* series and rdma_port_info{lossless_priorities,lossless_source} of docs/architecture.md "Metric
 * names". */
class QosExpositionTest {
    private static final String PORT = "device=\"mlx5_2\",node=\"n1\",port=\"1\"";

    /** ethtool of a port whose driver exports pause counters for {@code pausePriorities} only. */
    private static EthtoolStats ethtool(int... pausePriorities) {
        Map<String, Long> raw = new LinkedHashMap<>();
        raw.put("rx_prio0_bytes", 1L);
        for (int p : pausePriorities) {
            raw.put("rx_prio" + p + "_pause", 0L);
        }
        return EthtoolStats.of("ens1f1np1", raw);
    }

    private static IbPort port(EthtoolStats ethtool, QosConfig qos) {
        return IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .rate("200 Gb/sec (4X HDR)").rateBytesPerSecond(25_000_000_000L).linkLayer("Ethernet").lid("0x0")
                .netdev("ens1f1np1").ethtool(ethtool).qos(qos).build();
    }

    private static String render(IbPort port) throws IOException {
        HostSample sample = new HostSample("n1", 1_700_000_000_000L, List.of(new IbDevice("mlx5_2", 1, "CA",
                "0c42:a103:0012:3456", "0c42:a103:0012:3456", "28.39.1002", "MT4129", "MT_0000000838", List.of(port))),
                List.of());
        ExpositionAssembler assembler = new ExpositionAssembler();
        assembler.add(new NodeRenderer().render("n1", sample));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assembler.write(out, ExpositionFormat.PROMETHEUS_TEXT);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static List<String> series(String text, String family) {
        return text.lines().filter(l -> l.startsWith(family + "{")).toList();
    }

    @Test
    void aLosslessConfigurationGivesPfcBitsInfoPriorityTcAndEcnPerPriority() throws IOException {
        QosConfig qos = QosSamples.lossless(4).ecn(4).priorityTc(0, 0, 1, 1, 2, 2, 3, 3)
                .ets(List.of("ets", "ets", "strict", "vendor", "ets", "ets", "ets", "ets"),
                        List.of(30, 70, 0, 100, 0, 0, 0, 0)).build();
        String text = render(port(ethtool(), qos));
        List<String> pfc = series(text, "rdma_qos_pfc_enabled");
        assertEquals(8, pfc.size(), text);
        for (int p = 0; p < 8; p++) {
            assertTrue(pfc.contains("rdma_qos_pfc_enabled{" + PORT + ",priority=\"" + p + "\"} " + (p == 4 ? "1.0" : "0.0")),
                    "priority " + p + ": " + pfc);
        }
        assertEquals(List.of("rdma_qos_info{dcbx=\"host,cee,ieee\"," + PORT + ",source=\"netlink\",trust=\"dscp\"} 1"),
                series(text, "rdma_qos_info"));
        assertEquals("rdma_qos_priority_tc{" + PORT + ",priority=\"5\"} 2.0", series(text, "rdma_qos_priority_tc").get(5));
        // bandwidth only for the ETS classes: tc 2 (strict) and tc 3 (vendor) have no share
        assertEquals(List.of("0", "1", "4", "5", "6", "7"), series(text, "rdma_qos_tc_bandwidth_percent").stream()
                .map(l -> l.replaceAll(".*tc=\"(\\d)\".*", "$1")).toList());
        assertTrue(text.contains("rdma_qos_tc_bandwidth_percent{" + PORT + ",tc=\"1\"} 70.0\n"), text);
        // ECN of the PFC priority only: np and rp of priority 4
        assertEquals(List.of("rdma_qos_ecn_enabled{" + PORT + ",priority=\"4\",role=\"np\"} 1.0",
                "rdma_qos_ecn_enabled{" + PORT + ",priority=\"4\",role=\"rp\"} 1.0"), series(text, "rdma_qos_ecn_enabled"));
        // the configuration, not the (missing) pause counters, decides the lossless priority
        assertTrue(text.contains("rdma_port_info{" + "device=\"mlx5_2\",link_layer=\"Ethernet\",lossless_priorities=\"4\","
                + "lossless_source=\"config\",netdev=\"ens1f1np1\""), text);
    }

    @Test
    void qosSeriesStayUnderFortyPerPortWithEveryFileReadable() throws IOException {
        QosConfig qos = QosSamples.lossless(2, 6).ecn(2, 6)
                .ets(List.of("ets", "ets", "ets", "strict", "vendor", "vendor", "vendor", "vendor"),
                        List.of(20, 30, 50, 0, 0, 0, 0, 0)).build();
        String text = render(port(ethtool(2, 6), qos));
        long qosSeries = text.lines().filter(l -> l.startsWith("rdma_qos_")).count();
        assertEquals(8 + 1 + 8 + 3 + 2 * 2, qosSeries, text);
        assertTrue(qosSeries < 40);
    }

    @Test
    void withoutAConfigurationThePauseCountersDecideAndNoQosSeriesExist() throws IOException {
        String text = render(port(ethtool(2, 6), null));
        assertTrue(text.contains("lossless_priorities=\"2,6\",lossless_source=\"counters\""), text);
        assertEquals(0, text.lines().filter(l -> l.startsWith("rdma_qos_")).count(), text);
    }

    @Test
    void aPortWithNeitherConfigurationNorEthtoolHasAnEmptySource() throws IOException {
        assertTrue(render(port(null, null)).contains("lossless_priorities=\"\",lossless_source=\"\""));
    }

    @Test
    void pfcOffEverywhereInTheConfigurationOverridesStalePauseCounters() throws IOException {
        String text = render(port(ethtool(3), QosSamples.afterReboot().build()));
        assertTrue(text.contains("lossless_priorities=\"\",lossless_source=\"config\""), text);
        assertTrue(text.contains("rdma_qos_info{dcbx=\"host,cee,ieee\"," + PORT + ",source=\"netlink\",trust=\"pcp\"} 1"),
                text);
        assertTrue(series(text, "rdma_qos_pfc_enabled").stream().allMatch(l -> l.endsWith(" 0.0")), text);
        assertEquals(0, series(text, "rdma_qos_tc_bandwidth_percent").size(), "vendor TSA has no share");
    }

    @Test
    void unreadPartsAreAbsentSeriesNotZeros() throws IOException {
        String text = render(port(ethtool(5), QosSamples.lossless(5).pfcUnread().etsUnread().dcbx(null)
                .source(QosConfig.SOURCE_CAPTURE).build()));
        assertEquals(0, series(text, "rdma_qos_pfc_enabled").size());
        assertEquals(0, series(text, "rdma_qos_priority_tc").size());
        assertEquals(0, series(text, "rdma_qos_ecn_enabled").size(), "no OFED ecn files");
        assertEquals(List.of("rdma_qos_info{dcbx=\"\"," + PORT + ",source=\"capture\",trust=\"dscp\"} 1"),
                series(text, "rdma_qos_info"));
        assertTrue(text.contains("lossless_priorities=\"5\",lossless_source=\"counters\""), "PFC unread: counters decide");
    }

    @ParameterizedTest
    @CsvSource({"0, ''", "13, 'host,cee,ieee'", "12, 'cee,ieee'", "16, static", "2, lld_managed", "161, 'host,0xa0'"})
    void dcbxBitsAreNamedAsDcbPrintsThem(int bits, String expected) {
        assertEquals(expected, QosLabels.dcbx(bits));
    }
}
