package io.rdmamon.protocol.nccl;

import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.testing.QosSamples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The NCCL settings advised for hosts built in code, and the /etc/nccl.conf values that contradict them. */
class NcclAdviceTest {
    /** A RoCE port with link-local v1/v2 GIDs at 0/1 and, when {@code ipv4} is not null, its RoCE v2 GID at {@code v2Index}. */
    private static IbPort roce(int state, String netdev, int v2Index, String ipv4, QosConfig qos) {
        List<GidEntry> linkLocal = List.of(
                new GidEntry(0, "fe80:0000:0000:0000:0e42:a1ff:fe00:0001", "IB/RoCE v1", netdev, null),
                new GidEntry(1, "fe80:0000:0000:0000:0e42:a1ff:fe00:0001", "RoCE v2", netdev, null));
        List<GidEntry> gids = ipv4 == null ? linkLocal : Stream.concat(linkLocal.stream(), Stream.of(
                new GidEntry(v2Index, "0000:0000:0000:0000:0000:ffff:0a00:0001", "RoCE v2", netdev, ipv4))).toList();
        return port(state, netdev, gids, qos);
    }

    private static IbPort port(int state, String netdev, List<GidEntry> gids, QosConfig qos) {
        return IbPort.builder().port(1).stateId(state).state(state == 4 ? "ACTIVE" : "DOWN").physStateId(5)
                .physState("LinkUp").rate("400 Gb/sec (4X NDR)").rateBytesPerSecond(50_000_000_000L)
                .linkLayer("Ethernet").lid("0x0").netdev(netdev).gids(gids).qos(qos).build();
    }

    private static IbDevice device(String name, IbPort port) {
        return new IbDevice(name, 1, "CA", "0c42:a103:00bb:0001", null, "28.39.1002", "MT4129", null, List.of(port));
    }

    private static HostSample host(Map<String, String> conf, IbDevice... devices) {
        return new HostSample("gpu-7", 1_700_000_000_000L, List.of(devices), List.of(), conf);
    }

    @Test
    void aLosslessHostOnPriority4GetsExactSettingsWithReasons() {
        QosConfig qos = QosSamples.lossless(4).build(); // default map: DSCP 32..39 -> 4
        NcclAdvice advice = NcclAdvice.of(host(null, device("mlx5_4", roce(4, "ens3f0np0", 5, "10.0.0.4", qos)),
                device("mlx5_5", roce(4, "ens3f1np1", 5, "10.0.1.4", qos)),
                device("mlx5_6", roce(1, "ens4f0np0", 5, "10.0.2.4", qos))), null, 5);
        assertEquals(List.of(
                "export NCCL_IB_HCA==mlx5_4:1,mlx5_5:1  # 2 active RDMA ports (exact match, so no other device is picked)",
                "export NCCL_IB_GID_INDEX=5  # RoCE v2 IPv4 GID on mlx5_4:1, mlx5_5:1; the fleet agrees",
                "export NCCL_IB_TC=128  # DSCP 32 x 4; the DSCP map sends it to PFC priority 4",
                "export NCCL_SOCKET_IFNAME==ens3f0np0,ens3f1np1  # the netdevs of the RoCE ports (they hold the IPv4 of "
                        + "their GIDs); unset, NCCL tries ib* and then any interface but docker, lo, virbr",
                "# mlx5_6:1 left out of NCCL_IB_HCA and NCCL_SOCKET_IFNAME: the port is DOWN, physical state LinkUp "
                        + "(NCCL uses ACTIVE ports only); bring the link up (cable, switch port, ip link set ens4f0np0 up), "
                        + "and run nccl-env again, or leave the port out"),
                advice.exportLines());
        assertEquals(List.of(), advice.mismatches());
    }

