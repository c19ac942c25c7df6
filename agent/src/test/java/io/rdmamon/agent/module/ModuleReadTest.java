package io.rdmamon.agent.module;

import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.agent.testing.SteppedClock;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.model.TransceiverModule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Transceivers read with the host from {@code <root>/ethtool/<if>/module} captures, on their own cadence. */
class ModuleReadTest {

    @Test
    void eachPortCarriesItsNetdevsModuleAndABadImageIsAFailedModuleStatus(@TempDir Path dir) throws IOException {
        Path root = Fixtures.copy("mlx5-roce", dir);
        Files.write(root.resolve("ethtool/ens1f0np0/module"), Images.qsfp28().bytes());
        Files.write(root.resolve("ethtool/ens1f1np1/module"), new Images(256).u8(0, 0x42).bytes());

        HostSample sample = HostReader.forRoot(root).read("n1");

        TransceiverModule module = port(sample, 0).module();
        assertEquals("QT14241028003", module.serial());
        assertEquals(4, module.lanes().size());
        assertNull(port(sample, 1).module());
        assertTrue(sample.sources().contains(SourceStatus.ok("module", "ens1f0np0")), sample.sources().toString());
        SourceStatus bad = sample.sources().stream().filter(s -> s.source().equals("module")
                && s.subject().equals("ens1f1np1")).findFirst().orElseThrow();
        assertEquals("ethtool -m ens1f1np1: unknown module identifier 0x42 at byte 0 (SFF-8024): not SFP (0x03), "
                + "QSFP/QSFP+/QSFP28 (0x0c, 0x0d, 0x11) or a CMIS module (0x18, 0x19, 0x1b, 0x1e, 0x1f, 0x20)", bad.error());
    }

    @Test
    void noCaptureIsNoModuleAndNoStatus() throws IOException {
        HostSample sample = Fixtures.reader("mlx5-roce").read("n1");

        assertNull(port(sample, 0).module());
        assertTrue(sample.sources().stream().noneMatch(s -> s.source().equals("module")), sample.sources().toString());
    }

    @Test
    void theModuleIsReadAtMostOncePerRefreshAndAFailureIsNotCached(@TempDir Path dir) throws IOException {
        Path root = Fixtures.copy("mlx5-roce", dir);
        Path capture = root.resolve("ethtool/ens1f0np0/module");
        Files.write(capture, Images.qsfp28().bytes());
        SteppedClock clock = new SteppedClock(Instant.ofEpochMilli(1_000_000));
        HostReader reader = HostReader.builder(root).clock(clock).moduleRefresh(Duration.ofSeconds(30)).build();
        double first = port(reader.read("n1"), 0).module().temperatureCelsius();

        Files.write(capture, Images.qsfp28().u16(22, 40 * 256).bytes());
        clock.stepSeconds(29);
        assertEquals(first, port(reader.read("n1"), 0).module().temperatureCelsius(), "reused within 30 s");
        clock.stepSeconds(1);
        assertEquals(40.0, port(reader.read("n1"), 0).module().temperatureCelsius(), "read again after 30 s");

        Files.write(capture, new byte[]{0x11});
        clock.stepSeconds(30);
        assertNull(port(reader.read("n1"), 0).module());
        Files.write(capture, Images.qsfp28().bytes());
        assertEquals(first, port(reader.read("n1"), 0).module().temperatureCelsius(), "a failure is retried at once");
    }

    @Test
    void oneModuleOnDemandNamesAFailure(@TempDir Path dir) throws IOException {
        Path root = Fixtures.copy("mlx5-roce", dir);
        Files.write(root.resolve("ethtool/ens1f0np0/module"), Images.sfp().truncated(40));
        HostReader reader = HostReader.forRoot(root);

        IOException e = assertThrows(IOException.class, () -> reader.readModule("ens1f0np0"));

        assertEquals("ethtool -m ens1f0np0: module EEPROM image of 40 bytes is truncated: SFF-8472 needs at least 256 "
                + "(A0h (the ID page))", e.getMessage());
        assertNull(reader.readModule("ens1f1np1"));
    }

    private static IbPort port(HostSample sample, int device) {
        return sample.devices().get(device).ports().get(0);
    }
}
