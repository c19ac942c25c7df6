package io.rdmamon.agent.host;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.testing.Fifos;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A FIFO where a host root has a file read whole ({@code etc/nccl.conf}, an {@code ethtool -m} capture) blocked the
 * sample for ever: the agent never sent its hello. Now each is a failed source naming the file, and the rest is read.
 * The other whole-file captures ({@code ethtool -S}, {@code dcb -j}) are refused alike rather than left to the read
 * deadline.
 */
@EnabledOnOs(OS.LINUX)
class HostReaderIrregularFileTest {
    /** Far above a fixture sample's cost: reached only when a read blocks. */
    private static final Duration BOUND = Duration.ofSeconds(60);

    @Test
    void aFifoAtNcclConfOrAModuleCaptureIsAFailedSourceNamingItAndTheSampleGoesOn(@TempDir Path dir) throws Exception {
        Path root = Fixtures.copy("mlx5-roce", dir);
        Fifos.make(root.resolve("etc/nccl.conf"));
        Fifos.make(root.resolve("ethtool/ens1f0np0/module"));
        // the other captures read whole: under the read deadline in the agent, but each FIFO held a thread for ever
        Fifos.make(root.resolve("ethtool/ens1f1np1/statistics"));
        Fifos.make(root.resolve("dcb/ens1f1np1/pfc.json"));
        Fifos.make(root.resolve("lldp/ens1f0np0.json"));
        // as the agent configures it: QoS, modules and LLDP on their slow cadence
        HostReader reader = HostReader.builder(root).gidRefresh(Duration.ofSeconds(60))
                .qosRefresh(Duration.ofSeconds(60)).moduleRefresh(Duration.ofSeconds(60))
                .lldpRefresh(Duration.ofSeconds(60)).build();

        for (int sample = 1; sample <= 2; sample++) {
            HostSample read = Fifos.callWithin(BOUND, () -> reader.read("n1"));

            assertTrue(read.sources().contains(SourceStatus.failed("qos", "etc/nccl.conf",
                    "etc/nccl.conf: not a regular file (FIFO)")), read.sources().toString());
            assertTrue(read.sources().contains(SourceStatus.failed("module", "ens1f0np0",
                    "ethtool -m ens1f0np0: ethtool/ens1f0np0/module: not a regular file (FIFO)")), read.sources().toString());
            assertTrue(read.sources().contains(SourceStatus.failed("ethtool", "ens1f1np1",
                    "ethtool/ens1f1np1/statistics: not a regular file (FIFO)")), read.sources().toString());
            assertTrue(read.sources().contains(SourceStatus.failed("qos", "ens1f1np1",
                    "dcb/ens1f1np1/pfc.json: not a regular file (FIFO)")), read.sources().toString());
            assertTrue(read.sources().contains(SourceStatus.failed("lldp", "ens1f0np0",
                    "lldp/ens1f0np0.json: not a regular file (FIFO)")), read.sources().toString());
            assertEquals(1, reader.readerThreadsStarted(), "no read was left blocked");
            assertNull(read.ncclConf());
            assertEquals(2, read.devices().size(), "the devices are still read");
            assertTrue(read.sources().contains(SourceStatus.ok("sysfs", "mlx5_0")), read.sources().toString());
        }
    }

    @Test
    void readModuleRefusesAFifoCaptureNamingIt(@TempDir Path dir) throws Exception {
        Path root = Fixtures.copy("mlx5-roce", dir);
        Fifos.make(root.resolve("ethtool/ens1f1np1/module"));
        HostReader reader = HostReader.forRoot(root);

        String error = Fifos.callWithin(BOUND, () -> {
            try {
                reader.readModule("ens1f1np1");
                return "read";
            } catch (IOException e) {
                return e.getMessage();
            }
        });

        assertEquals("ethtool -m ens1f1np1: ethtool/ens1f1np1/module: not a regular file (FIFO)", error);
    }
}