    /**
     * Issue 23 item 12: a 4-port ConnectX-4 Lx host (from its show_gids, ibdev2netdev and ip a) with one port down and
     * one up whose netdev has no IPv4 address. Neither can carry RoCE v2 over IPv4, so NCCL cannot use them: each is
     * left out of NCCL_IB_HCA and NCCL_SOCKET_IFNAME with why and the fix, and the address-less one no longer withholds
     * the shared GID index 3.
     */
    @Test
    void anActivePortWithoutAnIpv4AddressIsLeftOutAndTheOthersGetTheirGidIndex() {
        NcclAdvice advice = NcclAdvice.of(host(null, device("mlx5_0", roce(4, "enp1s0f0np0", 3, "10.10.0.7", null)),
                device("mlx5_1", roce(4, "enp1s0f1np1", 3, "10.10.1.7", null)),
                device("mlx5_2", roce(1, "enp2s0f0np0", 3, "10.10.2.7", null)),
                device("mlx5_3", roce(4, "enp2s0f1np1", 3, null, null))), null, null);
        assertEquals(List.of(
                "export NCCL_IB_HCA==mlx5_0:1,mlx5_1:1  # 2 active RDMA ports (exact match, so no other device is picked)",
                "export NCCL_IB_GID_INDEX=3  # RoCE v2 IPv4 GID on mlx5_0:1, mlx5_1:1",
                "# NCCL_IB_TC unset: no QoS configuration read on the RoCE ports",
                "export NCCL_SOCKET_IFNAME==enp1s0f0np0,enp1s0f1np1  # the netdevs of the RoCE ports (they hold the IPv4 "
                        + "of their GIDs); unset, NCCL tries ib* and then any interface but docker, lo, virbr",
                "# mlx5_2:1 left out of NCCL_IB_HCA and NCCL_SOCKET_IFNAME: the port is DOWN, physical state LinkUp "
                        + "(NCCL uses ACTIVE ports only); bring the link up (cable, switch port, ip link set enp2s0f0np0 "
                        + "up), and run nccl-env again, or leave the port out",
                "# mlx5_3:1 left out of NCCL_IB_HCA and NCCL_SOCKET_IFNAME: no RoCE v2 IPv4 GID, as enp2s0f1np1 has no "
                        + "IPv4 address; assign an IPv4 address to enp2s0f1np1, or leave the port out"),
                advice.exportLines());
    }

    @Test
    void aHostWhoseOnlyActivePortLacksIpv4AdvisesNoSettingButSaysWhy() {
        NcclAdvice advice = NcclAdvice.of(host(Map.of("NCCL_IB_HCA", "mlx5_3"),
                device("mlx5_3", roce(4, "enp2s0f1np1", 3, null, null))), null, null);
        assertNull(advice.setting(NcclAdvice.HCA).value());
        assertNull(advice.setting(NcclAdvice.GID_INDEX).value());
        assertNull(advice.setting(NcclAdvice.SOCKET_IFNAME).value());
        assertEquals(List.of("mlx5_3:1 left out of NCCL_IB_HCA and NCCL_SOCKET_IFNAME: no RoCE v2 IPv4 GID, as "
                + "enp2s0f1np1 has no IPv4 address; assign an IPv4 address to enp2s0f1np1, or leave the port out"),
                advice.leftOut());
        assertEquals(List.of("NCCL_IB_HCA=mlx5_3 in /etc/nccl.conf names mlx5_3, which has no active RDMA port that "
                + "NCCL can use on this host"), advice.mismatches());
        IbPort roceV1Only = port(4, "enp2s0f1np1", List.of(new GidEntry(0, "fe80:0000:0000:0000:0e42:a1ff:fe00:0001",
                "IB/RoCE v1", "enp2s0f1np1", "10.10.3.7")), null);
        assertEquals(List.of("mlx5_3:1 left out of NCCL_IB_HCA and NCCL_SOCKET_IFNAME: no RoCE v2 GID (RoCE v1 only); "
                + "enable RoCE v2 on it, or leave the port out"),
                NcclAdvice.of(host(null, device("mlx5_3", roceV1Only)), null, null).leftOut());
    }

    @Test
    void theDscpInUseIsKeptWhenItIsLosslessAndAFleetDisagreementIsNamed() {
        QosConfig qos = QosSamples.lossless(6).dscp(10, 6).build();
        NcclAdvice advice = NcclAdvice.of(host(Map.of("NCCL_IB_TC", "0x28"),
                device("mlx5_1", roce(4, "ens1np0", 7, "10.0.0.9", qos))), null, 3);
        assertEquals("40", advice.setting(NcclAdvice.TC).value());
        assertTrue(advice.setting(NcclAdvice.GID_INDEX).reason().endsWith("the fleet mostly uses 3, so a fleet-wide "
                + "value would be wrong here"), advice.setting(NcclAdvice.GID_INDEX).reason());
        assertEquals(List.of(), advice.mismatches());
    }

