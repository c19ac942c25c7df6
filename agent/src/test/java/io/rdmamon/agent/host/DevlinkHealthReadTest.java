package io.rdmamon.agent.host;

import io.rdmamon.protocol.exposition.NodeRenderer;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.NicHealthReporter;
import io.rdmamon.protocol.model.SourceStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code <root>/devlink/health.json} read as the {@code devlink} source and placed on the fixture's devices. */
class DevlinkHealthReadTest {
    /** mlx5_0 is placed on 0000:3b:00.0, mlx5_1 on 0000:3b:00.1; 0000:af:00.0 is no RDMA device. */
    private static final String CAPTURE = "{\"health\":{"
            + "\"pci/0000:3b:00.0\":[{\"reporter\":\"fw\",\"state\":\"healthy\",\"error\":0,\"recover\":0},"
            + "{\"reporter\":\"fw_fatal\",\"state\":\"error\",\"error\":1,\"recover\":0,\"grace_period\":60000}],"
            + "\"pci/0000:3b:00.0/65535\":[{\"reporter\":\"tx\",\"state\":\"healthy\",\"error\":2,\"recover\":2,"
            + "\"grace_period\":500}],"
            + "\"pci/0000:af:00.0\":[{\"reporter\":\"fw\",\"state\":\"healthy\",\"error\":0,\"recover\":0}]}}\n";

    private static HostSample read(Path dir, String capture) throws IOException {
        Path root = Fixtures.copy("mlx5-roce", dir.resolve("root"));
        Fixtures.placeDevice(root, "mlx5_0", "pci0000:3a/0000:3a:00.0/0000:3b:00.0");
        Fixtures.placeDevice(root, "mlx5_1", "pci0000:3a/0000:3a:00.0/0000:3b:00.1");
        Files.createDirectories(root.resolve("devlink"));
        if (capture != null) {
            Files.writeString(root.resolve("devlink/health.json"), capture);
        }
        return HostReader.forRoot(root).read("n");
    }

    @Test
    void theCaptureIsReadAndPlacedOnDevicesAndPorts(@TempDir Path dir) throws IOException {
        HostSample sample = read(dir, CAPTURE);

        assertTrue(sample.sources().contains(SourceStatus.ok("devlink", "devlink/health.json")),
                sample.sources().toString());
        assertEquals(List.of(
                new NicHealthReporter("mlx5_0", "", "pci/0000:3b:00.0", "fw", "healthy", 0, 0, null),
                new NicHealthReporter("mlx5_0", "", "pci/0000:3b:00.0", "fw_fatal", "error", 1, 0, 60_000L),
                new NicHealthReporter("mlx5_0", "1", "pci/0000:3b:00.0/65535", "tx", "healthy", 2, 2, 500L),
                new NicHealthReporter("", "", "pci/0000:af:00.0", "fw", "healthy", 0, 0, null)), sample.health());

        String exposition = new String(new NodeRenderer().render("n", sample).data(), StandardCharsets.UTF_8);
        assertTrue(exposition.contains("rdma_nic_health_reporter_state{device=\"mlx5_0\",node=\"n\",port=\"\","
                + "reporter=\"fw_fatal\"} 0"), exposition);
        assertTrue(exposition.contains("rdma_nic_health_reporter_errors_total{device=\"mlx5_0\",node=\"n\","
                + "port=\"1\",reporter=\"tx\"} 2"), exposition);
    }

    @Test
    void anAbsentOrEmptyCaptureIsUnsupported(@TempDir Path dir) throws IOException {
        for (String capture : new String[] {null, ""}) {
            HostSample sample = read(dir.resolve(capture == null ? "absent" : "empty"), capture);
            assertNull(sample.health());
            assertTrue(sample.sources().stream().anyMatch(s -> s.source().equals("devlink")
                    && s.outcome() == SourceStatus.Outcome.UNSUPPORTED), sample.sources().toString());
        }
    }

    @Test
    void anUnsupportedHostIsNotAskedAgain(@TempDir Path dir) throws IOException {
        Path root = Fixtures.copy("mlx5-roce", dir.resolve("root"));
        Files.createDirectories(root.resolve("devlink"));
        HostReader reader = HostReader.forRoot(root);
        assertNull(reader.read("n").health());
        Files.writeString(root.resolve("devlink/health.json"), CAPTURE);
        HostSample later = reader.read("n");
        assertNull(later.health());
        assertTrue(later.sources().stream().anyMatch(s -> s.source().equals("devlink")
                && s.outcome() == SourceStatus.Outcome.UNSUPPORTED), later.sources().toString());
    }

    @Test
    void aMalformedCaptureFailsTheSourceNamingTheFile(@TempDir Path dir) throws IOException {
        HostSample sample = read(dir, "{\"health\":{\"pci/0000:3b:00.0\":[");
        assertNull(sample.health());
        SourceStatus status = sample.sources().stream().filter(s -> s.source().equals("devlink")).findFirst()
                .orElseThrow();
        assertEquals(SourceStatus.Outcome.FAILED, status.outcome());
        assertTrue(status.error().startsWith("devlink/health.json: not JSON"), status.error());
        assertEquals(2, sample.devices().size()); // the rest of the sample is read
    }

    @Test
    void aRootWithoutDevlinkDirectoryHasNoDevlinkSource() throws IOException {
        HostSample sample = Fixtures.reader("mlx5-roce").read("n");
        assertNull(sample.health());
        assertTrue(sample.sources().stream().noneMatch(s -> s.source().equals("devlink")));
    }
}
