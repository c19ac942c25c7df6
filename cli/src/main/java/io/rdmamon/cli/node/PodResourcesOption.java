package io.rdmamon.cli.node;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.agent.workload.KubeletPodDirectory;
import io.rdmamon.agent.workload.KubeletPodList;
import io.rdmamon.agent.workload.KubeletPodResources;
import io.rdmamon.cli.failure.CliFailure;
import io.vertx.core.Vertx;
import picocli.CommandLine.Option;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code --pod-resources} and {@code --kubelet-pods}: where the kubelet's pod-resources API and pod list are read
 * from to name the pods behind QPs (docs/workloads.md).
 */
public final class PodResourcesOption {
    /** A kubelet call that has not answered by then is given up (the kubelet answers in milliseconds). */
    private static final Duration DEADLINE = Duration.ofSeconds(5);

    @Option(names = "--pod-resources", paramLabel = "SOCKET|none", defaultValue = KubeletPodResources.DEFAULT_SOCKET,
            description = {"The kubelet's pod-resources socket (gRPC, read-only List): the pod holding each SR-IOV VF",
                    "or DRA-claimed NIC, so that its QPs are that pod's (attribution=device; docs/workloads.md).",
                    "Absent or unreadable: the workloads' reason says so. none: not read. Default: ${DEFAULT-VALUE}."})
    String socket;

    @Option(names = "--kubelet-pods", paramLabel = "URL|none", defaultValue = "none",
            description = {"The kubelet's pod list (GET, its read-only port: http://127.0.0.1:10255/pods): the names of",
                    "the pods and containers found by UID and id through a process's cgroup, which pod-resources does",
                    "not carry. Default: ${DEFAULT-VALUE} (pods found by cgroup are named by UID)."})
    String podList;

    /**
     * The directory of {@code reader}'s pods on {@code vertx}; null when none is read (both none, or no QPs read).
     *
     * @throws CliFailure for a --kubelet-pods that is no http URL
     */
    public KubeletPodDirectory open(Vertx vertx, HostReader reader) {
        if (!reads(reader)) {
            return null;
        }
        boolean readsSocket = !"none".equals(socket);
        boolean readsList = !"none".equals(podList);
        return new KubeletPodDirectory(vertx,
                readsSocket ? new KubeletPodResources(vertx, Path.of(socket), DEADLINE) : null,
                readsList ? new KubeletPodList(vertx, podListUrl(), DEADLINE) : null, reader.hostRoot());
    }

    /** Whether {@link #open} reads anything for {@code reader}: QPs to attribute and a socket or a pod list to ask. */
    public boolean reads(HostReader reader) {
        return reader.attributesWorkloads() && (!"none".equals(socket) || !"none".equals(podList));
    }

    /** @throws CliFailure when --kubelet-pods is given and no http URL */
    public void validate() {
        if (!"none".equals(podList)) {
            podListUrl();
        }
    }

    private URI podListUrl() {
        try {
            URI url = new URI(podList);
            if (!"http".equals(url.getScheme()) || url.getHost() == null) {
                throw CliFailure.badInput("--kubelet-pods '" + podList + "': give http://HOST:PORT/pods (the kubelet's"
                        + " read-only port, 10255) or none");
            }
            return url;
        } catch (URISyntaxException e) {
            throw CliFailure.badInput("--kubelet-pods '" + podList + "': " + e.getMessage());
        }
    }

    /** What is read, for the start-up line. */
    public String describe() {
        return "pod-resources " + socket + ", kubelet pod list " + podList;
    }
}