    @Test
    void ncclConfValuesThatContradictTheHostAreReported() {
        QosConfig qos = QosSamples.lossless(2).build();
        // mlx5_2 is named too: with mlx5_9 alone NCCL would use no port here, and the GID index and ToS none
        NcclAdvice advice = NcclAdvice.of(host(Map.of("NCCL_IB_HCA", "mlx5_9,mlx5_2", "NCCL_IB_GID_INDEX", "1",
                        "NCCL_IB_TC", "106"), device("mlx5_2", roce(4, "ens2np0", 3, "10.0.0.2", qos))), null, null);
        assertEquals(List.of(
                "NCCL_IB_HCA=mlx5_9,mlx5_2 in /etc/nccl.conf names mlx5_9, which has no active RDMA port that NCCL can "
                        + "use on this host",
                "NCCL_IB_GID_INDEX=1 in /etc/nccl.conf is not a RoCE v2 IPv4 GID on mlx5_2:1",
                "NCCL_IB_TC=106 in /etc/nccl.conf is DSCP 26, which mlx5_2:1 maps to priority 3 without PFC"),
                advice.mismatches());
        assertEquals("64", advice.setting(NcclAdvice.TC).value(), "DSCP 16 is the lowest that lands on priority 2");
    }

    @Test
    void noTcIsAdvisedUnderTrustPcpOrWithoutPfc() {
        assertTrue(NcclAdvice.of(host(null, device("mlx5_0", roce(4, "ens5np0", 3, "10.0.0.5",
                QosSamples.lossless(3).trustPcp().build()))), null, null).setting(NcclAdvice.TC).reason()
                .contains("trust dscp first"));
        assertTrue(NcclAdvice.of(host(null, device("mlx5_0", roce(4, "ens5np0", 3, "10.0.0.5",
                QosSamples.afterReboot().trustDscpDefaultMap().build()))), null, null).setting(NcclAdvice.TC).reason()
                .contains("PFC on no priority"));
        NcclAdvice none = NcclAdvice.of(host(null, device("mlx5_0", roce(4, "ens5np0", 3, "10.0.0.5", null))), null, null);
        assertNull(none.setting(NcclAdvice.TC).value());
        assertEquals("# NCCL_IB_TC unset: no QoS configuration read on the RoCE ports", none.setting(NcclAdvice.TC).exportLine());
    }

    @Test
    void portsThatDisagreeOnTheGidIndexLeaveItToNccl() {
        NcclAdvice advice = NcclAdvice.of(host(null, device("mlx5_0", roce(4, "a0", 3, "10.0.0.1", null)),
                device("mlx5_1", roce(4, "a1", 4, "10.0.0.2", null))), null, null);
        assertNull(advice.setting(NcclAdvice.GID_INDEX).value());
        assertTrue(advice.setting(NcclAdvice.GID_INDEX).reason().contains("mlx5_0:1 -> 3, mlx5_1:1 -> 4"));
        assertEquals("=mlx5_1:1", NcclAdvice.of(host(null, device("mlx5_0", roce(4, "a0", 3, "10.0.0.1", null)),
                device("mlx5_1", roce(4, "a1", 4, "10.0.0.2", null))), "mlx5_1", null).setting(NcclAdvice.HCA).value());
    }

