package io.rdmamon.agent.workload;

import io.rdmamon.protocol.model.PortWorkload;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.rdmamon.agent.sysfs.RegularFiles;
import io.rdmamon.agent.sysfs.SysfsFiles;

/**
 * Reads what {@code <root>/proc/<pid>/} says of a process that owns RDMA resources: its {@code comm} and its
 * {@code cgroup} file, unparsed ({@link CgroupPaths} parses), each bounded in bytes. Never throws: a process gone
 * between the QP dump and the read, a file the agent may not read, or one that is not a small regular file, is a
 * {@link Reading} with the reason.
 */
public final class ProcessFiles {

    /** {@code comm} is at most {@code TASK_COMM_LEN} (16) bytes with its newline; a kernel thread's name a little more. */
    static final int MAX_COMM_BYTES = 256;
    /** A line per cgroup hierarchy, each a path: a few KiB on a cgroup v1 host with every controller. */
    static final int MAX_CGROUP_BYTES = 64 * 1024;

    private final Path proc;

    public ProcessFiles(Path hostRoot) {
        this.proc = hostRoot.resolve("proc");
    }

    /**
     * What was read of one process.
     *
     * @param comm    its {@code comm}, trimmed; null when not read
     * @param cgroup  its {@code cgroup} file; null when not read
     * @param problem why they were not read ({@link PortWorkload#PROCESS_EXITED}, or the file and the error); null when they were
     */
    public record Reading(String comm, String cgroup, String problem) {
    }

    public Reading read(long pid) {
        Path dir = proc.resolve(Long.toString(pid));
        String comm;
        try {
            comm = read(dir.resolve("comm"), "comm", MAX_COMM_BYTES).trim();
        } catch (IOException e) {
            return failed("comm", e);
        }
        try {
            return new Reading(comm, read(dir.resolve("cgroup"), "cgroup", MAX_CGROUP_BYTES), null);
        } catch (IOException e) {
            Reading failed = failed("cgroup", e);
            return new Reading(comm, null, failed.problem());
        }
    }

    /**
     * At most {@code max} bytes of {@code file}, refused beyond them, and refused unopened when it is not a regular
     * file: a live {@code /proc} holds a few bytes a file, but a host root's {@code proc/} is whatever is there, and a
     * FIFO blocks {@code open(2)} for good.
     */
    private static String read(Path file, String name, int max) throws IOException {
        RegularFiles.require(file, "proc/<pid>/" + name);
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(max + 1);
            if (bytes.length > max) {
                throw new FileSystemException("proc/<pid>/" + name, null, "more than " + max + " bytes");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    /**
     * The reading of a file that failed: an absent one means the process is gone (its directory went with it). The
     * reason names the file without the pid, so that it stays one label value whichever process it was.
     */
    private static Reading failed(String file, IOException e) {
        if (SysfsFiles.classify(e) == SysfsFiles.Failure.ABSENT) {
            return new Reading(null, null, PortWorkload.PROCESS_EXITED);
        }
        return new Reading(null, null, "cannot read /proc/<pid>/" + file + ": " + SysfsFiles.describe(e));
    }
}
