package io.rdmamon.agent.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.rdmamon.agent.rdma.RdmaNetlinkReader;
import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.rdma.QueuePairEntry;
import io.rdmamon.nativeio.rdma.RdmaDeviceIndex;
import io.rdmamon.nativeio.rdma.RdmaNetlink;
import io.rdmamon.nativeio.rdma.RdmaNetlinkException;
import io.rdmamon.nativeio.rdma.ResourceSummary;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.QueuePair;
import io.rdmamon.protocol.model.RdmaResources;
import io.rdmamon.protocol.model.SourceStatus;

/**
 * The mlx5-roce fixture read with a scripted RDMA netlink in place of the kernel's: where the counters come from,
 * that both ways give the same set, the resources, and what each failure costs.
 */
class HostReaderRdmaNetlinkTest {

    /** A kernel with mlx5_0 (index 0) and mlx5_1 (index 1); each method answers or fails as the test sets. */
    private static final class ScriptedRdma implements RdmaNetlink {
        RdmaNetlinkException devicesFailure;
        RdmaNetlinkException statFailure;
        RdmaNetlinkException qpsFailure;
        Map<String, Long> hwCounters = new LinkedHashMap<>();
        List<QueuePairEntry> qps = List.of();
        final List<String> requests = new ArrayList<>();

        @Override
        public List<RdmaDeviceIndex> devices() throws RdmaNetlinkException {
            requests.add("GET");
            if (devicesFailure != null) {
                throw devicesFailure;
            }
            return List.of(new RdmaDeviceIndex(0, "mlx5_0"), new RdmaDeviceIndex(1, "mlx5_1"));
        }

        @Override
        public Map<String, Long> portHwCounters(long deviceIndex, int port) throws RdmaNetlinkException {
            requests.add("STAT_GET " + deviceIndex + "/" + port);
            if (statFailure != null) {
                throw statFailure;
            }
            return hwCounters;
        }

        @Override
        public List<ResourceSummary> resourceSummaries() {
            requests.add("RES_GET");
            return List.of(new ResourceSummary(0, "mlx5_0", Map.of("pd", 3L)),
                    new ResourceSummary(1, "mlx5_1", Map.of("pd", 1L)));
        }

        @Override
        public List<QueuePairEntry> queuePairs(long deviceIndex) throws RdmaNetlinkException {
            requests.add("RES_QP_GET " + deviceIndex);
            if (qpsFailure != null) {
                throw qpsFailure;
            }
            return deviceIndex == 0 ? qps : List.of();
        }
    }

    private static HostSample read(ScriptedRdma rdma) throws Exception {
        return Fixtures.builder("mlx5-roce").rdmaNetlink(rdma).build().read("n");
    }

    private static IbPort port(HostSample sample, int device) {
        return sample.devices().get(device).ports().get(0);
    }

    /** What the files say, read without netlink: the reference both ways must agree on. */
    private static Map<String, Long> sysfsHwCounters() throws Exception {
        return Fixtures.reader("mlx5-roce").read("n").devices().get(0).ports().get(0).hwCounters();
    }

    private static SourceStatus rdmaStatus(HostSample sample, String device) {
        return sample.sources().stream().filter(s -> s.source().equals(RdmaNetlinkReader.SOURCE)
                && s.subject().equals(device)).findFirst().orElse(null);
    }

    @Test
    void onePortsCountersComeFromStatGetWithExactlyTheFilesNamesAndOrder() throws Exception {
        Map<String, Long> files = sysfsHwCounters();
        ScriptedRdma rdma = new ScriptedRdma();
        rdma.hwCounters.put("rx_write_requests_optional", 1L); // an enabled optional counter: no file
        files.keySet().stream().sorted((a, b) -> b.compareTo(a)) // kernel order differs from the files'
                .forEach(name -> rdma.hwCounters.put(name, 1000L + name.length()));
        HostSample sample = read(rdma);

        IbPort port = port(sample, 0);
        assertEquals(IbPort.HW_COUNTERS_NETLINK, port.hwCountersSource());
        assertEquals(List.copyOf(files.keySet()), List.copyOf(port.hwCounters().keySet()));
        assertFalse(port.hwCounters().containsKey("lifespan"));
        files.keySet().forEach(name -> assertEquals(1000L + name.length(), port.hwCounters().get(name), name));
        assertEquals(SourceStatus.ok(RdmaNetlinkReader.SOURCE, "mlx5_0"), rdmaStatus(sample, "mlx5_0"));
        assertTrue(rdma.requests.containsAll(List.of("GET", "RES_GET", "STAT_GET 0/1", "STAT_GET 1/1",
                "RES_QP_GET 0", "RES_QP_GET 1")), rdma.requests.toString());
    }

