package io.rdmamon.agent.host;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.agent.ethtool.CapturedEthtoolStatsSource;
import io.rdmamon.agent.ethtool.EthtoolStatsSource;
import io.rdmamon.agent.sysfs.SmallFileReader;
import io.rdmamon.agent.sysfs.SysfsFiles;
import io.rdmamon.agent.verbs.VerbsPortReader;
import io.rdmamon.protocol.testing.Waits;
import io.rdmamon.nativeio.verbs.DeviceAttributes;
import io.rdmamon.nativeio.verbs.GidEntryAttributes;
import io.rdmamon.nativeio.verbs.PortAttributes;
import io.rdmamon.nativeio.verbs.Verbs;
import io.rdmamon.nativeio.verbs.VerbsAvailability;
import io.rdmamon.nativeio.verbs.VerbsException;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.model.VerbsPortAttributes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Broken copies of the fixtures: one odd device or file never blanks the node. */
class HostReaderRobustnessTest {
    /**
     * Real kernel files that fail the way sysfs fails (the tests run as root, so chmod cannot deny):
     * a kernfs attribute without a show method refuses open with EACCES even for root, and a
     * netdev's {@code speed} answers EINVAL when the link has no speed (loopback).
     */
    private static final Path KERNEL_EACCES = Path.of("/sys/bus/platform/uevent");
    private static final Path KERNEL_EINVAL = Path.of("/sys/class/net/lo/speed");

    @TempDir
    Path root;

    private static final String MLX5_0 = "sys/class/infiniband/mlx5_0";
    private static final String PORT = MLX5_0 + "/ports/1";

    /**
     * The mlx5-roce fixture without its QoS captures and nccl.conf: these tests count the sysfs and ethtool statuses;
     * the QoS part has its own (below, QosReaderTest, HostReaderFixturesTest).
     */
    private void copyMlx5RoceWithoutQos() throws IOException {
        Fixtures.copy("mlx5-roce", root);
        deleteTree(root.resolve("dcb"));
        deleteTree(root.resolve("etc"));
    }

    @Test
    void aMalformedQosCaptureCostsOnlyThatNetdevsConfiguration() throws IOException {
        Fixtures.copy("mlx5-roce", root);
        Files.writeString(root.resolve("dcb/ens1f1np1/ets.json"), "{\"willing\":false,\"ets_cap\":8}");

        HostSample sample = HostReader.forRoot(root).read("n");

        assertNull(sample.devices().get(1).ports().get(0).qos());
        assertEquals(SourceStatus.failed("qos", "ens1f1np1", "dcb/ens1f1np1/ets.json: tc_tsa: missing"),
                sample.sources().stream().filter(s -> s.subject().equals("ens1f1np1") && s.source().equals("qos"))
                        .findFirst().orElseThrow());
        assertEquals(List.of(3), sample.devices().get(0).ports().get(0).qos().pfcPriorities(), "the other netdev");
        assertNotNull(sample.devices().get(1).ports().get(0).ethtool(), "nothing else lost");
        assertEquals(1, sample.sources().stream().filter(s -> !s.success()).count(), sample.sources().toString());
    }

    @Test
    void deviceVanishingMidReadIsReportedAndTheOtherDeviceIsComplete() throws IOException {
        copyMlx5RoceWithoutQos();
        Path mlx5_0 = root.resolve(MLX5_0);
        HostReader reader = HostReader.builder(root).files(file -> {
            if (file.equals(mlx5_0.resolve("fw_ver"))) {
                deleteTree(mlx5_0); // hot-unplug between the listing and the reads
            }
            return SysfsFiles.readOnce(file);
        }).build();

        HostSample sample = reader.read("n");

        assertEquals(List.of("mlx5_1"), sample.devices().stream().map(IbDevice::name).toList());
        assertEquals(SourceStatus.failed("sysfs", "mlx5_0", MLX5_0 + ": device vanished during read"),
                sample.sources().get(0));
        IbPort survivor = sample.devices().get(0).ports().get(0);
        assertEquals(4, survivor.gids().size());
        assertNotNull(survivor.ethtool());
    }

