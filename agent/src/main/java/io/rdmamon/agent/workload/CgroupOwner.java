package io.rdmamon.agent.workload;

/**
 * Who a process belongs to, as its {@code /proc/<pid>/cgroup} says (docs/reference/pingmesh-workloads-topology.md
 * §2.4): the Kubernetes pod and
 * container, or why it names none.
 *
 * @param podUid      the pod's UID with dashes ({@code 8-4-4-4-12} hex); null when the cgroup is no pod's
 * @param qos         {@code guaranteed}, {@code burstable} or {@code besteffort}; null when no pod's
 * @param runtime     {@code cri-containerd}, {@code crio} or {@code docker} where the path names it (systemd driver,
 *                    CRI-O under cgroupfs); null when it does not
 * @param containerId the container's id (64 hex); null for no pod's cgroup and for a process in the pod's own cgroup
 * @param reason      why no pod is named; null when one is
 */
public record CgroupOwner(String podUid, String qos, String runtime, String containerId, String reason) {

    static CgroupOwner pod(String podUid, String qos, String runtime, String containerId) {
        return new CgroupOwner(podUid, qos, runtime, containerId, null);
    }

    static CgroupOwner none(String reason) {
        return new CgroupOwner(null, null, null, null, reason);
    }

    /** Whether the cgroup names a Kubernetes pod. */
    public boolean isPod() {
        return podUid != null;
    }
}
