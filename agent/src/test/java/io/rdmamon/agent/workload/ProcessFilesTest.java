package io.rdmamon.agent.workload;

import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.testing.Fifos;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A host root's {@code proc/<pid>/} is whatever is there: each file is bounded, a FIFO never opened. */
class ProcessFilesTest {
    private static final String CGROUP = "0::/kubepods.slice/kubepods-pod1234.slice/cri-containerd-abc.scope\n";

    @TempDir
    Path root;

    private Path process(long pid, String comm, String cgroup) throws IOException {
        Path dir = Files.createDirectories(root.resolve("proc").resolve(Long.toString(pid)));
        if (comm != null) {
            Files.writeString(dir.resolve("comm"), comm);
        }
        if (cgroup != null) {
            Files.writeString(dir.resolve("cgroup"), cgroup);
        }
        return dir;
    }

    @Test
    void aProcessIsReadAsTheKernelWritesIt() throws IOException {
        process(42, "python\n", CGROUP);
        assertEquals(new ProcessFiles.Reading("python", CGROUP, null), new ProcessFiles(root).read(42));
        assertEquals(new ProcessFiles.Reading(null, null, PortWorkload.PROCESS_EXITED), new ProcessFiles(root).read(7));
    }

    @Test
    void aCgroupFileBeyondItsBoundIsRefusedAndTheCommKept() throws IOException {
        process(42, "python\n", "0::/x\n".repeat(3 * ProcessFiles.MAX_CGROUP_BYTES));
        ProcessFiles.Reading reading = new ProcessFiles(root).read(42);
        assertEquals("python", reading.comm());
        assertNull(reading.cgroup());
        assertEquals("cannot read /proc/<pid>/cgroup: more than 65536 bytes", reading.problem());
    }

    @Test
    void aHugeCommIsRefused() throws IOException {
        process(42, "p".repeat(10 * 1024 * 1024), CGROUP);
        assertEquals(new ProcessFiles.Reading(null, null, "cannot read /proc/<pid>/comm: more than 256 bytes"),
                new ProcessFiles(root).read(42));
    }

    /** Opening a FIFO for reading blocks until a writer comes: the read must refuse it unopened. */
    @Test
    @Timeout(10)
    void aFifoIsRefusedUnopened() throws IOException, InterruptedException {
        Path dir = process(42, "python\n", null);
        Fifos.make(dir.resolve("cgroup"));
        ProcessFiles.Reading reading = new ProcessFiles(root).read(42);
        assertEquals("python", reading.comm());
        assertEquals("cannot read /proc/<pid>/cgroup: not a regular file (FIFO)", reading.problem());
    }
}
