package io.rdmamon.nativeio.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import io.rdmamon.nativeio.Errno;

/**
 * The real kernel of the build machine, which has no RDMA support (docs/architecture.md "Testing with real parts"):
 * every request ends in the one named
 * reason, never a crash or a hang. On a kernel that does have RDMA netlink the test is skipped, saying so; the lab
 * tests prove the replies there against {@code rdma statistic} and {@code rdma resource}.
 */
class NetlinkRdmaKernelTest {
    private static final String NO_SOCKET = "socket(AF_NETLINK, SOCK_RAW, 20) failed: EPROTONOSUPPORT (Protocol not "
            + "supported)";

    @Test
    void aKernelWithoutRdmaNetlinkIsNamedOnEveryRequest() throws IOException {
        assumeFalse(kernelHasRdmaNetlink(), "this kernel has RDMA netlink (a protocol 20 kernel socket in "
                + "/proc/net/netlink): the no-RDMA outcome cannot be observed here");
        RdmaNetlink rdma = new NetlinkRdma();
        assertNamed("RDMA_NLDEV_CMD_GET dump", assertThrows(RdmaNetlinkException.class, rdma::devices));
        assertNamed("RDMA_NLDEV_CMD_STAT_GET of device 0 port 1",
                assertThrows(RdmaNetlinkException.class, () -> rdma.portHwCounters(0, 1)));
        assertNamed("RDMA_NLDEV_CMD_RES_GET dump", assertThrows(RdmaNetlinkException.class, rdma::resourceSummaries));
        assertNamed("RDMA_NLDEV_CMD_RES_QP_GET dump of device 0",
                assertThrows(RdmaNetlinkException.class, () -> rdma.queuePairs(0)));
    }

    private static void assertNamed(String request, RdmaNetlinkException e) {
        assertEquals(Errno.EPROTONOSUPPORT, e.errno());
        assertTrue(e.kernelWithoutRdmaNetlink());
        assertEquals("kernel without RDMA netlink (NETLINK_RDMA): " + request + ": " + NO_SOCKET, e.getMessage());
    }

    /** The kernel opens its own socket of each netlink protocol it serves; /proc/net/netlink lists it (column Eth). */
    private static boolean kernelHasRdmaNetlink() throws IOException {
        return Files.readAllLines(Path.of("/proc/net/netlink")).stream().skip(1)
                .map(line -> line.trim().split("\\s+"))
                .anyMatch(columns -> columns.length > 1 && columns[1].equals("20"));
    }
}
