package io.rdmamon.agent.workload;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pods the kubelet names (docs/workloads.md), from two read-only sources, each optional:
 * <ul>
 *   <li>its <b>pod-resources</b> API ({@link KubeletPodResources}): every refresh it calls {@code List} and maps each
 *   device id that is a PCI address (an SR-IOV VF, as the SR-IOV device plugin names it,
 * docs/reference/pingmesh-workloads-topology.md §2.2; or a DRA
 *   NIC driver's device name, {@link #pciAddress}) to the RDMA devices under
 *   {@code <root>/sys/bus/pci/devices/<address>/infiniband}, so that a VF's QPs are the pod's
 *   ({@code attribution="device"}) even when the agent cannot see their pids. Plain-number ids (the shared RDMA plugin)
 *   name no device: those pods are found through their processes.</li>
 *   <li>its <b>pod list</b> ({@link KubeletPodList}): the name, namespace and container names behind the pod UID and
 *   container id a process's cgroup gives, which pod-resources does not carry.</li>
 * </ul>
 * When a call fails what the last good answer said is kept (a kubelet restart is no reason to forget which pod holds
 * a VF) and the failure becomes the reason of the pods left unnamed. Refreshed on the event loop, the sysfs lookups
 * on a worker; read by the sampling thread through one volatile snapshot.
 */
public final class KubeletPodDirectory implements PodDirectory {
    private static final System.Logger LOG = System.getLogger(KubeletPodDirectory.class.getName());
    /**
     * A PCI address as a device plugin names a VF ({@code 0000:3b:00.2}), or in the DNS-label form DRA drivers give a
     * device in their pool: kubernetes-sigs/dranet {@code pci-0000-3b-00-2} ({@code names.NormalizePCIAddress}),
     * k8snetworkplumbingwg/dra-driver-sriov {@code 0000-3b-00-2} (its VF discovery replaces ':' and '.' with '-').
     */
    private static final Pattern PCI_ADDRESS = Pattern.compile("[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]");
    private static final Pattern DNS_LABEL_PCI_ADDRESS = Pattern.compile(
            "(?:pci-)?([0-9a-fA-F]{4})-([0-9a-fA-F]{2})-([0-9a-fA-F]{2})-([0-7])");
    static final String NO_UID = "pod name unknown: pod-resources names no pod by UID (no kubelet pod list read)";
    static final String NOT_LISTED = "pod name unknown: not in the kubelet's pod list";

    private final Vertx vertx;
    private final KubeletPodResources podResources;
    private final KubeletPodList podList;
    private final Path pciDevices;
    private volatile Map<String, PodName> byRdmaDevice = Map.of();
    private volatile Map<String, KubeletPodList.Pod> byUid = Map.of();
    /** Why a pod found by UID stays unnamed; null until the first refresh ended. */
    private volatile String unknownReason;
    private String lastProblem;

    /**
     * @param podResources null to read no pod-resources
     * @param podList      null to read no pod list
     */
    public KubeletPodDirectory(Vertx vertx, KubeletPodResources podResources, KubeletPodList podList, Path hostRoot) {
        this.vertx = vertx;
        this.podResources = podResources;
        this.podList = podList;
        this.pciDevices = hostRoot.resolve("sys/bus/pci/devices");
    }

    /** Refreshes now and every {@code every} until Vert.x closes. */
    public void start(Duration every) {
        refresh();
        vertx.setPeriodic(every.toMillis(), t -> refresh());
    }

    /** Reads both sources; never fails (a failure becomes the reason, and is logged when it is new). */
    public Future<Void> refresh() {
        Future<String> devices = podResources == null ? Future.succeededFuture(null) : podResources.list()
                .compose(held -> vertx.executeBlocking(() -> rdmaDevices(held)))
                .map(mapped -> {
                    byRdmaDevice = mapped;
                    return (String) null;
                })
                .otherwise(Throwable::getMessage);
        Future<String> names = podList == null ? Future.succeededFuture(null) : podList.list()
                .map(pods -> {
                    byUid = pods;
                    return (String) null;
                })
                .otherwise(Throwable::getMessage);
        return Future.all(devices, names).map(both -> {
            String devicesProblem = both.resultAt(0);
            String namesProblem = both.resultAt(1);
            String problem = namesProblem != null ? namesProblem : devicesProblem;
            unknownReason = podList != null ? (namesProblem != null ? "pod name unknown: " + namesProblem : NOT_LISTED)
                    : devicesProblem != null ? "pod name unknown: " + devicesProblem : NO_UID;
            if (problem != null && !problem.equals(lastProblem)) {
                LOG.log(System.Logger.Level.WARNING, problem);
            }
            lastProblem = problem;
            return null;
        });
    }

    /** The pod holding each RDMA device that is a device id of the answer; a blocking sysfs read. */
    Map<String, PodName> rdmaDevices(List<PodResourcesDecoder.AssignedDevice> devices) {
        Map<String, PodName> found = new HashMap<>();
        for (PodResourcesDecoder.AssignedDevice device : devices) {
            Optional<String> address = pciAddress(device.deviceId());
            if (address.isEmpty()) {
                continue;
            }
            Path infiniband = pciDevices.resolve(address.get()).resolve("infiniband");
            try (DirectoryStream<Path> names = Files.newDirectoryStream(infiniband)) {
                for (Path name : names) {
                    found.put(name.getFileName().toString(),
                            new PodName(device.namespace(), device.pod(), device.container()));
                }
            } catch (NoSuchFileException e) {
                // a VF without an RDMA device (a plain netdev VF, or one moved to the pod's network namespace)
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "pod-resources: cannot list " + infiniband + ": " + e);
            }
        }
        return Map.copyOf(found);
    }

    /** The PCI address ({@code 0000:3b:00.2}, lower case as sysfs names it) a device id names, if it names one. */
    static Optional<String> pciAddress(String deviceId) {
        if (PCI_ADDRESS.matcher(deviceId).matches()) {
            return Optional.of(deviceId.toLowerCase(Locale.ROOT));
        }
        Matcher label = DNS_LABEL_PCI_ADDRESS.matcher(deviceId);
        if (label.matches()) {
            return Optional.of((label.group(1) + ":" + label.group(2) + ":" + label.group(3) + "." + label.group(4))
                    .toLowerCase(Locale.ROOT));
        }
        return Optional.empty();
    }

    @Override
    public Optional<PodName> find(String podUid, String containerId) {
        KubeletPodList.Pod pod = byUid.get(podUid);
        if (pod == null) {
            return Optional.empty();
        }
        return Optional.of(new PodName(pod.namespace(), pod.name(),
                containerId == null ? null : pod.containersById().get(containerId)));
    }

    @Override
    public String unknownReason() {
        String reason = unknownReason;
        return reason != null ? reason : "pod name unknown: the kubelet not read yet";
    }

    @Override
    public Optional<PodName> holding(String rdmaDevice) {
        return Optional.ofNullable(byRdmaDevice.get(rdmaDevice));
    }
}
