package io.rdmamon.agent.workload;

import io.rdmamon.protocol.model.PortWorkload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.rdmamon.agent.sysfs.SysfsFiles;

/**
 * Reads what {@code <root>/proc/<pid>/} says of a process that owns RDMA resources: its {@code comm} and its
 * {@code cgroup} file, unparsed ({@link CgroupPaths} parses). Never throws: a process gone between the QP dump and
 * the read, or a file the agent may not read, is a {@link Reading} with the reason.
 */
public final class ProcessFiles {

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
            comm = Files.readString(dir.resolve("comm"), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return failed("comm", e);
        }
        try {
            return new Reading(comm, Files.readString(dir.resolve("cgroup"), StandardCharsets.UTF_8), null);
        } catch (IOException e) {
            Reading failed = failed("cgroup", e);
            return new Reading(comm, null, failed.problem());
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
