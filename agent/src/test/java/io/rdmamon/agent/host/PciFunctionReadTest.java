package io.rdmamon.agent.host;

import io.rdmamon.agent.testing.SteppedClock;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.PciFunction;
import io.rdmamon.protocol.model.SourceStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PCI function of each device, from host roots laid out as the kernel lays them out: {@code <dev>/device} a
 * relative symlink into {@code sys/devices/pci.../<address>}.
 */
class PciFunctionReadTest {

    @Test
    void aPhysicalFunctionTrainedAtX8Gen4OfX16Gen5WithItsAerTotals(@TempDir Path dir) throws IOException {
        Path root = Fixtures.copy("mlx5-roce", dir);
        Path function = Fixtures.placeDevice(root, "mlx5_1", "pci0000:a0/0000:a0:01.0/0000:a1:00.1");
        write(function, "current_link_speed", "16.0 GT/s PCIe");
        write(function, "max_link_speed", "32.0 GT/s PCIe");
        write(function, "current_link_width", "8");
        write(function, "max_link_width", "16");
        write(function, "aer_dev_correctable", "RxErr 5\nBadTLP 2\nTOTAL_ERR_COR 7\n");
        write(function, "aer_dev_nonfatal", "CmpltTO 1\nTOTAL_ERR_NONFATAL 1\n");
        write(function, "aer_dev_fatal", "TOTAL_ERR_FATAL 0\n");

        HostSample sample = HostReader.forRoot(root).read("n1");

        PciFunction pci = device(sample, "mlx5_1").pci();
        Map<String, Long> aer = new LinkedHashMap<>();
        aer.put("correctable", 7L);
        aer.put("nonfatal", 1L);
        aer.put("fatal", 0L);
        assertEquals(new PciFunction("0000:a1:00.1", null, "0000:a1:00.1", "16.0 GT/s PCIe", "32.0 GT/s PCIe",
                16_000_000_000L, 32_000_000_000L, 8, 16, aer, List.of()), pci);
        assertTrue(pci.degraded());
        assertNull(device(sample, "mlx5_0").pci(), "a captured device dir is no PCI function");
        assertEquals("ens1f1np1", device(sample, "mlx5_1").ports().get(0).netdev(), "device/net still resolves");
        assertTrue(sample.sources().contains(SourceStatus.ok("sysfs", "mlx5_1")), sample.sources().toString());
    }

    @Test
    void aVirtualFunctionReadsItsPhysicalFunctionsLinkInOldKernelFormat(@TempDir Path dir) throws IOException {
        Path root = Fixtures.copy("mlx5-roce", dir);
        Path vf = Fixtures.placeDevice(root, "mlx5_0", "pci0000:00/0000:00:03.0/0000:05:00.3");
        Path pf = Files.createDirectories(root.resolve("sys/devices/pci0000:00/0000:00:03.0/0000:05:00.0"));
        Files.createSymbolicLink(vf.resolve("physfn"), Path.of("../0000:05:00.0"));
        write(vf, "current_link_speed", "Unknown speed");
        write(vf, "current_link_width", "0");
        write(pf, "current_link_speed", "8 GT/s");
        write(pf, "max_link_speed", "8 GT/s");
        write(pf, "current_link_width", "16");
        write(pf, "max_link_width", "16");

        PciFunction pci = device(HostReader.forRoot(root).read("n1"), "mlx5_0").pci();

        assertEquals("0000:05:00.3", pci.address());
        assertEquals("0000:05:00.0", pci.physfn());
        assertEquals("0000:05:00.0", pci.linkFrom());
        assertEquals(8_000_000_000L, pci.currentLinkSpeedTransfersPerSecond());
        assertEquals(16, pci.currentLinkWidth());
        assertFalse(pci.degraded());
        assertEquals(Map.of(), pci.aerErrors());
        assertEquals(List.of("no AER counters (aer_dev_* absent: no AER capability, or a kernel without CONFIG_PCIEAER)"),
                pci.notes());
    }

