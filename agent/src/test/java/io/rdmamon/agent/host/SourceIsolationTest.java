package io.rdmamon.agent.host;

import io.rdmamon.agent.ethtool.CapturedEthtoolStatsSource;
import io.rdmamon.agent.ethtool.EthtoolStatsSource;
import io.rdmamon.agent.ethtool.RawStatistics;
import io.rdmamon.agent.topology.TopologyFixtures;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.testing.Fifos;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.SampleEncoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One failing source costs only itself ({@link SourceRun}): a source that throws (a bug's NullPointerException, a
 * StackOverflowError on deep input), a malformed capture or a FIFO leaves the other sources' data in the sample and a
 * failed status naming the culprit; and what the topology says of a sick host still fits the collector's limits.
 */
class SourceIsolationTest {
    /** Far above a fixture sample's cost: reached only when a read blocks. */
    private static final Duration BOUND = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void aSourceThatThrowsIsAFailedStatusNamingItsCallAndTheRestIsRead() throws Exception {
        Path root = Fixtures.copy("mlx5-roce", dir);
        CapturedEthtoolStatsSource captured = new CapturedEthtoolStatsSource(root);
        EthtoolStatsSource buggy = new EthtoolStatsSource() {
            @Override
            public RawStatistics sample(String ifname) throws IOException {
                if (ifname.equals("ens1f0np0")) {
                    throw new NullPointerException("a parser bug");
                }
                throw new StackOverflowError();
            }

            @Override
            public java.util.LinkedHashMap<String, Long> statistics(String ifname) throws IOException {
                return captured.statistics(ifname);
            }
        };

        HostSample sample = HostReader.builder(root).ethtool(buggy).build().read("n");

        assertTrue(sample.sources().contains(SourceStatus.failed("ethtool", "ens1f0np0",
                "ethtool -S ens1f0np0: java.lang.NullPointerException: a parser bug")), sample.sources().toString());
        assertTrue(sample.sources().contains(SourceStatus.failed("ethtool", "ens1f1np1",
                "ethtool -S ens1f1np1: java.lang.StackOverflowError")), sample.sources().toString());
        assertEquals(2, sample.devices().size());
        assertTrue(sample.sources().contains(SourceStatus.ok("sysfs", "mlx5_0")), sample.sources().toString());
        IbPort port = sample.devices().get(0).ports().get(0);
        assertNull(port.ethtool());
        assertTrue(port.counters().containsKey("port_rcv_data"), "the port's own counters are read");
        assertNotNull(sample.ncclConf(), "the host's sources are still read");
    }

    @Test
    void aMalformedLldpCaptureCostsThatPortsNeighbourOnly() throws Exception {
        Path root = Fixtures.copy("mlx5-roce", dir);
        Files.createDirectories(root.resolve("lldp"));
        Files.writeString(root.resolve("lldp/ens1f0np0.json"), "{\"lldp\":" + "[".repeat(5_000));

        HostSample sample = HostReader.forRoot(root).read("n");

        SourceStatus lldp = sample.sources().stream().filter(s -> s.source().equals("lldp")).findFirst().orElseThrow();
        assertEquals("ens1f0np0", lldp.subject());
        assertTrue(lldp.error().startsWith("lldp/ens1f0np0.json: not JSON: Document nesting depth"), lldp.error());
        assertEquals(2, sample.devices().size());
        assertNotNull(sample.devices().get(0).ports().get(0).ethtool(), "the port's other sources are read");
        assertTrue(sample.sources().contains(SourceStatus.ok("ethtool", "ens1f0np0")), sample.sources().toString());
    }

    @Test
    void aLongNumaNodeIsCutToTheWiresLimitsAndTheCollectorAcceptsTheFrame() throws Exception {
        TopologyFixtures.consumer(dir);
        Path gpu = dir.resolve("sys/bus/pci/devices/0000:01:00.0").toRealPath();
        Files.writeString(gpu.resolve("numa_node"), "9".repeat(2_000) + "x");
        Files.writeString(gpu.resolve("local_cpulist"), "0-7,".repeat(500));

        HostSample sample = HostReader.forRoot(dir).read("n");

        assertNotNull(sample.topology());
        String problem = sample.topology().notes().stream().filter(n -> n.contains("numa_node")).findFirst()
                .orElseThrow();
        assertTrue(problem.contains("expected a NUMA node number or -1, got \"999"), problem);
        assertTrue(problem.endsWith("…(2001 chars)"), "the file's content quoted shortened: " + problem);
        assertTrue(sample.topology().notes().stream().allMatch(n -> n.length() <= 1023));
        FrameCodec codec = new FrameCodec();
        for (Frame frame : new SampleEncoder("n", "1.0", 1000).encode(sample, 1)) {
            codec.decode(codec.encode(frame)); // throws a FrameException where the collector would close the stream
        }
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void aFifoAtAGpusConfigOrNumaNodeIsANoteNamingItNotAHang() throws Exception {
        TopologyFixtures.consumer(dir);
        Path gpu = dir.resolve("sys/bus/pci/devices/0000:01:00.0").toRealPath();
        Fifos.make(gpu.resolve("config"));
        Fifos.make(gpu.resolve("numa_node"));
        HostReader reader = HostReader.forRoot(dir);

        HostSample sample = Fifos.callWithin(BOUND, () -> reader.read("n"));

        String gpuDir = dir.toRealPath().relativize(gpu).toString();
        List<String> notes = sample.topology().notes();
        assertTrue(notes.contains("problem: " + gpuDir + "/numa_node: not a regular file (FIFO)"), notes.toString());
        assertTrue(notes.contains("problem: " + gpuDir + "/config: not a regular file (FIFO)"), notes.toString());
        assertEquals(1, sample.topology().nics().size(), "the rest of the topology is read");
    }
}