    @Test
    void aStatGetLackingACounterOfTheFilesLeavesThePortToTheFiles() throws Exception {
        ScriptedRdma rdma = new ScriptedRdma();
        rdma.hwCounters.put("out_of_sequence", 5L);
        IbPort port = port(read(rdma), 0);
        assertEquals(IbPort.HW_COUNTERS_SYSFS, port.hwCountersSource());
        assertEquals(sysfsHwCounters(), port.hwCounters());
    }

    @Test
    void theResourcesAndQpsOfEachDeviceAreInTheSampleTheListBounded() throws Exception {
        ScriptedRdma rdma = new ScriptedRdma();
        List<QueuePairEntry> qps = new ArrayList<>(List.of(
                new QueuePairEntry(0, "mlx5_0", 1, 1, null, 1, 3, null, "ib_core"),
                new QueuePairEntry(0, "mlx5_0", null, 17, 18L, 2, 2, 4321L, null)));
        IntStream.range(0, RdmaResources.MAX_QPS).forEach(i -> qps.add(
                new QueuePairEntry(0, "mlx5_0", 1, 100 + i, null, 4, 3, 77L, null)));
        rdma.qps = qps;
        HostSample sample = read(rdma);
        RdmaResources resources = sample.devices().get(0).resources();
        assertEquals(Map.of("pd", 3L), resources.summary());
        assertEquals(RdmaResources.MAX_QPS, resources.qps().size());
        assertEquals(2, resources.qpsDropped());
        assertEquals(new QueuePair(1, null, 1, "GSI", "RTS", null, "ib_core"), resources.qps().get(0));
        assertEquals(new QueuePair(17, 18L, null, "RC", "RTR", 4321L, null), resources.qps().get(1));
        // every QP on a port is attributed, those beyond the list's bound too; the fixture root has no proc/
        assertEquals(List.of(new PortWorkload(1, null, null, null, null, PortWorkload.NONE, "process exited",
                        RdmaResources.MAX_QPS), new PortWorkload(1, null, null, null, "[ib_core]", PortWorkload.NONE,
                        "kernel QP", 1)), resources.workloads());
        assertEquals(new RdmaResources(Map.of("pd", 1L), List.of(), 0), sample.devices().get(1).resources());
    }

    @Test
    void aKernelWithoutRdmaNetlinkIsAnAbsentCapabilityNotAFailingSource() throws Exception {
        ScriptedRdma rdma = new ScriptedRdma();
        rdma.devicesFailure = new RdmaNetlinkException(Errno.EPROTONOSUPPORT, "kernel without RDMA netlink "
                + "(NETLINK_RDMA): RDMA_NLDEV_CMD_GET dump: socket(AF_NETLINK, SOCK_RAW, 20) failed: EPROTONOSUPPORT "
                + "(Protocol not supported)");
        HostSample sample = read(rdma);
        assertTrue(sample.sources().stream().noneMatch(s -> s.source().equals(RdmaNetlinkReader.SOURCE)),
                sample.sources().toString());
        assertTrue(sample.sources().stream().allMatch(SourceStatus::success), sample.sources().toString());
        IbDevice device = sample.devices().get(0);
        assertNull(device.resources());
        assertEquals(IbPort.HW_COUNTERS_SYSFS, device.ports().get(0).hwCountersSource());
        assertEquals(sysfsHwCounters(), device.ports().get(0).hwCounters());
        assertEquals(List.of("GET"), rdma.requests);
    }