    /**
     * The /etc/nccl.conf check against the ports NCCL would use under that file, whatever the advice leaves out. The
     * host: mlx5_0:1 and mlx5_10:1 with the RoCE v2 IPv4 GID at 3, mlx5_1:1 active without one (its netdev has no
     * IPv4 address; left out of the advice) and mlx5_2:1 down. NCCL_IB_HCA as NCCL reads it: names are prefixes
     * (mlx5_1 also selects mlx5_10), '=' makes them exact, a leading '^' excludes, ':1' is a port, nothing is trimmed.
     * Columns: NCCL_IB_HCA ('-' = unset), the expected mismatches ('|' between them, empty = none), and whether the
     * per-port check of mlx5_1:1 (rule nccl_conf_mismatch) fires.
     */
    @ParameterizedTest(name = "NCCL_IB_HCA={0}")
    @CsvSource(delimiter = ';', value = {
            "-;           GID@mlx5_1:1;  true",
            "mlx5_1;      GID@mlx5_1:1;  true",
            "mlx5_1:1;    GID@mlx5_1:1;  true",
            "=mlx5_1;     HCA names mlx5_1|GID@mlx5_1:1;  true",
            "=mlx5_0,mlx5_10;  ;  false",
            "mlx5_0;      ;  false",
            "^mlx5_1;     ;  false",
            "^=mlx5_1;    ;  false",
            "^=mlx5_0;    GID@mlx5_1:1;  true",
            "^mlx5;       HCA excludes every active RDMA port that NCCL can use on this host;  false",
            "=mlx5_1:2;   HCA names mlx5_1:2;  false",
            "=mlx5_2;     HCA names mlx5_2;  false",
            "'mlx5_0, mlx5_1';  HCA names \" mlx5_1\" (NCCL does not trim);  false",
    })
    void ncclConfIsCheckedAgainstEveryPortNcclWouldUseUnderIt(String hca, String expected, boolean leftOutPortChecked) {
        IbDevice leftOutDevice = device("mlx5_1", roce(4, "ens1f1np1", 3, null, null));
        Map<String, String> conf = new java.util.LinkedHashMap<>(Map.of("NCCL_IB_GID_INDEX", "3"));
        if (!hca.equals("-")) {
            conf.put("NCCL_IB_HCA", hca);
        }
        NcclAdvice advice = NcclAdvice.of(host(conf, device("mlx5_0", roce(4, "ens1f0np0", 3, "10.0.0.1", null)),
                leftOutDevice, device("mlx5_10", roce(4, "ens2f0np0", 3, "10.0.1.1", null)),
                device("mlx5_2", roce(1, "ens3f0np0", 3, "10.0.2.1", null))), null, null);
        List<String> mismatches = expected == null ? List.of() : Stream.of(expected.split("\\|"))
                .map(m -> m.startsWith("GID@") ? "NCCL_IB_GID_INDEX=3 in /etc/nccl.conf is not a RoCE v2 IPv4 GID on "
                        + m.substring(4)
                        : m.startsWith("HCA names ") ? "NCCL_IB_HCA=" + hca + " in /etc/nccl.conf names "
                        + m.substring(10) + ", which has no active RDMA port that NCCL can use on this host"
                        : "NCCL_IB_HCA=" + hca + " in /etc/nccl.conf " + m.substring(4)).toList();
        assertEquals(mismatches, advice.mismatches());
        // the advice itself does not depend on the file's NCCL_IB_HCA
        assertEquals("=mlx5_0:1,mlx5_10:1", advice.setting(NcclAdvice.HCA).value());
        assertEquals("3", advice.setting(NcclAdvice.GID_INDEX).value());
        assertEquals(2, advice.leftOut().size());
        List<String> portMismatches = NcclAdvice.portMismatches(leftOutDevice, leftOutDevice.ports().get(0), conf);
        assertEquals(leftOutPortChecked ? List.of("NCCL_IB_GID_INDEX=3 in /etc/nccl.conf is not a RoCE v2 IPv4 GID on "
                + "mlx5_1:1") : List.of(), portMismatches);
    }

