package io.rdmamon.agent.sim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.rdmamon.agent.workload.PodDirectory;
import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.rdma.QueuePairEntry;
import io.rdmamon.nativeio.rdma.RdmaDeviceIndex;
import io.rdmamon.nativeio.rdma.RdmaNetlink;
import io.rdmamon.nativeio.rdma.RdmaNetlinkException;
import io.rdmamon.nativeio.rdma.ResourceSummary;

/**
 * The workloads of one simulated node (docs/simulator.md): a training pod on every device, an evaluation pod on the
 * first, a perftest run outside Kubernetes on the last, a QP whose process has exited, and {@code ib_core}'s GSI QP on
 * each. Their processes are {@code proc/<pid>/{comm,cgroup}} files in the node's tree (the kubelet's systemd layout),
 * their QPs the answers of a simulated RDMA netlink, their names those of a simulated pod directory: the agent
 * attributes them through its real code, as on a host.
 */
final class SimulatedWorkloads {
    private static final int TRAINER_PID = 4100;
    private static final int EVAL_PID = 4200;
    private static final int PERFTEST_PID = 4300;
    /** A pid the RES_QP_GET answer names and {@code proc/} lacks: a process gone between the dump and the read. */
    private static final int EXITED_PID = 4400;
    private static final int TRAINER_QPS_PER_DEVICE = 12;
    private static final int EVAL_QPS = 4;
    private static final int PERFTEST_QPS = 2;
    /** {@code enum ib_qp_type}: GSI 1, RC 2; {@code enum ib_qp_state}: RTS 3. */
    private static final int GSI = 1;
    private static final int RC = 2;
    private static final int RTS = 3;

    private final List<String> devices;
    private final Map<String, List<QueuePairEntry>> qpsByDevice = new LinkedHashMap<>();
    private final Map<String, PodDirectory.PodName> podsByUid = new HashMap<>();

    private SimulatedWorkloads(List<String> devices) {
        this.devices = devices;
        devices.forEach(d -> qpsByDevice.put(d, new ArrayList<>()));
    }

    /** Lays out node {@code nodeIndex}'s processes in {@code tree} and plans their QPs on {@code devices}. */
    static SimulatedWorkloads create(HostTree tree, int nodeIndex, List<String> devices) throws IOException {
        SimulatedWorkloads workloads = new SimulatedWorkloads(devices);
        workloads.pod(tree, TRAINER_PID, "python3", nodeIndex, 1, "ml", "train-llama-" + nodeIndex, "trainer", "");
        workloads.pod(tree, EVAL_PID, "python3", nodeIndex, 2, "ml-eval", "eval-" + (nodeIndex % 3), "evaluator",
                "burstable");
        tree.write("proc/" + PERFTEST_PID + "/comm", "ib_write_bw\n");
        tree.write("proc/" + PERFTEST_PID + "/cgroup", "0::/user.slice/user-1000.slice/session-4.scope\n");
        for (int d = 0; d < devices.size(); d++) {
            List<QueuePairEntry> qps = workloads.qpsByDevice.get(devices.get(d));
            workloads.add(qps, d, 1, GSI, null, "ib_core");
            workloads.add(qps, d, TRAINER_QPS_PER_DEVICE, RC, (long) TRAINER_PID, null);
            if (d == 0) {
                workloads.add(qps, d, EVAL_QPS, RC, (long) EVAL_PID, null);
                workloads.add(qps, d, 1, RC, (long) EXITED_PID, null);
            }
            if (d == devices.size() - 1) {
                workloads.add(qps, d, PERFTEST_QPS, RC, (long) PERFTEST_PID, null);
            }
        }
        return workloads;
    }

    /** Writes a pod container's process and names its pod; {@code qos} empty for a Guaranteed pod. */
    private void pod(HostTree tree, int pid, String comm, int nodeIndex, int podIndex, String namespace, String name,
                       String container, String qos) throws IOException {
        String uid = String.format(Locale.ROOT, "%08x-5eed-4000-8000-%012x", podIndex, nodeIndex);
        String containerId = String.format(Locale.ROOT, "%064x", (long) pid * 1_000_003L + nodeIndex);
        String level = qos.isEmpty() ? "" : "-" + qos;
        String slice = "/kubepods.slice" + (qos.isEmpty() ? "" : "/kubepods" + level + ".slice") + "/kubepods" + level
                + "-pod" + uid.replace('-', '_') + ".slice/cri-containerd-" + containerId + ".scope";
        tree.write("proc/" + pid + "/comm", comm + "\n");
        tree.write("proc/" + pid + "/cgroup", "0::" + slice + "\n");
        podsByUid.put(uid, new PodDirectory.PodName(namespace, name, container));
    }

    private void add(List<QueuePairEntry> qps, int device, int count, int type, Long pid, String kernName) {
        for (int i = 0; i < count; i++) {
            long lqpn = type == GSI ? 1 : 0x100 + qps.size();
            qps.add(new QueuePairEntry(device, devices.get(device), 1, lqpn, type == GSI ? null : lqpn + 0x1000, type,
                    RTS, pid, kernName));
        }
    }

    /** The pods by UID, as the kubelet would name them. */
    PodDirectory pods() {
        return new PodDirectory() {
            @Override
            public Optional<PodName> find(String podUid, String containerId) {
                return Optional.ofNullable(podsByUid.get(podUid));
            }

            @Override
            public String unknownReason() {
                return "pod name unknown: not a simulated pod";
            }
        };
    }

    /** RDMA netlink as the node's kernel would answer: the devices, their QP counts and QPs; no hw counters. */
    RdmaNetlink netlink() {
        return new RdmaNetlink() {
            @Override
            public List<RdmaDeviceIndex> devices() {
                List<RdmaDeviceIndex> indexes = new ArrayList<>();
                for (int d = 0; d < devices.size(); d++) {
                    indexes.add(new RdmaDeviceIndex(d, devices.get(d)));
                }
                return indexes;
            }

            @Override
            public Map<String, Long> portHwCounters(long deviceIndex, int port) throws RdmaNetlinkException {
                // the simulated counters are files: EINVAL (a device without netlink hw counters) sends the reader there
                throw new RdmaNetlinkException(Errno.EINVAL, "RDMA_NLDEV_CMD_STAT_GET: simulated hw counters are files");
            }

            @Override
            public List<ResourceSummary> resourceSummaries() {
                List<ResourceSummary> summaries = new ArrayList<>();
                for (int d = 0; d < devices.size(); d++) {
                    summaries.add(new ResourceSummary(d, devices.get(d),
                            Map.of("qp", (long) qpsByDevice.get(devices.get(d)).size())));
                }
                return summaries;
            }

            @Override
            public List<QueuePairEntry> queuePairs(long deviceIndex) {
                return List.copyOf(qpsByDevice.get(devices.get((int) deviceIndex)));
            }
        };
    }
}
