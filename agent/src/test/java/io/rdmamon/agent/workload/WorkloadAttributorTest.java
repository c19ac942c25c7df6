package io.rdmamon.agent.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmamon.agent.rdma.RdmaNetlinkReaderAccess;
import io.rdmamon.nativeio.rdma.QueuePairEntry;
import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.QueuePair;

/**
 * From a RES_QP_GET dump (QueuePairEntry records as the native binding returns them) and a host root holding
 * {@code proc/<pid>/{comm,cgroup}} to the workloads on each port, with every reason of docs/workloads.md.
 */
class WorkloadAttributorTest {
    private static final String UID = "1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d";
    private static final String CID = "4f1c2a9e0b7d3c5a8e6f1d2b3c4a5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d";
    private static final String POD_CGROUP = "0::/kubepods.slice/kubepods-pod" + UID.replace('-', '_')
            + ".slice/cri-containerd-" + CID + ".scope\n";

    @TempDir
    Path root;

    private void process(long pid, String comm, String cgroup) throws IOException {
        Path dir = Files.createDirectories(root.resolve("proc").resolve(Long.toString(pid)));
        Files.writeString(dir.resolve("comm"), comm + "\n");
        Files.writeString(dir.resolve("cgroup"), cgroup);
    }

    private static QueuePairEntry userQp(Integer port, long lqpn, Long pid) {
        return new QueuePairEntry(0, "mlx5_0", port, lqpn, null, 2, 3, pid, null);
    }

    /** The agent's attributor on the temp host root, knowing no pod names. */
    private WorkloadAttributor attributor() {
        return new WorkloadAttributor(new ProcessFiles(root), PodDirectory.NONE);
    }

    private static List<QueuePair> model(List<QueuePairEntry> dump) {
        return dump.stream().map(RdmaNetlinkReaderAccess::toModel).toList();
    }

    @Test
    void eachPortsQpsAreGroupedByOwnerWithHowEachWasAttributed() throws IOException {
        process(100, "python3", POD_CGROUP);
        process(200, "ib_write_bw", "0::/user.slice/user-1000.slice/session-3.scope\n");
        List<QueuePairEntry> dump = new ArrayList<>();
        dump.add(new QueuePairEntry(0, "mlx5_0", 1, 1, null, 1, 3, null, "ib_core"));
        for (int i = 0; i < 12; i++) {
            dump.add(userQp(1, 100 + i, 100L));
        }
        dump.add(userQp(2, 200, 100L));
        dump.add(userQp(1, 300, 200L));
        dump.add(userQp(1, 301, 999L)); // no proc/999: gone since the dump
        dump.add(userQp(1, 302, null)); // a user QP whose pid the kernel hid
        dump.add(userQp(null, 303, 100L)); // RESET: on no port yet

        List<PortWorkload> workloads = attributor().attribute("mlx5_0", model(dump));

        String unknown = PodDirectory.NONE.unknownReason();
        assertEquals(List.of(
                new PortWorkload(1, null, UID, CID.substring(0, 12), "python3", PortWorkload.PROCESS, unknown, 12),
                new PortWorkload(1, null, null, null, null, PortWorkload.NONE, WorkloadAttributor.NO_HOST_PID, 1),
                new PortWorkload(1, null, null, null, null, PortWorkload.NONE, PortWorkload.PROCESS_EXITED, 1),
                new PortWorkload(1, null, null, null, "[ib_core]", PortWorkload.NONE, PortWorkload.KERNEL_QP, 1),
                new PortWorkload(1, null, null, null, "ib_write_bw", PortWorkload.NONE, CgroupPaths.NOT_KUBERNETES, 1),
                new PortWorkload(2, null, UID, CID.substring(0, 12), "python3", PortWorkload.PROCESS, unknown, 1)),
                workloads);
    }