    @Test
    void aDanglingClassLinkIsAVanishedDevice() throws IOException {
        copyMlx5RoceWithoutQos();
        deleteTree(root.resolve(MLX5_0));
        Files.createSymbolicLink(root.resolve(MLX5_0), Path.of("../../devices/pci0000:00/gone/infiniband/mlx5_0"));

        HostSample sample = HostReader.forRoot(root).read("n");

        assertEquals(List.of("mlx5_1"), sample.devices().stream().map(IbDevice::name).toList());
        assertEquals(SourceStatus.failed("sysfs", "mlx5_0", MLX5_0 + ": device vanished during read"),
                sample.sources().get(0));
    }

    @Test
    void permissionDeniedCounterIsAbsentAndNamed() throws IOException {
        assumeTrue(failsWith(KERNEL_EACCES, AccessDeniedException.class), "needs " + KERNEL_EACCES + " to refuse reads");
        copyMlx5RoceWithoutQos();
        replaceWithLink(root.resolve(PORT + "/counters/symbol_error"), KERNEL_EACCES);

        HostSample sample = HostReader.forRoot(root).read("n");

        IbPort port = sample.devices().get(0).ports().get(0);
        assertFalse(port.counters().containsKey("symbol_error"));
        assertEquals(2831545107L * 4, port.counters().get("port_rcv_data"));
        assertEquals(SourceStatus.failed("sysfs", "mlx5_0", PORT + "/counters/symbol_error: permission denied"),
                sample.sources().get(0));
    }

    @Test
    void einvalOnGidAttributesAndCountersMeansNoValueNotFailure() throws IOException {
        assumeTrue(SysfsFiles.classify(readFailure(KERNEL_EINVAL)) == SysfsFiles.Failure.NO_VALUE,
                "needs " + KERNEL_EINVAL + " to answer EINVAL");
        Fixtures.copy("mlx5-ib", root);
        String ibPort = "sys/class/infiniband/mlx5_0/ports/1";
        Files.createDirectories(root.resolve(ibPort + "/gid_attrs/ndevs"));
        Files.createSymbolicLink(root.resolve(ibPort + "/gid_attrs/ndevs/0"), KERNEL_EINVAL);
        replaceWithLink(root.resolve(ibPort + "/counters/port_xmit_wait"), KERNEL_EINVAL);

        HostSample sample = HostReader.forRoot(root).read("n");

        IbPort port = sample.devices().get(0).ports().get(0);
        assertNull(port.gids().get(0).netdev());
        assertEquals("IB/RoCE v1", port.gids().get(0).type());
        assertFalse(port.counters().containsKey("port_xmit_wait"));
        assertEquals(List.of(SourceStatus.ok("sysfs", "mlx5_0")), sample.sources());
    }

    @Test
    void garbageInRequiredAndCounterFilesLeavesFieldsAbsentWithOneStatusNamingEachFile() throws IOException {
        copyMlx5RoceWithoutQos();
        Files.writeString(root.resolve(PORT + "/state"), "banana\n");
        Files.writeString(root.resolve(PORT + "/rate"), "fast\n");
        Files.writeString(root.resolve(PORT + "/counters/port_xmit_packets"), "12abc\n");
        Files.writeString(root.resolve(PORT + "/gids/2"), "fe80::1\n");
        Files.delete(root.resolve(MLX5_0 + "/fw_ver"));

        HostSample sample = HostReader.forRoot(root).read("n");

        IbDevice device = sample.devices().get(0);
        IbPort port = device.ports().get(0);
        assertEquals(-1, port.stateId());
        assertNull(port.state());
        assertEquals("fast", port.rate(), "the text is kept as printed; only the parsed rate is absent");
        assertNull(port.rateBytesPerSecond());
        assertEquals(5, port.physStateId());
        assertFalse(port.counters().containsKey("port_xmit_packets"));
        assertEquals(3, port.gids().size());
        assertNull(device.fwVersion());
        assertEquals("ens1f0np0", port.netdev());
        assertNotNull(port.ethtool());
        assertEquals(SourceStatus.failed("sysfs", "mlx5_0", String.join("; ",
                MLX5_0 + "/fw_ver: no such file",
                PORT + "/state: expected \"<id>: <name>\", got \"banana\"",
                PORT + "/rate: expected \"<n> Gb/sec (<width>X <speed>)\", got \"fast\"",
                PORT + "/counters/port_xmit_packets: expected an unsigned decimal counter, got \"12abc\"",
                PORT + "/gids/2: expected a GID of 8 groups of 4 hex digits, got \"fe80::1\"")),
                sample.sources().get(0));
        assertEquals(SourceStatus.ok("sysfs", "mlx5_1"), sample.sources().get(2));
    }

