package io.rdmamon.agent.rdma;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.abort;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import io.rdmamon.agent.workload.PodDirectory;
import io.rdmamon.agent.workload.ProcessFiles;
import io.rdmamon.agent.workload.WorkloadAttributor;

import io.rdmamon.nativeio.rdma.NetlinkRdma;
import io.rdmamon.nativeio.rdma.RdmaNetlinkException;

/**
 * The build machine's kernel, without RDMA support, through the real binding: the reader calls it an absent
 * capability (so the host reader adds no status), not a failure.
 */
class RdmaNetlinkReaderKernelTest {

    @Test
    void aKernelWithoutRdmaNetlinkIsAbsentNotFailed() {
        NetlinkRdma kernel = new NetlinkRdma();
        try {
            kernel.devices();
            abort("this kernel answers RDMA netlink: the absent capability cannot be observed here");
        } catch (RdmaNetlinkException e) {
            assertTrue(e.kernelWithoutRdmaNetlink(), e.getMessage());
        }
        assertTrue(new RdmaNetlinkReader(kernel, new WorkloadAttributor(new ProcessFiles(Path.of("/")), PodDirectory.NONE)).sample().absent());
    }
}
