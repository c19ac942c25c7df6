package io.rdmamon.agent.workload;

import java.util.Optional;

/**
 * Where the agent looks up the name and namespace of a pod it knows by UID from a process's cgroup, and the name of
 * the container it knows by id. The seam for the kubelet's APIs (pod-resources {@code List}, the kubelet pod list;
 * fabric-facts §2.1), none of which the agent speaks yet: {@link #NONE} is the only directory today.
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

    /**
     * A pod as Kubernetes names it.
     *
     * @param container the container's name; null when the directory does not know it
     */
    record PodName(String namespace, String pod, String container) {
    }
}