    /**
     * Each odd file costs itself only, named in the device's status; before, the rate threw
     * ArithmeticException out of {@link HostReader#read} and the whole host was lost ({@code rdmamon devinfo} exit 1).
     */
    @Test
    void oddFilesEachCostOneNamedProblemAndTheRestOfTheHostIsRead() throws IOException {
        copyMlx5RoceWithoutQos();
        Files.writeString(root.resolve(PORT + "/rate"), "0.0000000001 Gb/sec\n");
        Files.writeString(root.resolve(PORT + "/counters/port_xmit_packets"), "18446744073709551616\n");
        Files.writeString(root.resolve(PORT + "/counters/symbol_error"), "-3\n");
        Files.writeString(root.resolve(PORT + "/hw_counters/out_of_buffer"), "\n");
        Files.write(root.resolve(MLX5_0 + "/board_id"), new byte[] {'M', 'T', 0, 0, 0, '\n'});
        Files.write(root.resolve(MLX5_0 + "/fw_ver"), new byte[] {'1', '6', '.', (byte) 0xff, (byte) 0xfe, '\n'});
        Files.writeString(root.resolve(PORT + "/lid"), "0x\u001b0\n");

        HostSample sample = HostReader.forRoot(root).read("n");

        IbDevice device = sample.devices().get(0);
        IbPort port = device.ports().get(0);
        assertEquals(List.of("0.0000000001 Gb/sec", "null", "null", "null", "MT4125"),
                List.of(port.rate(), String.valueOf(port.rateBytesPerSecond()), String.valueOf(device.boardId()),
                        String.valueOf(device.fwVersion()), device.hcaType()));
        assertFalse(port.counters().containsKey("port_xmit_packets"));
        assertFalse(port.hwCounters().containsKey("out_of_buffer"));
        assertEquals(2831545107L * 4, port.counters().get("port_rcv_data"));
        assertEquals(4, port.gids().size());
        assertEquals(List.of(
                        SourceStatus.failed("sysfs", "mlx5_0", String.join("; ",
                                MLX5_0 + "/fw_ver: expected printable UTF-8 text, got \"16.\\ufffd\\ufffd\"",
                                MLX5_0 + "/board_id: expected printable UTF-8 text, got \"MT\\0\\0\\0\"",
                                PORT + "/rate: rate is not a whole number of bytes per second within 64 bits: "
                                        + "\"0.0000000001 Gb/sec\"",
                                PORT + "/lid: expected printable UTF-8 text, got \"0x\\x1b0\"",
                                PORT + "/counters/port_xmit_packets: expected an unsigned decimal counter, got "
                                        + "\"18446744073709551616\"",
                                PORT + "/counters/symbol_error: expected an unsigned decimal counter, got \"-3\"",
                                PORT + "/hw_counters/out_of_buffer: expected an unsigned decimal counter, got \"\"")),
                        SourceStatus.ok("ethtool", "ens1f0np0"),
                        SourceStatus.ok("sysfs", "mlx5_1"),
                        SourceStatus.ok("ethtool", "ens1f1np1")),
                sample.sources());
    }

    @Test
    void anEthtoolCaptureThatIsNotUtf8IsNamed() throws IOException {
        copyMlx5RoceWithoutQos();
        Files.write(root.resolve("ethtool/ens1f0np0/statistics"), new byte[] {'N', 'I', 'C', (byte) 0xc3, '\n'});

        HostSample sample = HostReader.forRoot(root).read("n");

        assertEquals(SourceStatus.failed("ethtool", "ens1f0np0",
                "ethtool/ens1f0np0/statistics: not UTF-8 text, not an ethtool -S capture"), sample.sources().get(1));
        assertNotNull(sample.devices().get(1).ports().get(0).ethtool());
    }