    /** The same check for NCCL_IB_TC: a ToS the left-out port maps to a priority without PFC, unless NCCL is kept off it. */
    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {"-; true", "=mlx5_0; false", "^=mlx5_1; false", "mlx5_; true"})
    void theTrafficClassIsCheckedOnALeftOutPortNcclStillUses(String hca, boolean reported) {
        QosConfig qos = QosSamples.lossless(4).build();
        IbDevice leftOutDevice = device("mlx5_1", roce(4, "ens1f1np1", 3, null, qos));
        Map<String, String> conf = new java.util.LinkedHashMap<>(Map.of("NCCL_IB_TC", "128"));
        if (!hca.equals("-")) {
            conf.put("NCCL_IB_HCA", hca);
        }
        NcclAdvice advice = NcclAdvice.of(host(conf, device("mlx5_0", roce(4, "ens1f0np0", 3, "10.0.0.1",
                QosSamples.lossless(4).build())), leftOutDevice), null, null);
        assertEquals(List.of(), advice.mismatches(), "DSCP 32 is lossless on both ports");
        conf.put("NCCL_IB_TC", "106");
        String onLeftOut = "NCCL_IB_TC=106 in /etc/nccl.conf is DSCP 26, which mlx5_1:1 maps to priority 3 without PFC";
        assertEquals(reported, NcclAdvice.of(host(conf, device("mlx5_0", roce(4, "ens1f0np0", 3, "10.0.0.1",
                QosSamples.lossless(4).build())), leftOutDevice), null, null).mismatches().contains(onLeftOut));
        assertEquals(reported ? List.of(onLeftOut) : List.of(),
                NcclAdvice.portMismatches(leftOutDevice, leftOutDevice.ports().get(0), conf));
    }

    @ParameterizedTest
    @CsvSource({"106, 106", "0x6a, 106", "0152, 106", "-1, -1", "' 7 ', 7", "abc, ", "0, 0"})
    void numbersAreReadAsNcclReadsThem(String text, Integer expected) {
        assertEquals(expected, NcclAdvice.parse(text));
    }

    @Test
    void aGpuNodeGetsItsNicsByGpuLocalityAndNoAdviceToRaiseTheGdrLevel() {
        QosConfig qos = QosSamples.lossless(3).build();
        IbDevice near = device("mlx5_0", roce(4, "ens1np0", 3, "10.0.0.1", qos));
        IbDevice far = device("mlx5_1", roce(4, "ens2np0", 3, "10.0.1.1", qos));
        GpuTopology topology = new GpuTopology(List.of(), List.of(), List.of(
                new GpuTopology.Pair("GPU0", "mlx5_0", "PIX", "ready", true, List.of(), List.of()),
                new GpuTopology.Pair("GPU0", "mlx5_1", "SYS", "not_ready", false, List.of(), List.of("path SYS")),
                new GpuTopology.Pair("GPU1", "mlx5_1", "SYS", "not_ready", true, List.of(), List.of("path SYS")),
                new GpuTopology.Pair("GPU2", "mlx5_0", "PXB", "degraded", true, List.of("0000:3a:00.0"),
                        List.of("ACS P2P Request Redirect on bridge 0000:3a:00.0"))), true, List.of());
        HostSample sample = new HostSample("gpu-7", 1_700_000_000_000L, List.of(near, far), List.of(), null, topology);

        NcclAdvice advice = NcclAdvice.of(sample, null, null);

        assertEquals(List.of(
                "GPU0 pairs with mlx5_0 (path PIX): GPUDirect RDMA ready",
                "GPU1 pairs with mlx5_1 (path SYS): NCCL will not use GPUDirect RDMA (NCCL_NET_GDR_LEVEL defaults to PXB) "
                        + "and stages through host memory; raising NCCL_NET_GDR_LEVEL to SYS would push peer-to-peer DMA "
                        + "through the socket interconnect, which is slow or unsupported: give the GPU's rank a NIC under "
                        + "its own PCIe switch instead",
                "GPU2 pairs with mlx5_0 (path PXB): GPUDirect RDMA mlx5_0 degraded (ACS P2P Request Redirect on bridge "
                        + "0000:3a:00.0)"), advice.locality());
        assertTrue(advice.exportLines().contains("# " + advice.locality().get(1)), advice.exportLines().toString());
        assertEquals(List.of("GPU0 pairs with mlx5_0 (path PIX): GPUDirect RDMA ready",
                "GPU2 pairs with mlx5_0 (path PXB): GPUDirect RDMA mlx5_0 degraded (ACS P2P Request Redirect on bridge "
                        + "0000:3a:00.0)"), NcclAdvice.of(sample, "mlx5_0", null).locality(), "-d mlx5_0: its GPUs only");
        assertEquals(List.of(), NcclAdvice.of(host(null, near), null, null).locality(), "no GPU, no locality");
    }
}