    @Test
    void aConventionalPciFunctionAboveAVirtioDeviceHasNoLinkAndSaysWhy(@TempDir Path dir) throws IOException {
        Path root = Fixtures.copy("erdma", dir);
        Fixtures.placeDevice(root, "erdma_0", "pci0000:00/0000:00:06.0/virtio4");

        HostSample sample = HostReader.forRoot(root).read("n1");
        PciFunction pci = device(sample, "erdma_0").pci();

        assertEquals("0000:00:06.0", pci.address());
        assertNull(pci.currentLinkWidth());
        assertNull(pci.maxLinkSpeedTransfersPerSecond());
        assertEquals(2, pci.notes().size());
        assertTrue(pci.notes().get(0).startsWith("no PCIe link attributes"), pci.notes().toString());
        assertTrue(sample.sources().stream().filter(s -> s.subject().equals("erdma_0")).allMatch(SourceStatus::success));
    }

    @Test
    void anUnparseableFileIsAProblemNamingItAndCostsOnlyItself(@TempDir Path dir) throws IOException {
        Path root = Fixtures.copy("mlx5-roce", dir);
        Path function = Fixtures.placeDevice(root, "mlx5_0", "pci0000:3a/0000:3a:00.0/0000:3b:00.0");
        write(function, "current_link_width", "x16");
        write(function, "max_link_width", "16");
        write(function, "aer_dev_fatal", "TOTAL_ERR_FATAL many\n");

        HostSample sample = HostReader.forRoot(root).read("n1");
        PciFunction pci = device(sample, "mlx5_0").pci();

        assertNull(pci.currentLinkWidth());
        assertEquals(16, pci.maxLinkWidth());
        assertEquals(Map.of(), pci.aerErrors());
        String error = sample.sources().stream().filter(s -> s.subject().equals("mlx5_0")).findFirst().orElseThrow().error();
        assertTrue(error.contains("sys/devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0/current_link_width: expected a number of lanes, got \"x16\""), error);
        assertTrue(error.contains("0000:3b:00.0/aer_dev_fatal: expected a count at the end of \"TOTAL_ERR_FATAL many\""), error);
    }

    /**
     * A capture made by following links ({@code cp -rL}, {@code tar -h}) has {@code <dev>/device} as a copy of the
     * function's directory: the address comes from its {@code uevent}, the link and AER files from the copy, and the
     * function reads as it does through the link.
     */
    @Test
    void aCaptureMadeByFollowingLinksFindsTheFunctionByItsUevent(@TempDir Path dir) throws IOException {
        Path linked = Fixtures.copy("mlx5-roce", dir.resolve("linked"));
        Path function = Fixtures.placeDevice(linked, "mlx5_1", "pci0000:a0/0000:a0:01.0/0000:a1:00.1");
        write(function, "uevent", uevent("0000:a1:00.1"));
        write(function, "current_link_speed", "16.0 GT/s PCIe");
        write(function, "max_link_speed", "32.0 GT/s PCIe");
        write(function, "current_link_width", "8");
        write(function, "max_link_width", "16");
        write(function, "aer_dev_correctable", "RxErr 5\nTOTAL_ERR_COR 5\n");
        Path followed = Fixtures.copyFollowingLinks(linked, dir.resolve("followed"));

        PciFunction throughLink = device(HostReader.forRoot(linked).read("n1"), "mlx5_1").pci();
        HostSample sample = HostReader.forRoot(followed).read("n1");

        assertFalse(Files.isSymbolicLink(followed.resolve("sys/class/infiniband/mlx5_1/device")));
        assertEquals(new PciFunction("0000:a1:00.1", null, "0000:a1:00.1", "16.0 GT/s PCIe", "32.0 GT/s PCIe",
                16_000_000_000L, 32_000_000_000L, 8, 16, Map.of("correctable", 5L), List.of()), throughLink);
        assertEquals(throughLink, device(sample, "mlx5_1").pci());
        assertTrue(sample.sources().contains(SourceStatus.ok("sysfs", "mlx5_1")), sample.sources().toString());
    }