    /**
     * A PMA read stuck on sick firmware, played by a FIFO: opening it blocks in open(2) until a writer
     * comes. Before, {@link HostReader#read} never returned and the agent stopped sampling for good.
     */
    @Test
    void aReadThatNeverReturnsIsNamedSkippedWithoutNewThreadsAndReadAgainOnceItReturns() throws Exception {
        copyMlx5RoceWithoutQos();
        Path fifo = root.resolve(PORT + "/counters/port_xmit_wait");
        Files.delete(fifo);
        Process mkfifo;
        try {
            mkfifo = new ProcessBuilder(List.of("mkfifo", fifo.toString())).start();
        } catch (IOException e) {
            assumeTrue(false, "needs mkfifo: " + e.getMessage());
            return;
        }
        assertEquals(0, mkfifo.waitFor());
        HostReader reader = HostReader.builder(root).files(SmallFileReader.SYSFS).readDeadline(Duration.ofMillis(200))
                .build();
        String stuck = Pattern.quote(PORT + "/counters/port_xmit_wait: read stuck for ")
                + "\\d+\\.\\d s \\(deadline 0\\.2 s\\), skipped until it returns";

        // a hang guard, not a timing assertion: without a deadline this read never returns
        HostSample first = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> reader.read("n"));

        assertFalse(first.sources().get(0).success());
        assertTrue(first.sources().get(0).error().matches(stuck), first.sources().get(0).error());
        IbPort port = first.devices().get(0).ports().get(0);
        assertFalse(port.counters().containsKey("port_xmit_wait"));
        assertEquals(2831545107L * 4, port.counters().get("port_rcv_data"), "the rest of the port is read");
        assertNotNull(port.ethtool());
        assertEquals(List.of(SourceStatus.ok("ethtool", "ens1f0np0"), SourceStatus.ok("sysfs", "mlx5_1"),
                SourceStatus.ok("ethtool", "ens1f1np1")), first.sources().subList(1, 4));
        int threads = reader.readerThreadsStarted();
        assertEquals(2, threads, "the thread left in the stuck read, and the one that read the sample again");

