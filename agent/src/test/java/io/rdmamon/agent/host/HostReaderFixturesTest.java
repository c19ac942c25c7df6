package io.rdmamon.agent.host;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PriorityCounters;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.SourceStatus;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HostReaderFixturesTest {

    @Test
    void mlx5RoceEveryField() throws IOException {
        HostSample sample = Fixtures.builder("mlx5-roce")
                .clock(Clock.fixed(Instant.ofEpochMilli(1_700_000_000_123L), ZoneOffset.UTC)).build()
                .read("gpu-node-07");

        assertEquals("gpu-node-07", sample.node());
        assertEquals(1_700_000_000_123L, sample.timestampMillis());
        assertEquals(List.of(
                SourceStatus.ok("sysfs", "mlx5_0"), SourceStatus.ok("ethtool", "ens1f0np0"), SourceStatus.ok("qos", "ens1f0np0"),
                SourceStatus.ok("sysfs", "mlx5_1"), SourceStatus.ok("ethtool", "ens1f1np1"), SourceStatus.ok("qos", "ens1f1np1"),
                SourceStatus.ok("qos", "etc/nccl.conf")), sample.sources());
        assertEquals(List.of("mlx5_0", "mlx5_1"), sample.devices().stream().map(IbDevice::name).toList());

        IbDevice actual = sample.devices().get(0);
        EthtoolStats ethtool = actual.ports().get(0).ethtool();
        // raw: all 94 statistics in file order (the typed fields below are checked value by value)
        assertEquals(94, ethtool.raw().size());
        assertEquals("rx_packets", ethtool.raw().keySet().iterator().next());
        assertEquals(List.of("rx_prio3_pause", "rx_prio3_pause_duration", "tx_prio3_pause",
                        "tx_prio3_pause_duration", "rx_prio3_pause_transition"),
                ethtool.raw().keySet().stream().filter(k -> k.contains("pause") && !k.contains("storm")
                        && !k.contains("ctrl")).toList());
        assertEquals(2990000000L, ethtool.raw().get("tx0_bytes"));

        assertEquals(expectedMlx5_0(ethtool.raw()), actual);
        assertTypedView(ethtool);
    }

    /** The typed view of mlx5_0 port 1's statistics, value by value. */
    private static void assertTypedView(EthtoolStats ethtool) {
        List<PriorityCounters> priorities = new ArrayList<>();
        priorities.add(new PriorityCounters(0, 6170000000L, 5225795L, 0L, 6017087240L, 5128000L,
                null, null, null, null, null));
        for (int prio = 1; prio < 8; prio++) {
            priorities.add(prio == 3
                    ? new PriorityCounters(3, 11326188828L, 2764205L, 0L, 12582912760L, 3072000L,
                    1520L, 30400L, 310L, 6200L, 760L)
                    : new PriorityCounters(prio, 0L, 0L, 0L, 0L, 0L, null, null, null, null, null));
        }
        Map<String, Long> vportRdma = new LinkedHashMap<>();
        vportRdma.put("rx_vport_rdma_unicast_packets", 2764100L);
        vportRdma.put("rx_vport_rdma_unicast_bytes", 11326180428L);
        vportRdma.put("tx_vport_rdma_unicast_packets", 3071990L);
        vportRdma.put("tx_vport_rdma_unicast_bytes", 12582911960L);
        vportRdma.put("rx_vport_rdma_multicast_packets", 105L);
        vportRdma.put("rx_vport_rdma_multicast_bytes", 8400L);
        vportRdma.put("tx_vport_rdma_multicast_packets", 10L);
        vportRdma.put("tx_vport_rdma_multicast_bytes", 800L);
        assertEquals(priorities, ethtool.priorities());
        assertEquals(Set.of(3), ethtool.pfcEnabledPriorities());
        assertEquals(vportRdma, ethtool.vportRdma());
        assertEquals(2L, ethtool.pauseStormWarningEvents());
        assertEquals(0L, ethtool.pauseStormErrorEvents());
    }

    private static IbDevice expectedMlx5_0(Map<String, Long> raw) {
        Map<String, Long> counters = new LinkedHashMap<>();
        for (String zero : List.of("VL15_dropped", "excessive_buffer_overrun_errors", "link_downed",
                "link_error_recovery", "local_link_integrity_errors", "port_rcv_constraint_errors", "port_rcv_errors",
                "port_rcv_remote_physical_errors", "port_rcv_switch_relay_errors", "port_xmit_constraint_errors",
                "port_xmit_discards", "port_xmit_wait", "symbol_error")) {
            counters.put(zero, 0L);
        }
        counters.put("multicast_rcv_packets", 105L);
        counters.put("multicast_xmit_packets", 10L);
        counters.put("port_rcv_data", 2831545107L * 4); // file holds octets / 4
        counters.put("port_xmit_data", 3145728000L * 4);
        counters.put("port_rcv_packets", 2764205L);
        counters.put("port_xmit_packets", 3072000L);
        counters.put("unicast_rcv_packets", 2764100L);
        counters.put("unicast_xmit_packets", 3071990L);

        Map<String, Long> hw = new LinkedHashMap<>();
        hw.put("rx_write_requests", 3L);
        hw.put("rx_read_requests", 10L);
        hw.put("rx_atomic_requests", 17L);
        hw.put("rx_dct_connect", 0L);
        hw.put("out_of_buffer", 31L);
        hw.put("out_of_sequence", 38L);
        hw.put("duplicate_request", 45L);
        hw.put("rnr_nak_retry_err", 52L);
        hw.put("packet_seq_err", 59L);
        hw.put("implied_nak_seq_err", 66L);
        hw.put("local_ack_timeout_err", 73L);
        hw.put("resp_local_length_error", 80L);
        hw.put("resp_cqe_error", 87L);
        hw.put("req_cqe_error", 94L);
        hw.put("req_remote_invalid_request", 101L);
        hw.put("req_remote_access_errors", 108L);
        hw.put("resp_remote_access_errors", 115L);
        hw.put("resp_cqe_flush_error", 122L);
        hw.put("req_cqe_flush_error", 129L);
        hw.put("req_transport_retries_exceeded", 136L);
        hw.put("req_rnr_retries_exceeded", 143L);
        hw.put("roce_adp_retrans", 150L);
        hw.put("roce_adp_retrans_to", 157L);
        hw.put("roce_slow_restart", 164L);
        hw.put("roce_slow_restart_cnps", 171L);
        hw.put("roce_slow_restart_trans", 178L);
        hw.put("rp_cnp_ignored", 185L);
        hw.put("rp_cnp_handled", 192L);
        hw.put("np_ecn_marked_roce_packets", 199L);
        hw.put("np_cnp_sent", 206L);
        hw.put("rx_icrc_encapsulated", 0L);

        String linkLocal = "fe80:0000:0000:0000:bace:f6ff:fea1:b2c4";
        String mapped = "0000:0000:0000:0000:0000:ffff:c0a8:0102";
        List<GidEntry> gids = List.of(
                new GidEntry(0, linkLocal, "IB/RoCE v1", "ens1f0np0", null),
                new GidEntry(1, linkLocal, "RoCE v2", "ens1f0np0", null),
                new GidEntry(2, mapped, "IB/RoCE v1", "ens1f0np0", "192.168.1.2"),
                new GidEntry(3, mapped, "RoCE v2", "ens1f0np0", "192.168.1.2"));

        EthtoolStats ethtool = EthtoolStats.of("ens1f0np0", raw);

        // dcb/ens1f0np0/*.json (iproute2 6.1) and the MLNX_OFED files of the fixture
        List<QosConfig.AppEntry> app = IntStream.range(0, 64).mapToObj(d -> new QosConfig.AppEntry(5, d >> 3, d)).toList();
        Map<Integer, Boolean> ecnOnThree = new TreeMap<>();
        IntStream.range(0, 8).forEach(p -> ecnOnThree.put(p, p == 3));
        QosConfig qos = new QosConfig(QosConfig.SOURCE_CAPTURE, 0x0d, new QosConfig.Pfc(8, 1 << 3, 7),
                new QosConfig.Ets(false, 8, List.of(40, 0, 0, 60, 0, 0, 0, 0),
                        List.of("ets", "strict", "strict", "ets", "strict", "strict", "strict", "strict"),
                        List.of(0, 0, 0, 3, 0, 0, 0, 0)),
                app, null, new QosConfig.Buffer(List.of(0, 0, 0, 1, 0, 0, 0, 0),
                        List.of(130944L, 130944L, 0L, 0L, 0L, 0L, 0L, 0L), 1048320L),
                List.of(0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L), new QosConfig.Ecn(ecnOnThree, ecnOnThree, 48, 6), 106, 106);
        IbPort port = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .rate("100 Gb/sec (4X EDR)").rateBytesPerSecond(12_500_000_000L).linkLayer("Ethernet").lid("0x0")
                .netdev("ens1f0np0").counters(counters).hwCounters(hw).gids(gids).ethtool(ethtool).qos(qos)
                .hwCountersSource(IbPort.HW_COUNTERS_SYSFS).build(); // a captured root: the files, never netlink
        return new IbDevice("mlx5_0", 1, "CA", "b8ce:f603:00a1:b2c4", "b8ce:f603:00a1:b2c4", "22.36.1010",
                "MT4125", "MT_0000000359", List.of(port));
    }

    @Test
    void mlx5RoceSecondPortHasPfcOnPriorityFiveNotThree() throws IOException {
        IbPort port = Fixtures.reader("mlx5-roce").read("n").devices().get(1).ports().get(0);
        assertEquals("ens1f1np1", port.netdev(), "netdev found in a plain device/net directory");
        assertEquals(Set.of(5), port.ethtool().pfcEnabledPriorities());
        assertEquals(3040L, port.ethtool().priorities().get(5).rxPauseFrames());
        assertNull(port.ethtool().priorities().get(3).rxPauseFrames());
        assertEquals("192.168.2.2", port.gids().get(2).ipv4());
    }

    @Test
    void mlx5InfinibandHasNoNetdevEvenWithIpoib() throws IOException {
        HostSample sample = Fixtures.reader("mlx5-ib").read("n");
        IbPort port = sample.devices().get(0).ports().get(0);
        assertEquals("InfiniBand", port.linkLayer());
        assertEquals("0x12", port.lid());
        assertEquals(25_000_000_000L, port.rateBytesPerSecond());
        assertNull(port.netdev(), "ib0 is IPoIB, not a RoCE netdev");
        assertNull(port.ethtool());
        assertEquals(List.of(new GidEntry(0, "fe80:0000:0000:0000:0c42:a103:0065:7a90", "IB/RoCE v1", null, null)),
                port.gids());
        assertEquals(998877665544L * 4, port.counters().get("port_rcv_data"));
        assertEquals(List.of(SourceStatus.ok("sysfs", "mlx5_0")), sample.sources());
    }

    @Test
    void mlx4LegacyCountersAndCountersExt() throws IOException {
        IbDevice mlx4 = Fixtures.reader("mlx4-ib").read("n").devices().get(0);
        IbPort active = mlx4.ports().get(0);
        assertEquals(4631917L * 4, active.counters().get("port_rcv_data"));
        assertEquals(4631917L * 4, active.counters().get("port_rcv_data_64"));
        assertEquals(682590L, active.counters().get("port_rcv_packets_64"), "packets are not scaled");
        assertEquals(86L, active.counters().get("port_multicast_xmit_packets"));
        assertEquals(4294967295L, active.counters().get("port_xmit_wait"));
        assertEquals(7_000_000_000L, active.rateBytesPerSecond());
        IbPort down = mlx4.ports().get(1);
        assertEquals(List.of(2, 1, "DOWN", 2, "Polling"),
                List.of(down.port(), down.stateId(), down.state(), down.physStateId(), down.physState()));
    }

    @Test
    void erdmaNetdevFoundByMacAndOnlyHwCounters() throws IOException {
        HostSample sample = Fixtures.reader("erdma").read("n");
        IbDevice erdma = sample.devices().get(0);
        assertEquals(List.of(4, "RNIC"), List.of(erdma.nodeTypeId(), erdma.nodeType()));
        assertNull(erdma.hcaType());
        assertNull(erdma.boardId());
        IbPort port = erdma.ports().get(0);
        assertEquals("eth1", port.netdev(), "eth1 has the MAC the node_guid was derived from; eth0 does not");
        assertTrue(port.counters().isEmpty());
        assertEquals(11, port.hwCounters().size());
        assertEquals(73456789012L, port.hwCounters().get("tx_bytes_cnt"));
        assertEquals(312_500_000L, port.rateBytesPerSecond());
        assertEquals(9124000L, port.ethtool().raw().get("tx_queue_0_packets"));
        assertTrue(port.ethtool().priorities().isEmpty());
        assertEquals(List.of(new GidEntry(0, "0016:3e01:0203:0000:0000:0000:0000:0000", null, null, null)), port.gids());
        assertEquals(List.of(SourceStatus.ok("sysfs", "erdma_0"), SourceStatus.ok("ethtool", "eth1")), sample.sources());
    }

    @Test
    void noPmaCountersAreAbsentNotZero() throws IOException {
        HostSample sample = Fixtures.reader("irdma-no-pma").read("n");
        IbPort port = sample.devices().get(0).ports().get(0);
        assertEquals(Map.of(), port.counters());
        assertEquals(1_250_000_000L, port.rateBytesPerSecond(), "old rate format without speed name");
        assertEquals("10 Gb/sec (4X)", port.rate());
        assertEquals(12L, port.hwCounters().get("cnpHandled"));
        assertEquals("ens801f0", port.netdev());
        assertEquals("10.0.0.7", port.gids().get(3).ipv4());
        assertTrue(port.ethtool().pfcEnabledPriorities().isEmpty(), "ice names are not mlx5 PFC names");
        assertTrue(sample.sources().stream().allMatch(SourceStatus::success), sample.sources().toString());
    }

    @Test
    void bnxtWithoutCountersDirectory() throws IOException {
        HostSample sample = Fixtures.reader("bnxt-re").read("n");
        IbPort port = sample.devices().get(0).ports().get(0);
        assertTrue(port.counters().isEmpty());
        assertEquals(99887766554L, port.hwCounters().get("rx_bytes"));
        assertEquals("ens2f0np0", port.netdev());
        assertEquals(1300L, port.ethtool().raw().get("[1]: rx_ucast_packets"));
        // dcb/ens2f0np0: the apptrust table puts pcp first; `dcb pfc show` printed nothing
        QosConfig qos = port.qos();
        assertEquals(List.of("pcp", "dscp"), qos.trustOrder());
        assertEquals("pcp", qos.trust());
        assertEquals(List.of(new QosConfig.AppEntry(5, 4, 34), new QosConfig.AppEntry(3, 4, 4791),
                new QosConfig.AppEntry(255, 4, 4)), qos.app());
        assertNull(qos.pfc());
        assertEquals(0x0a, qos.dcbx());
        assertEquals(List.of(SourceStatus.unsupported("qos", "ens2f0np0", "dcb/ens2f0np0/pfc.json: dcb pfc show "
                + "printed nothing (not supported on ens2f0np0)")), sample.sources().stream()
                .filter(s -> s.outcome() != SourceStatus.Outcome.OK).toList());
    }

    @Test
    void mlx5RoceSecondPortReadsTheIproute265PrettyShape() throws IOException {
        QosConfig qos = Fixtures.reader("mlx5-roce").read("n").devices().get(1).ports().get(0).qos();
        assertEquals(List.of(5), qos.pfcPriorities());
        assertEquals(3, qos.pfc().delay());
        assertEquals("dscp", qos.trust());
        assertEquals(5, qos.priorityOfDscp(46));
        assertEquals(List.of(0, 0, 0, 0, 0, 5, 0, 0), qos.ets().priorityTc());
        assertNull(qos.buffer(), "not captured");
        assertNull(qos.ecn(), "no OFED files for mlx5_1");
        assertNull(qos.defaultRoceTos(), "no configfs directory for mlx5_1");
    }

    @Test
    void fixturesWithoutCapturesHaveNoQosAndNoQosStatus() throws IOException {
        HostSample sample = Fixtures.reader("bnxt-re").read("n");
        assertTrue(sample.sources().stream().noneMatch(s -> s.subject().equals("etc/nccl.conf")));
        assertNull(sample.ncclConf());
        HostSample ice = Fixtures.reader("irdma-no-pma").read("n");
        assertTrue(ice.devices().stream().flatMap(d -> d.ports().stream()).allMatch(p -> p.qos() == null));
        assertTrue(ice.sources().stream().noneMatch(s -> s.source().equals("qos")), ice.sources().toString());
    }

    @Test
    void mlx5RoceNcclConf() throws IOException {
        assertEquals(Map.of("NCCL_IB_TC", "106", "NCCL_IB_GID_INDEX", "3"),
                Fixtures.reader("mlx5-roce").read("n").ncclConf());
    }

    /** The values prometheus/procfs asserts for its own fixture (sysfs/class_infiniband_test.go). */
    @Test
    void procfsFixtureGivesProcfsPublishedValues() throws IOException {
        HostSample sample = Fixtures.reader("procfs").read("n");
        Map<String, IbDevice> byName = new LinkedHashMap<>();
        sample.devices().forEach(d -> byName.put(d.name(), d));
        assertEquals(List.of("hfi1_0", "mlx4_0", "mlx5_0"), List.copyOf(byName.keySet()));

        IbDevice hfi1 = byName.get("hfi1_0");
        assertEquals("HPE 100Gb 1-port OP101 QSFP28 x16 PCIe Gen3 with Intel Omni-Path Adapter", hfi1.boardId());
        assertEquals("1.27.0", hfi1.fwVersion());
        assertNull(hfi1.hcaType());
        IbPort hfiPort = hfi1.ports().get(0);
        assertEquals(1380366808104L, hfiPort.counters().get("port_rcv_data"));
        assertEquals(1094233306172L, hfiPort.counters().get("port_xmit_data"));
        assertEquals(638036947L, hfiPort.counters().get("port_rcv_packets"));
        assertEquals(12500000000L, hfiPort.rateBytesPerSecond());
        assertEquals(List.of(4, "ACTIVE", 5, "LinkUp"),
                List.of(hfiPort.stateId(), hfiPort.state(), hfiPort.physStateId(), hfiPort.physState()));

        IbDevice mlx4 = byName.get("mlx4_0");
        assertEquals(List.of("SM_1141000001000", "2.31.5050", "MT4099"),
                List.of(mlx4.boardId(), mlx4.fwVersion(), mlx4.hcaType()));
        assertEquals(8884894436L, mlx4.ports().get(0).counters().get("port_rcv_data"));
        assertEquals(106036453180L, mlx4.ports().get(0).counters().get("port_xmit_data"));
        assertEquals(3599L, mlx4.ports().get(0).counters().get("port_xmit_wait"));
        assertEquals(5000000000L, mlx4.ports().get(0).rateBytesPerSecond());
        assertEquals(9841747136L, mlx4.ports().get(1).counters().get("port_rcv_data"));
        assertEquals(106161427560L, mlx4.ports().get(1).counters().get("port_xmit_data"));
        assertEquals("InfiniBand", mlx4.ports().get(1).linkLayer(), "trailing blank line trimmed");

        IbDevice mlx5 = byName.get("mlx5_0");
        assertEquals("0a7f:bc12:45ef:d23b", mlx5.nodeGuid());
        IbPort mlx5Port = mlx5.ports().get(0);
        assertEquals(72505381512L, mlx5Port.counters().get("port_rcv_data"));
        assertEquals(11523046035392L, mlx5Port.counters().get("port_xmit_data"));
        assertEquals(10907922116L, mlx5Port.counters().get("unicast_xmit_packets"));
        assertEquals(3125000000L, mlx5Port.rateBytesPerSecond());
        assertEquals(List.of(4, "ACTIVE"), List.of(mlx5Port.physStateId(), mlx5Port.physState()));
        assertEquals(24, mlx5Port.hwCounters().size(), "every hw counter but lifespan");
        assertEquals(8109L, mlx5Port.hwCounters().get("resp_cqe_error"));
        assertEquals(175528982L, mlx5Port.hwCounters().get("rx_read_requests"));

        // procfs' fixture has no node_type: an absent optional attribute, not a failed source
        assertEquals(List.of(SourceStatus.ok("sysfs", "hfi1_0"), SourceStatus.ok("sysfs", "mlx4_0"),
                SourceStatus.ok("sysfs", "mlx5_0")), sample.sources());
        assertEquals(List.of(0, "null"), List.of(mlx5.nodeTypeId(), String.valueOf(mlx5.nodeType())));
    }

    /**
     * The values node_exporter publishes for its captured tree (prometheus/node_exporter
     * collector/fixtures/e2e-output.txt, {@code node_infiniband_*}; its byte counters are already ×4),
     * rebuilt as the {@code node-exporter} fixture. Each rdmamon counter equals the node_exporter metric of
     * the same file; a {@code counters/} name with a {@code counters_ext/} twin carries the larger of the two
     * (port 2's {@code counters/} reads 0 where node_exporter's legacy metric has the traffic).
     */
    @Test
    void nodeExporterCaptureGivesNodeExporterPublishedValues() throws IOException {
        HostSample sample = Fixtures.reader("node-exporter").read("n");
        assertEquals(List.of(SourceStatus.ok("sysfs", "i40iw0"), SourceStatus.ok("sysfs", "mlx4_0")), sample.sources(),
                "no node_type file is an absent optional attribute, not a failure");

        IbDevice i40iw = sample.devices().get(0);
        assertEquals(List.of("I40IW Board ID", "0.2", "I40IW"), List.of(i40iw.boardId(), i40iw.fwVersion(), i40iw.hcaType()));
        IbPort iwarp = i40iw.ports().get(0);
        assertEquals(List.of(4, 5, 1_250_000_000L), List.of(iwarp.stateId(), iwarp.physStateId(), iwarp.rateBytesPerSecond()));
        assertEquals(Map.of(), iwarp.counters(), "N/A (no PMA) everywhere: node_exporter publishes no counter either");

        IbDevice mlx4 = sample.devices().get(1);
        assertEquals(List.of("SM_1141000001000", "2.31.5050", "MT4099"), List.of(mlx4.boardId(), mlx4.fwVersion(), mlx4.hcaType()));
        Map<String, Long> legacy = new LinkedHashMap<>();
        legacy.put("port_rcv_data_64", 18527668L);           // legacy_data_received_bytes_total
        legacy.put("port_xmit_data_64", 14933760L);          // legacy_data_transmitted_bytes_total
        legacy.put("port_rcv_packets_64", 0L);               // legacy_packets_received_total
        legacy.put("port_xmit_packets_64", 0L);              // legacy_packets_transmitted_total
        legacy.put("port_unicast_rcv_packets", 61148L);      // legacy_unicast_packets_received_total
        legacy.put("port_unicast_xmit_packets", 61239L);     // legacy_unicast_packets_transmitted_total
        legacy.put("port_multicast_rcv_packets", 93L);       // legacy_multicast_packets_received_total
        legacy.put("port_multicast_xmit_packets", 16L);      // legacy_multicast_packets_transmitted_total

        Map<String, Long> port1 = new LinkedHashMap<>(legacy);
        port1.put("port_rcv_data", 18527668L);               // port_data_received_bytes_total
        port1.put("port_xmit_data", 14933760L);              // port_data_transmitted_bytes_total
        port1.put("port_rcv_packets", 6825908347L);          // port_packets_received_total (counters_ext reads 0)
        port1.put("port_xmit_packets", 6235865L);            // port_packets_transmitted_total
        port1.put("unicast_rcv_packets", 61148L);            // unicast_packets_received_total
        port1.put("unicast_xmit_packets", 61239L);           // unicast_packets_transmitted_total
        port1.put("multicast_rcv_packets", 93L);             // multicast_packets_received_total
        port1.put("multicast_xmit_packets", 16L);            // multicast_packets_transmitted_total
        port1.put("port_rcv_errors", 0L);                    // port_errors_received_total
        port1.put("port_rcv_discards", 0L);                  // port_discards_received_total
        port1.put("port_xmit_discards", 5L);                 // port_discards_transmitted_total
        port1.put("port_rcv_constraint_errors", 0L);         // port_constraint_errors_received_total
        port1.put("port_xmit_constraint_errors", 0L);        // port_constraint_errors_transmitted_total
        port1.put("port_xmit_wait", 4294967295L);            // port_transmit_wait_total
        port1.put("link_downed", 0L);                        // link_downed_total
        port1.put("link_error_recovery", 0L);                // link_error_recovery_total

        // node_exporter: port_data_received_bytes_total 0 but legacy_data_received_bytes_total 1.8527668e+07 (and
        // likewise for the other twins); rdmamon reports the traffic under the counters/ name the collector reads.
        Map<String, Long> port2 = new LinkedHashMap<>(legacy);
        port2.put("port_rcv_data", 18527668L);
        port2.put("port_xmit_data", 14933760L);
        port2.put("port_rcv_packets", 0L);                   // only in counters_ext/ on this port
        port2.put("port_xmit_packets", 0L);
        port2.put("unicast_rcv_packets", 61148L);
        port2.put("unicast_xmit_packets", 61239L);
        port2.put("multicast_rcv_packets", 93L);
        port2.put("multicast_xmit_packets", 16L);
        port2.put("link_downed", 0L);
        port2.put("link_error_recovery", 0L);

        for (Map.Entry<IbPort, Map<String, Long>> expected : Map.of(mlx4.ports().get(0), port1, mlx4.ports().get(1), port2)
                .entrySet()) {
            IbPort port = expected.getKey();
            assertEquals(new TreeMap<>(expected.getValue()), new TreeMap<>(port.counters()), "port " + port.port());
            assertEquals(List.of(4, 5, 5_000_000_000L), List.of(port.stateId(), port.physStateId(), port.rateBytesPerSecond()));
        }
    }

    @Test
    void deviceFilterIsAnchoredIncludeThenExclude() throws IOException {
        HostReader.Builder reader = Fixtures.builder("procfs");
        assertEquals(List.of("mlx4_0", "mlx5_0"),
                reader.deviceFilter(Pattern.compile("mlx.*"), null).build().deviceNames());
        assertEquals(List.of("mlx5_0"),
                reader.deviceFilter(Pattern.compile("mlx.*"), Pattern.compile("mlx4_0")).build().deviceNames());
        assertEquals(List.of(), reader.deviceFilter(Pattern.compile("mlx"), null).build().deviceNames());
        assertEquals(List.of("hfi1_0"), reader.deviceFilter(null, Pattern.compile("mlx\\d_0")).build()
                .read("n").devices().stream().map(IbDevice::name).toList());
    }

    @Test
    void netdevNamesAndReadNetdev() throws IOException {
        HostReader reader = Fixtures.reader("mlx5-roce");
        assertEquals(List.of("eno1", "ens1f0np0", "ens1f1np1"), reader.netdevNames());
        EthtoolStats stats = reader.readNetdev("ens1f1np1");
        assertEquals(Set.of(5), stats.pfcEnabledPriorities());
        IOException missing = assertThrows(IOException.class, () -> reader.readNetdev("eno1"));
        assertEquals("ethtool/eno1/statistics: no such file (no ethtool -S capture for eno1)", missing.getMessage());
        IOException invalid = assertThrows(IOException.class, () -> reader.readNetdev("../../etc"));
        assertTrue(invalid.getMessage().startsWith("invalid interface name \"../../etc\""), invalid.getMessage());
    }

    @Test
    void hostRootMustBeADirectory() {
        HostRootException absent = assertThrows(HostRootException.class,
                () -> HostReader.forRoot(Fixtures.root("no-such-fixture")));
        assertTrue(absent.getMessage().endsWith("no-such-fixture does not exist"), absent.getMessage());
        HostRootException file = assertThrows(HostRootException.class,
                () -> HostReader.forRoot(Fixtures.root("mlx5-roce/README.md")));
        assertTrue(file.getMessage().endsWith("README.md is not a directory"), file.getMessage());
    }

    @Test
    void aRootWithoutTheInfinibandClassHasNoDevices() throws IOException {
        HostSample sample = Fixtures.reader("mlx5-roce/ethtool").read("n");
        assertEquals(List.of(), sample.devices());
        assertEquals(List.of(), sample.sources());
    }
}