    @Test
    void aDirectoryThatKnowsThePodNamesItAndItsContainer() throws IOException {
        process(100, "python3", POD_CGROUP);
        PodDirectory pods = new PodDirectory() {
            @Override
            public Optional<PodName> find(String podUid, String containerId) {
                return podUid.equals(UID) && containerId.equals(CID)
                        ? Optional.of(new PodName("ml", "train-llama-0", "worker")) : Optional.empty();
            }

            @Override
            public String unknownReason() {
                return "not listed";
            }
        };
        assertEquals(List.of(new PortWorkload(1, "ml", "train-llama-0", "worker", "python3", PortWorkload.PROCESS, null,
                        2)),
                new WorkloadAttributor(new ProcessFiles(root), pods).attribute("mlx5_0", model(List.of(userQp(1, 1, 100L),
                        userQp(1, 2, 100L)))));
    }

    @Test
    void anUnreadableCgroupFileIsNamedInTheReason() throws IOException {
        process(100, "python3", POD_CGROUP);
        // a directory in the file's place fails the read as root too (a mode 000 file would not)
        Path cgroup = root.resolve("proc/100/cgroup");
        Files.delete(cgroup);
        Files.createDirectory(cgroup);
        assertEquals(List.of(new PortWorkload(1, null, null, null, "python3", PortWorkload.NONE,
                        "cannot read /proc/<pid>/cgroup: not a regular file (directory)", 1)),
                attributor().attribute("mlx5_0", model(List.of(userQp(1, 1, 100L)))));
    }

    @Test
    void manyWorkloadsOnAPortAreBoundedToTheTopEightAndTheRest() throws IOException {
        List<QueuePairEntry> dump = new ArrayList<>();
        for (int pid = 1; pid <= 10; pid++) {
            process(pid, "job" + pid, "0::/system.slice/job" + pid + ".service\n");
            for (int q = 0; q < pid; q++) {
                dump.add(userQp(1, pid * 100L + q, (long) pid));
            }
        }
        List<PortWorkload> workloads = attributor().attribute("mlx5_0", model(dump));
        assertEquals(PortWorkload.MAX_ROWS_PER_PORT, workloads.size());
        assertEquals(new PortWorkload(1, null, null, null, null, PortWorkload.NONE, PortWorkload.OTHER, 1 + 2),
                workloads.get(PortWorkload.TOP_PER_PORT));
    }

    @Test
    void aDeviceGivenToAPodHoldsThatPodsQpsWithOrWithoutTheirPids() throws IOException {
        process(100, "python3", "0::/user.slice/session-3.scope\n");
        PodDirectory pods = new PodDirectory() {
            @Override
            public Optional<PodName> find(String podUid, String containerId) {
                return Optional.empty();
            }

            @Override
            public String unknownReason() {
                return "not listed";
            }

            @Override
            public Optional<PodName> holding(String rdmaDevice) {
                return rdmaDevice.equals("mlx5_0") ? Optional.of(new PodName("ml", "train-0", "worker"))
                        : Optional.empty();
            }
        };
        List<QueuePair> dump = model(List.of(userQp(1, 1, 100L), userQp(1, 2, null), userQp(1, 3, 999L),
                new QueuePairEntry(0, "mlx5_0", 1, 4, null, 1, 3, null, "ib_core")));
        WorkloadAttributor attributor = new WorkloadAttributor(new ProcessFiles(root), pods);
        assertEquals(List.of(
                        new PortWorkload(1, null, null, null, null, PortWorkload.NONE, PortWorkload.PROCESS_EXITED, 1),
                        new PortWorkload(1, null, null, null, "[ib_core]", PortWorkload.NONE, PortWorkload.KERNEL_QP, 1),
                        new PortWorkload(1, "ml", "train-0", "worker", null, PortWorkload.DEVICE, null, 1),
                        new PortWorkload(1, "ml", "train-0", "worker", "python3", PortWorkload.DEVICE, null, 1)),
                attributor.attribute("mlx5_0", dump), "the pod's whether or not its pid is seen; the kernel's stays");
        assertEquals(PortWorkload.NONE, attributor.attribute("mlx5_1", dump).get(0).attribution(),
                "another device is not the pod's");
    }
}
