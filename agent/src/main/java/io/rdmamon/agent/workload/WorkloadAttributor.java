package io.rdmamon.agent.workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.QueuePair;

/**
 * Who holds the QPs of a device (docs/workloads.md): a device given to a pod as a whole (an SR-IOV VF, from the
 * {@link PodDirectory}) holds that pod's QPs, pid or not; otherwise each user QP's pid leads to the process's
 * {@code comm} and cgroup under the host root, the cgroup to the pod and container, the {@link PodDirectory} to their
 * names. Kernel QPs are their module's either way. The QPs are grouped per port into workloads, bounded ({@link
 * PortWorkload#bounded}). QPs not bound
 * to a port yet (RESET) are on no port and left out. Reads each process once per call.
 */
public final class WorkloadAttributor {
    /** A user QP without a pid: the kernel hides the owner's pid from another pid namespace
     * (docs/reference/pingmesh-workloads-topology.md §2.3). */
    public static final String NO_HOST_PID = "agent without hostPID: the owner is in another pid namespace";
    /** Digits of a container id shown when its name is unknown, as {@code docker ps} and {@code crictl ps} show it. */
    private static final int SHORT_CONTAINER_ID = 12;

    private final ProcessFiles processes;
    private final PodDirectory pods;

    public WorkloadAttributor(ProcessFiles processes, PodDirectory pods) {
        this.processes = processes;
        this.pods = pods;
    }

    /** The workloads on each port of {@code device}, which holds {@code qps}, bounded per port. */
    public List<PortWorkload> attribute(String device, List<QueuePair> qps) {
        Optional<PodDirectory.PodName> holder = pods.holding(device);
        Map<Long, Owner> byPid = new HashMap<>();
        List<PortWorkload> rows = new ArrayList<>();
        for (QueuePair qp : qps) {
            if (qp.port() != null) {
                rows.add(owner(qp, holder, byPid).on(qp.port()));
            }
        }
        return PortWorkload.bounded(rows);
    }

    private Owner owner(QueuePair qp, Optional<PodDirectory.PodName> holder, Map<Long, Owner> byPid) {
        if (qp.pid() == null && qp.kernName() != null) {
            return new Owner(null, null, null, "[" + qp.kernName() + "]", PortWorkload.NONE, PortWorkload.KERNEL_QP);
        }
        if (holder.isPresent()) {
            Owner process = qp.pid() == null ? null : byPid.computeIfAbsent(qp.pid(), this::process);
            if (process != null && PortWorkload.PROCESS_EXITED.equals(process.reason())) {
                return process;
            }
            PodDirectory.PodName pod = holder.get();
            return new Owner(pod.namespace(), pod.pod(), pod.container(), process == null ? null : process.comm(),
                    PortWorkload.DEVICE, null);
        }
        if (qp.pid() == null) {
            return new Owner(null, null, null, null, PortWorkload.NONE, NO_HOST_PID);
        }
        return byPid.computeIfAbsent(qp.pid(), this::process);
    }

    private Owner process(long pid) {
        ProcessFiles.Reading reading = processes.read(pid);
        if (reading.problem() != null) {
            return new Owner(null, null, null, reading.comm(), PortWorkload.NONE, reading.problem());
        }
        CgroupOwner cgroup = CgroupPaths.parse(reading.cgroup());
        if (!cgroup.isPod()) {
            return new Owner(null, null, null, reading.comm(), PortWorkload.NONE, cgroup.reason());
        }
        Optional<PodDirectory.PodName> name = pods.find(cgroup.podUid(), cgroup.containerId());
        if (name.isPresent()) {
            PodDirectory.PodName pod = name.get();
            String container = pod.container() != null ? pod.container() : shortId(cgroup.containerId());
            return new Owner(pod.namespace(), pod.pod(), container, reading.comm(), PortWorkload.PROCESS, null);
        }
        return new Owner(null, cgroup.podUid(), shortId(cgroup.containerId()), reading.comm(), PortWorkload.PROCESS,
                pods.unknownReason());
    }

    /** A container id as {@code crictl ps} shows it; null for none. */
    private static String shortId(String containerId) {
        return containerId == null ? null : containerId.substring(0, Math.min(SHORT_CONTAINER_ID, containerId.length()));
    }

    /** A workload's labels before it is put on a port. */
    private record Owner(String namespace, String pod, String container, String comm, String attribution,
                         String reason) {
        PortWorkload on(int port) {
            return new PortWorkload(port, namespace, pod, container, comm, attribution, reason, 1);
        }
    }
}