    /** A kernel with RDMA netlink but without a command (the core's EINVAL, a driver's EOPNOTSUPP) lacks it. */
    @ParameterizedTest(name = "errno {0}")
    @CsvSource({"22", "95"})
    void aKernelLackingTheDumpsIsUnsupportedOnEachDeviceAndTheFilesAreRead(int errno) throws Exception {
        ScriptedRdma rdma = new ScriptedRdma();
        rdma.devicesFailure = new RdmaNetlinkException(errno, "RDMA_NLDEV_CMD_GET dump failed: " + Errno.name(errno));
        HostSample sample = read(rdma);
        assertEquals(SourceStatus.unsupported(RdmaNetlinkReader.SOURCE, "mlx5_1", "RDMA_NLDEV_CMD_GET dump failed: "
                + Errno.name(errno) + ": this kernel lacks the command"), rdmaStatus(sample, "mlx5_1"));
        assertNull(sample.devices().get(0).resources());
        assertEquals(sysfsHwCounters(), port(sample, 0).hwCounters());
    }

    @ParameterizedTest(name = "errno {0}: unsupported {1}")
    @CsvSource({"22, true", "95, true", "11, false", "19, false"})
    void aQpDumpTheKernelLacksIsUnsupportedAnyOtherErrorFails(int errno, boolean unsupported) throws Exception {
        ScriptedRdma rdma = new ScriptedRdma();
        rdma.qpsFailure = new RdmaNetlinkException(errno, "RDMA_NLDEV_CMD_RES_QP_GET dump failed: "
                + Errno.name(errno));
        HostSample sample = read(rdma);
        String reason = "mlx5_0: " + rdma.qpsFailure.getMessage();
        assertEquals(unsupported ? SourceStatus.unsupported(RdmaNetlinkReader.SOURCE, "mlx5_0", reason)
                : SourceStatus.failed(RdmaNetlinkReader.SOURCE, "mlx5_0", reason), rdmaStatus(sample, "mlx5_0"));
        assertNull(sample.devices().get(0).resources());
    }

    @Test
    void aFailedDumpFailsEachDevicesStatusAndTheFilesAreRead() throws Exception {
        ScriptedRdma rdma = new ScriptedRdma();
        rdma.devicesFailure = new RdmaNetlinkException(Errno.EAGAIN, "RDMA_NLDEV_CMD_GET dump: no reply within "
                + "2000 ms (EAGAIN (Resource temporarily unavailable))");
        HostSample sample = read(rdma);
        assertEquals(SourceStatus.failed(RdmaNetlinkReader.SOURCE, "mlx5_1", rdma.devicesFailure.getMessage()),
                rdmaStatus(sample, "mlx5_1"));
        assertNull(sample.devices().get(0).resources());
        assertEquals(sysfsHwCounters(), port(sample, 0).hwCounters());
    }

    @Test
    void aStatGetErrorIsNamedInTheDevicesStatusButEinvalIsADeviceWithoutNetlinkCounters() throws Exception {
        ScriptedRdma timeout = new ScriptedRdma();
        timeout.statFailure = new RdmaNetlinkException(Errno.EAGAIN, "RDMA_NLDEV_CMD_STAT_GET of device 0 port 1: "
                + "no reply within 2000 ms (EAGAIN (Resource temporarily unavailable))");
        HostSample sample = read(timeout);
        assertEquals(SourceStatus.failed(RdmaNetlinkReader.SOURCE, "mlx5_0", "mlx5_0/1: "
                + timeout.statFailure.getMessage()), rdmaStatus(sample, "mlx5_0"));
        assertEquals(IbPort.HW_COUNTERS_SYSFS, port(sample, 0).hwCountersSource());

        ScriptedRdma einval = new ScriptedRdma();
        einval.statFailure = new RdmaNetlinkException(Errno.EINVAL, "RDMA_NLDEV_CMD_STAT_GET of device 0 port 1 "
                + "failed: EINVAL (Invalid argument)");
        HostSample old = read(einval);
        assertEquals(SourceStatus.ok(RdmaNetlinkReader.SOURCE, "mlx5_0"), rdmaStatus(old, "mlx5_0"));
        assertEquals(sysfsHwCounters(), port(old, 0).hwCounters());
    }
}
