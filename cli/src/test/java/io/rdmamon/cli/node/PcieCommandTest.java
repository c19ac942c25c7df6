package io.rdmamon.cli.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** {@code rdmamon pcie} on a host root with one device under a PCIe function trained x8 of x16 and one without. */
class PcieCommandTest {

    @Test
    void printsTheLinkAgainstItsMaximumTheAerTotalsAndWhatIsAbsent(@TempDir Path root) throws IOException {
        hostRoot(root);

        CliRun run = CliRun.of("pcie", "--host-root", root.toString());

        assertEquals(0, run.exitCode(), run::toString);
        assertEquals("""
                mlx5_3\t0000:81:00.1
                \tlink:\t16.0 GT/s PCIe x8 (max 16.0 GT/s PCIe x16)  DEGRADED
                \taer:\tcorrectable 12, nonfatal 0, fatal 0
                mlx5_7\tno PCI function (sys/class/infiniband/mlx5_7/device is no link to a PCI address and has no PCI_SLOT_NAME in its uevent)
                """, run.out());
    }

    @Test
    void jsonAndOneDeviceAndAnUnknownOne(@TempDir Path root) throws IOException {
        hostRoot(root);

        JsonNode json = new ObjectMapper().readTree(CliRun.of("pcie", "-d", "mlx5_3", "--json", "--host-root",
                root.toString()).out());
        CliRun unknown = CliRun.of("pcie", "-d", "mlx5_9", "--host-root", root.toString());

        assertEquals(1, json.size());
        assertEquals("mlx5_3", json.get(0).get("device").asText());
        assertEquals(8, json.get(0).get("pci").get("currentLinkWidth").asInt());
        assertEquals(16_000_000_000L, json.get(0).get("pci").get("maxLinkSpeedTransfersPerSecond").asLong());
        assertEquals(12, json.get(0).get("pci").get("aerErrors").get("correctable").asLong());
        assertEquals(true, json.get(0).get("degraded").asBoolean());
        assertEquals(2, unknown.exitCode());
        assertArrayEquals(new String[] {"rdmamon: unknown device 'mlx5_9' (devices: mlx5_3, mlx5_7)"}, unknown.errLines());
    }

    private static void hostRoot(Path root) throws IOException {
        Path function = Files.createDirectories(root.resolve("sys/devices/pci0000:80/0000:80:01.0/0000:81:00.1"));
        Files.writeString(function.resolve("current_link_speed"), "16.0 GT/s PCIe\n");
        Files.writeString(function.resolve("max_link_speed"), "16.0 GT/s PCIe\n");
        Files.writeString(function.resolve("current_link_width"), "8\n");
        Files.writeString(function.resolve("max_link_width"), "16\n");
        Files.writeString(function.resolve("aer_dev_correctable"), "RxErr 12\nTOTAL_ERR_COR 12\n");
        Files.writeString(function.resolve("aer_dev_nonfatal"), "TOTAL_ERR_NONFATAL 0\n");
        Files.writeString(function.resolve("aer_dev_fatal"), "TOTAL_ERR_FATAL 0\n");
        for (String name : new String[] {"mlx5_3", "mlx5_7"}) {
            Path device = Files.createDirectories(root.resolve("sys/class/infiniband").resolve(name));
            Files.writeString(device.resolve("fw_ver"), "28.39.1002\n");
            Path port = Files.createDirectories(device.resolve("ports/1"));
            Files.writeString(port.resolve("state"), "4: ACTIVE\n");
            Files.writeString(port.resolve("phys_state"), "5: LinkUp\n");
            Files.writeString(port.resolve("rate"), "400 Gb/sec (4X NDR)\n");
            Files.writeString(port.resolve("link_layer"), "InfiniBand\n");
        }
        Path link = root.resolve("sys/class/infiniband/mlx5_3/device");
        Files.createSymbolicLink(link, link.getParent().relativize(function));
    }
}
