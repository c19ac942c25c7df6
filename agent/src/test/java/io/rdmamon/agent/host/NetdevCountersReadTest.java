package io.rdmamon.agent.host;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The carrier counters of each port's netdev, read from {@code sys/class/net/<if>/} with the port. */
class NetdevCountersReadTest {

    @Test
    void everyCarrierCounterOfEachNetdevIsReadWithItsPort(@TempDir Path dir) throws IOException {
        Path root = Fixtures.copy("mlx5-roce", dir);
        write(root, "ens1f0np0", "carrier_changes", "41\n");
        write(root, "ens1f0np0", "carrier_up_count", "20\n");
        write(root, "ens1f0np0", "carrier_down_count", "21\n");
        // a kernel before 4.16: carrier_changes only
        write(root, "ens1f1np1", "carrier_changes", "6\n");

        HostSample sample = HostReader.forRoot(root).read("n1");

        assertEquals(orderedMap("carrier_changes", 41L, "carrier_up_count", 20L, "carrier_down_count", 21L),
                port(sample, "mlx5_0").netdevCounters());
        assertEquals(Map.of("carrier_changes", 6L), port(sample, "mlx5_1").netdevCounters());
        assertTrue(sample.sources().stream().filter(s -> s.source().equals("sysfs")).allMatch(SourceStatus::success),
                "absent files are not problems: " + sample.sources());
    }

    @Test
    void anUnparseableCounterIsAProblemNamingItsFileAndCostsOnlyItself(@TempDir Path dir) throws IOException {
        Path root = Fixtures.copy("mlx5-roce", dir);
        write(root, "ens1f1np1", "carrier_changes", "9\n");
        write(root, "ens1f1np1", "carrier_down_count", "-3\n");

        HostSample sample = HostReader.forRoot(root).read("n1");

        assertEquals(Map.of("carrier_changes", 9L), port(sample, "mlx5_1").netdevCounters());
        SourceStatus status = sample.sources().stream().filter(s -> s.subject().equals("mlx5_1")).findFirst().orElseThrow();
        assertFalse(status.success());
        assertTrue(status.error().contains("sys/class/net/ens1f1np1/carrier_down_count"), status.error());
        assertTrue(sample.sources().contains(SourceStatus.ok("sysfs", "mlx5_0")), sample.sources().toString());
    }

    @Test
    void aPortWithoutNetdevHasNoNetdevCounters() throws IOException {
        HostSample sample = Fixtures.reader("mlx5-ib").read("n1");

        assertTrue(sample.devices().stream().flatMap(d -> d.ports().stream())
                .allMatch(p -> p.netdev() == null && p.netdevCounters().isEmpty()));
    }

    private static IbPort port(HostSample sample, String device) {
        return sample.devices().stream().filter(d -> d.name().equals(device)).findFirst().orElseThrow().ports().get(0);
    }

    private static void write(Path root, String netdev, String file, String text) throws IOException {
        Files.writeString(root.resolve("sys/class/net").resolve(netdev).resolve(file), text);
    }

    private static Map<String, Long> orderedMap(Object... namesAndValues) {
        Map<String, Long> map = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            map.put((String) namesAndValues[i], (Long) namesAndValues[i + 1]);
        }
        return map;
    }
}
