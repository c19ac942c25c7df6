package io.rdmamon.protocol.model;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What RDMA netlink says a device holds: the resource summary ({@code RDMA_NLDEV_CMD_RES_GET}, {@code rdma resource
 * show}) and its QPs ({@code RDMA_NLDEV_CMD_RES_QP_GET}). The QP list is bounded: a host can hold 100,000 QPs, and
 * each one would cost about 100 bytes of a layout frame; the first {@link #MAX_QPS} in kernel order are kept and the
 * rest counted in {@code qpsDropped} (the summary's {@code qp} count stays the full count).
 *
 * @param summary    current count per resource type ({@code pd}, {@code cq}, {@code qp}, {@code cm_id}, {@code mr},
 *                   {@code ctx}, {@code srq}, ...) in kernel order; u64 in a long with unsigned semantics
 * @param qps        at most {@link #MAX_QPS} QPs in kernel order
 * @param qpsDropped QPs listed by the kernel beyond {@link #MAX_QPS}
 * @param workloads  who holds the QPs of each port, every QP counted (the dropped too), bounded per port
 *                   ({@link PortWorkload#bounded}); empty when not attributed (an agent before workloads were carried)
 */
public record RdmaResources(Map<String, Long> summary, List<QueuePair> qps, int qpsDropped,
                            List<PortWorkload> workloads) {
    /** Most QPs kept per device (about 25 KB of layout JSON). */
    public static final int MAX_QPS = 256;

    public RdmaResources {
        summary = Maps.copyOrdered(summary);
        qps = List.copyOf(qps);
        if (qps.size() > MAX_QPS) {
            throw new IllegalArgumentException(qps.size() + " QPs exceed the " + MAX_QPS + " a device carries");
        }
        if (qpsDropped < 0) {
            throw new IllegalArgumentException("qpsDropped is negative: " + qpsDropped);
        }
        workloads = List.copyOf(workloads);
        Map<Integer, Long> rowsPerPort = workloads.stream()
                .collect(Collectors.groupingBy(PortWorkload::port, Collectors.counting()));
        rowsPerPort.forEach((port, rows) -> {
            if (rows > PortWorkload.MAX_ROWS_PER_PORT) {
                throw new IllegalArgumentException("port " + port + " lists " + rows + " workloads; at most "
                        + PortWorkload.MAX_ROWS_PER_PORT + " (the top " + PortWorkload.TOP_PER_PORT + " and the rest summed)");
            }
        });
    }

    /** Resources whose QPs are not attributed to workloads. */
    public RdmaResources(Map<String, Long> summary, List<QueuePair> qps, int qpsDropped) {
        this(summary, qps, qpsDropped, List.of());
    }

    /** These resources with {@code portWorkloads} (bounded by the caller). */
    public RdmaResources withWorkloads(List<PortWorkload> portWorkloads) {
        return new RdmaResources(summary, qps, qpsDropped, portWorkloads);
    }

    /** The workloads on {@code port}, most QPs first. */
    public List<PortWorkload> workloadsOn(int port) {
        return workloads.stream().filter(w -> w.port() == port).toList();
    }

    /** The resources with every QP of {@code allQps} up to {@link #MAX_QPS}, the rest counted as dropped. */
    public static RdmaResources bounded(Map<String, Long> summary, List<QueuePair> allQps) {
        int kept = Math.min(allQps.size(), MAX_QPS);
        return new RdmaResources(summary, allQps.subList(0, kept), allQps.size() - kept);
    }
}