    @Test
    void aVirtualFunctionCopiedByFollowingLinksReadsItsCopiedPhysicalFunction(@TempDir Path dir) throws IOException {
        Path linked = Fixtures.copy("mlx5-roce", dir.resolve("linked"));
        Path vf = Fixtures.placeDevice(linked, "mlx5_1", "pci0000:00/0000:00:03.0/0000:05:00.3");
        Path pf = Files.createDirectories(linked.resolve("sys/devices/pci0000:00/0000:00:03.0/0000:05:00.0"));
        Files.createSymbolicLink(vf.resolve("physfn"), Path.of("../0000:05:00.0"));
        write(vf, "uevent", uevent("0000:05:00.3"));
        write(pf, "uevent", uevent("0000:05:00.0"));
        write(pf, "current_link_speed", "8.0 GT/s PCIe");
        write(pf, "current_link_width", "16");
        Path followed = Fixtures.copyFollowingLinks(linked, dir.resolve("followed"));

        PciFunction throughLinks = device(HostReader.forRoot(linked).read("n1"), "mlx5_1").pci();
        PciFunction pci = device(HostReader.forRoot(followed).read("n1"), "mlx5_1").pci();

        assertTrue(Files.isDirectory(followed.resolve("sys/class/infiniband/mlx5_1/device/physfn"), LinkOption.NOFOLLOW_LINKS));
        assertEquals("0000:05:00.3", pci.address());
        assertEquals("0000:05:00.0", pci.physfn());
        assertEquals("0000:05:00.0", pci.linkFrom());
        assertEquals(16, pci.currentLinkWidth());
        assertEquals(throughLinks, pci);
    }

    /**
     * The agent's configuration: the link (speed, width) on the slow cadence, re-read at once when a port changes
     * state; the AER counters on every sample.
     */
    @Test
    void theAgentReadsAerEverySampleAndTheLinkOnTheSlowCadenceOrAtAStateChange(@TempDir Path dir) throws IOException {
        Path root = Fixtures.copy("mlx5-roce", dir);
        Path function = Fixtures.placeDevice(root, "mlx5_1", "pci0000:c0/0000:c0:02.0/0000:c3:00.0");
        write(function, "current_link_speed", "16.0 GT/s PCIe");
        write(function, "max_link_speed", "16.0 GT/s PCIe");
        write(function, "current_link_width", "16");
        write(function, "max_link_width", "16");
        write(function, "aer_dev_correctable", "TOTAL_ERR_COR 2\n");
        SteppedClock clock = new SteppedClock(Instant.parse("2026-11-23T08:00:00Z"));
        HostReader reader = HostReader.builder(root).clock(clock).gidRefresh(Duration.ofSeconds(60)).build();
        assertEquals(16, device(reader.read("n1"), "mlx5_1").pci().currentLinkWidth());

        // the link retrains at x4 and a correctable error is counted: the counter shows at once, the width waits
        write(function, "current_link_width", "4");
        write(function, "aer_dev_correctable", "RxErr 1\nTOTAL_ERR_COR 3\n");
        clock.stepSeconds(59);
        PciFunction within = device(reader.read("n1"), "mlx5_1").pci();
        assertEquals(Map.of("correctable", 3L), within.aerErrors());
        assertEquals(16, within.currentLinkWidth(), "the link is not re-read within the interval");

        // a port changing state re-reads the link at once
        Files.writeString(root.resolve("sys/class/infiniband/mlx5_1/ports/1/state"), "1: DOWN\n");
        clock.stepSeconds(1);
        PciFunction afterStateChange = device(reader.read("n1"), "mlx5_1").pci();
        assertEquals(4, afterStateChange.currentLinkWidth());
        assertTrue(afterStateChange.degraded());
        assertEquals(List.of(), afterStateChange.notes());
    }

    /** Moves the captured {@code <dev>/device} directory to {@code sys/devices/<path>} and links it as the kernel does. */
    /** A ConnectX-5 function's {@code uevent}, as the kernel writes it. */
    private static String uevent(String address) {
        return "DRIVER=mlx5_core\nPCI_CLASS=20000\nPCI_ID=15B3:1017\nPCI_SUBSYS_ID=15B3:0020\nPCI_SLOT_NAME=" + address
                + "\nMODALIAS=pci:v000015B3d00001017sv000015B3sd00000020bc02sc00i00\n";
    }

    private static void write(Path dir, String file, String text) throws IOException {
        Files.writeString(dir.resolve(file), text + (text.endsWith("\n") ? "" : "\n"));
    }

    private static IbDevice device(HostSample sample, String name) {
        return sample.devices().stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
    }
}