        HostSample second = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> reader.read("n"));

        assertTrue(second.sources().get(0).error().matches(stuck), second.sources().get(0).error());
        assertEquals(threads, reader.readerThreadsStarted(), "a stuck file is skipped, not read on a new thread");
        assertEquals(1, reader.stuckReads());

        Files.writeString(fifo, "7\n"); // the writer comes: the stuck open and read return
        Waits.waitFor(() -> reader.stuckReads() == 0, "the stuck read to return");
        Thread writer = new Thread(() -> {
            try {
                Files.writeString(fifo, "42\n"); // blocks in open(2) until the next sample opens the FIFO
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        writer.setDaemon(true);
        writer.start();

        HostSample third = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> reader.read("n"));

        assertEquals(SourceStatus.ok("sysfs", "mlx5_0"), third.sources().get(0));
        assertEquals(42L, third.devices().get(0).ports().get(0).counters().get("port_xmit_wait"));
    }

    @Test
    void garbageOrMissingEthtoolCaptureFailsOnlyThatNetdev() throws IOException {
        copyMlx5RoceWithoutQos();
        Files.writeString(root.resolve("ethtool/ens1f0np0/statistics"), "NIC statistics:\n     rx_packets: 1\n     oops\n");
        Files.delete(root.resolve("ethtool/ens1f1np1/statistics"));

        HostSample sample = HostReader.forRoot(root).read("n");

        assertNull(sample.devices().get(0).ports().get(0).ethtool());
        assertNull(sample.devices().get(1).ports().get(0).ethtool());
        assertEquals("ens1f0np0", sample.devices().get(0).ports().get(0).netdev());
        assertEquals(List.of(
                SourceStatus.ok("sysfs", "mlx5_0"),
                SourceStatus.failed("ethtool", "ens1f0np0",
                        "ethtool/ens1f0np0/statistics: line 3: expected \"<name>: <value>\", got \"oops\""),
                SourceStatus.ok("sysfs", "mlx5_1"),
                SourceStatus.failed("ethtool", "ens1f1np1",
                        "ethtool/ens1f1np1/statistics: no such file (no ethtool -S capture for ens1f1np1)")),
                sample.sources());
    }

    @Test
    void aDriverWithoutStatisticsIsUnsupportedNotFailed() throws IOException {
        copyMlx5RoceWithoutQos();
        CapturedEthtoolStatsSource captured = new CapturedEthtoolStatsSource(root);
        EthtoolStatsSource source = ifname -> {
            if (ifname.equals("ens1f0np0")) {
                throw new UnsupportedCapabilityException("ETHTOOL_GSSET_INFO on ens1f0np0: EOPNOTSUPP: the driver has "
                        + "no ethtool statistics");
            }
            return captured.statistics(ifname);
        };

        HostSample sample = HostReader.builder(root).ethtool(source).build().read("n");

        assertNull(sample.devices().get(0).ports().get(0).ethtool());
        assertNotNull(sample.devices().get(1).ports().get(0).ethtool());
        assertEquals(List.of(SourceStatus.unsupported("ethtool", "ens1f0np0", "ETHTOOL_GSSET_INFO on ens1f0np0: "
                        + "EOPNOTSUPP: the driver has no ethtool statistics"), SourceStatus.ok("ethtool", "ens1f1np1")),
                sample.sources().stream().filter(s -> s.source().equals("ethtool")).toList());
    }

    private static final String NO_UVERBS = "verbs unavailable: ibv_get_device_list: Function not implemented (ENOSYS)";

    /** No libibverbs, or a kernel without uverbs (ENOSYS): the host lacks verbs, which is not a failure. */
    @Test
    void verbsUnavailableIsOneUnsupportedStatusPerDeviceAndNoAttributes() throws IOException {
        copyMlx5RoceWithoutQos();
        Verbs unavailable = new StubVerbs(new VerbsAvailability(false, NO_UVERBS));
        HostSample sample = HostReader.builder(root).verbs(new VerbsPortReader(unavailable)).build()
                .read("n");

        assertNull(sample.devices().get(0).ports().get(0).verbs());
        assertEquals(List.of(
                        SourceStatus.unsupported("verbs", "mlx5_0", NO_UVERBS),
                        SourceStatus.unsupported("verbs", "mlx5_1", NO_UVERBS)),
                sample.sources().stream().filter(s -> s.source().equals("verbs")).toList());
    }

    @Test
    void verbsAttributesFillThePortAndAFailedQueryNamesTheCall() throws IOException {
        copyMlx5RoceWithoutQos();
        Verbs verbs = new StubVerbs(new VerbsAvailability(true, null)) {
            @Override
            public PortAttributes queryPort(String device, int port) throws VerbsException {
                if (device.equals("mlx5_1")) {
                    throw new VerbsException("ibv_open_device(mlx5_1): No such device (ENODEV)", 19);
                }
                return new PortAttributes(4, 5, 3, 256, 0x04010000L, 1L << 31, 0, 0, 128, 0, 0, 0, 4, 0, 0, 0,
                        2, 32, 5, 2, 1);
            }
        };
        HostSample sample = HostReader.builder(root).verbs(new VerbsPortReader(verbs)).build()
                .read("n");

        assertEquals(new VerbsPortAttributes(4, 5, 3, 256, 0x04010000L, 0, 0, 2, 32, 5, 2),
                sample.devices().get(0).ports().get(0).verbs());
        assertNull(sample.devices().get(1).ports().get(0).verbs());
        assertEquals(List.of(SourceStatus.ok("verbs", "mlx5_0"),
                        SourceStatus.failed("verbs", "mlx5_1",
                                "ibv_query_port(mlx5_1, 1): ibv_open_device(mlx5_1): No such device (ENODEV)")),
                sample.sources().stream().filter(s -> s.source().equals("verbs")).toList());
    }

    @Test
    void multiPortFunctionMapsNetdevsByDevPortThenDevIdThenOrder() throws IOException {
        Fixtures.copy("mlx4-ib", root);
        Path dev = root.resolve("sys/class/infiniband/mlx4_0");
        for (int port = 1; port <= 2; port++) {
            Files.writeString(dev.resolve("ports/" + port + "/link_layer"), "Ethernet\n");
        }
        Path net = dev.resolve("device/net");
        // names sort opposite to the ports, so only dev_port can give the right answer
        Files.createDirectories(net.resolve("eth_a"));
        Files.createDirectories(net.resolve("eth_b"));
        Files.writeString(net.resolve("eth_a/dev_port"), "1\n");
        Files.writeString(net.resolve("eth_b/dev_port"), "0\n");
        assertEquals(List.of("eth_b", "eth_a"), netdevsOf(HostReader.forRoot(root).read("n")));

        Files.delete(net.resolve("eth_a/dev_port"));
        Files.delete(net.resolve("eth_b/dev_port"));
        Files.writeString(net.resolve("eth_a/dev_id"), "0x1\n");
        Files.writeString(net.resolve("eth_b/dev_id"), "0x0\n");
        assertEquals(List.of("eth_b", "eth_a"), netdevsOf(HostReader.forRoot(root).read("n")));

        Files.delete(net.resolve("eth_a/dev_id"));
        Files.delete(net.resolve("eth_b/dev_id"));
        assertEquals(List.of("eth_a", "eth_b"), netdevsOf(HostReader.forRoot(root).read("n")));
    }

    @Test
    void rootSlashUsesTheKernelSourcesAndAHostWithoutRdmaHasNoDevices() throws IOException {
        assumeTrue(!Files.exists(Path.of("/sys/class/infiniband")), "this host has RDMA devices");
        HostSample sample = HostReader.forRoot(Path.of("/")).read("n");
        assertEquals(List.of(), sample.devices());
        // only the kernel's own word, the log and devlink health, read whether or not RDMA devices are there (a
        // fatal error can take one away); devlink is never failed here: reporters, or no family (unsupported)
        assertTrue(sample.sources().stream().allMatch(s -> s.source().equals("kmsg") || s.source().equals("devlink")
                && s.outcome() != SourceStatus.Outcome.FAILED), sample.sources().toString());
        assertTrue(HostReader.forRoot(Path.of("/")).netdevNames().contains("lo"));
    }

    @Test
    void rootSlashReadsNetdevsThroughTheIoctlNotACapture() throws IOException {
        HostReader reader = HostReader.forRoot(Path.of("/"));
        IOException e = assertThrows(IOException.class, () -> reader.readNetdev("rdmamonnone0"));
        assertTrue(e.getMessage().contains("rdmamonnone0"), e.getMessage());
        assertFalse(e.getMessage().contains("statistics: no such file"), "must not look for a capture: " + e.getMessage());
    }

    @Test
    void unlistableClassDirectoryIsOneFailedStatus() throws IOException {
        Files.createDirectories(root.resolve("sys/class"));
        Files.writeString(root.resolve("sys/class/infiniband"), "not a directory\n");
        HostSample sample = HostReader.forRoot(root).read("n");
        assertEquals(List.of(SourceStatus.failed("sysfs", "sys/class/infiniband", "sys/class/infiniband: not a directory")),
                sample.sources());
        assertThrows(java.io.UncheckedIOException.class, () -> HostReader.forRoot(root).deviceNames());
    }

    private static List<String> netdevsOf(HostSample sample) {
        return sample.devices().get(0).ports().stream().map(IbPort::netdev).toList();
    }

    private static void replaceWithLink(Path file, Path target) throws IOException {
        Files.delete(file);
        Files.createSymbolicLink(file, target);
    }

    private static boolean failsWith(Path file, Class<? extends IOException> type) {
        return type.isInstance(readFailure(file));
    }

    private static IOException readFailure(Path file) {
        try {
            SysfsFiles.readOnce(file);
            return null;
        } catch (IOException e) {
            return e;
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Stand-in for libibverbs: no RDMA device exists on the build machines. */
    private static class StubVerbs implements Verbs {
        private final VerbsAvailability availability;

        StubVerbs(VerbsAvailability availability) {
            this.availability = availability;
        }

        @Override
        public VerbsAvailability availability() {
            return availability;
        }

        @Override
        public List<String> deviceNames() {
            return List.of("mlx5_0", "mlx5_1");
        }

        @Override
        public DeviceAttributes queryDevice(String device) throws VerbsException {
            throw new VerbsException("not used by the readers", 0);
        }

        @Override
        public PortAttributes queryPort(String device, int port) throws VerbsException {
            throw new VerbsException("not reachable when unavailable", 0);
        }

        @Override
        public GidEntryAttributes queryGid(String device, int port, int index) throws VerbsException {
            throw new VerbsException("not used by the readers", 0);
        }
    }
}
