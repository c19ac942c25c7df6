package io.rdmamon.agent.workload;

import java.util.Optional;

/**
 * Where the agent looks up the pod that holds an RDMA device (an SR-IOV VF given to it), and the name and namespace of
 * a pod it knows by UID from a process's cgroup with the name of the container it knows by id. The seam for the
 * kubelet's APIs (docs/reference/pingmesh-workloads-topology.md §2.1): {@link KubeletPodDirectory} reads pod-resources
 * {@code List}; {@link #NONE}
 * knows no pod.
 */
public interface PodDirectory {

    /** A directory that knows no pod: every pod is named by its UID and the reason says why. */
    PodDirectory NONE = new PodDirectory() {
        @Override
        public Optional<PodName> find(String podUid, String containerId) {
            return Optional.empty();
        }

        @Override
        public String unknownReason() {
            return "pod name unknown: no pod-resources socket";
        }
    };

    /** The pod of {@code podUid} and the name of the container {@code containerId} (null when unknown) in it. */
    Optional<PodName> find(String podUid, String containerId);

    /** Why {@link #find} found nothing: the {@code reason} of a workload named by its pod UID. */
    String unknownReason();

    /** The pod (and container) the RDMA device {@code rdmaDevice} is given to as a whole; empty when none is. */
    default Optional<PodName> holding(String rdmaDevice) {
        return Optional.empty();
    }

    /**
     * A pod as Kubernetes names it.
     *
     * @param container the container's name; null when the directory does not know it
     */
    record PodName(String namespace, String pod, String container) {
    }
}
