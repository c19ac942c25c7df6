package io.rdmamon.protocol.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The QPs one workload holds on one port (docs/workloads.md): who owns them, how that was found out, and how many there
 * are. A workload is one distinct (namespace, pod, container, comm, attribution, reason) on the port.
 *
 * @param port        the port the QPs are bound to
 * @param namespace   the pod's namespace; null when unknown
 * @param pod         the pod's name, or its UID when the name is unknown (the reason says so); null for no pod
 * @param container   the container's name, or its id when the name is unknown; null for no container
 * @param comm        the owning process's {@code comm}, or {@code [module]} for a kernel QP as {@code rdma} prints it;
 *                    null when unknown
 * @param attribution {@link #DEVICE}, {@link #PROCESS} or {@link #NONE}
 * @param reason      why the attribution is {@code none} or incomplete; null when there is nothing to say
 * @param qps         the workload's QPs on the port, at least 1
 */
public record PortWorkload(int port, String namespace, String pod, String container, String comm, String attribution,
                           String reason, int qps) {
    /** The pod holds the port's device itself (an SR-IOV VF given to it, from kubelet pod-resources). */
    public static final String DEVICE = "device";
    /** The QP's pid led to the pod through its cgroup. */
    public static final String PROCESS = "process";
    /** No pod: the reason says why. */
    public static final String NONE = "none";
    public static final Set<String> ATTRIBUTIONS = Set.of(DEVICE, PROCESS, NONE);
    /** The reason of a kernel module's QPs (GSI/SMI of {@code ib_core}, NFS/iSER, ...): no workload's. */
    public static final String KERNEL_QP = "kernel QP";
    /** The reason of QPs whose process is gone (the kernel tears them down): nobody's any more. */
    public static final String PROCESS_EXITED = "process exited";
    /** Workloads kept per port by QP count; the rest are summed into one {@link #OTHER} row, bounding the series. */
    public static final int TOP_PER_PORT = 8;
    /** The reason of the row summing the workloads beyond the top {@link #TOP_PER_PORT} of a port. */
    public static final String OTHER = "other workloads beyond the top " + TOP_PER_PORT + " of the port";
    /** Rows a port carries at most: the top workloads and the {@link #OTHER} row. */
    public static final int MAX_ROWS_PER_PORT = TOP_PER_PORT + 1;

    /** Most QPs first; ties in label order, so that the kept rows do not change from sample to sample. */
    private static final Comparator<PortWorkload> BY_QPS = Comparator.comparingInt(PortWorkload::qps).reversed()
            .thenComparing(PortWorkload::labelKey);

    public PortWorkload {
        Objects.requireNonNull(attribution, "attribution");
        if (!ATTRIBUTIONS.contains(attribution)) {
            throw new IllegalArgumentException("attribution \"" + attribution + "\" is none of " + ATTRIBUTIONS);
        }
        if (qps < 1) {
            throw new IllegalArgumentException("a workload holds at least 1 QP, not " + qps);
        }
    }

    /** This workload holding {@code count} QPs. */
    public PortWorkload withQps(int count) {
        return new PortWorkload(port, namespace, pod, container, comm, attribution, reason, count);
    }

    /**
     * {@code workloads} bounded per port: the {@link #TOP_PER_PORT} with the most QPs, and the rest summed into one
     * {@link #OTHER} row with attribution {@code none}. Rows of the same workload are merged first. Sorted by port,
     * then most QPs first.
     */
    public static List<PortWorkload> bounded(List<PortWorkload> workloads) {
        Map<Integer, List<PortWorkload>> byPort = workloads.stream()
                .collect(Collectors.groupingBy(PortWorkload::port, TreeMap::new, Collectors.toList()));
        List<PortWorkload> kept = new ArrayList<>();
        byPort.forEach((port, rows) -> {
            List<PortWorkload> merged = new ArrayList<>(rows.stream()
                    .collect(Collectors.toMap(PortWorkload::labelKey, w -> w, (a, b) -> a.withQps(a.qps + b.qps)))
                    .values());
            merged.sort(BY_QPS);
            kept.addAll(merged.subList(0, Math.min(TOP_PER_PORT, merged.size())));
            int rest = merged.stream().skip(TOP_PER_PORT).mapToInt(PortWorkload::qps).sum();
            if (rest > 0) {
                kept.add(new PortWorkload(port, null, null, null, null, NONE, OTHER, rest));
            }
        });
        return List.copyOf(kept);
    }

    /** The workload's identity on its port: its labels, joined by a character no label holds. */
    private String labelKey() {
        return Stream.of(namespace, pod, container, comm, attribution, reason)
                .map(s -> s == null ? "" : s).collect(Collectors.joining("\0"));
    }

    /** Whether the QPs are a kernel module's, not a workload's. */
    public boolean isKernel() {
        return KERNEL_QP.equals(reason);
    }

    /** Whether the QPs' process has exited, so that they hurt no running job. */
    public boolean isExited() {
        return PROCESS_EXITED.equals(reason);
    }

    /** How an evidence line names the workload: {@code ns/pod (12 QPs)}, else the process or the reason. */
    public String describe() {
        String who = pod != null ? (namespace == null ? pod : namespace + "/" + pod)
                : comm != null ? comm : reason;
        return who + " (" + qps + (qps == 1 ? " QP)" : " QPs)");
    }
}
