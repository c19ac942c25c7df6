package io.rdmamon.agent.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes the kubelet pod-resources {@code ListPodResourcesResponse} ({@code
 * agent/src/main/proto/podresources-v1.proto},
 * field numbers from the Kubernetes API; docs/reference/pingmesh-workloads-topology.md §2.1) into one row per device a
 * container holds: those of its
 * device plugins ({@code devices}) and those of its DRA claims ({@code dynamic_resources}, filled by a kubelet with
 * {@code KubeletPodResourcesDynamicResources}). Pure; fields it does not need (CPU ids, memory, topology, claim names,
 * CDI devices) are skipped, as are fields a newer kubelet adds.
 */
public final class PodResourcesDecoder {
    /**
     * One device a container holds, as its device plugin or DRA driver named it.
     *
     * @param resourceName the device plugin's resource name, or the DRA driver's name ({@code dra.net})
     * @param deviceId     the plugin's id: a VF's PCI address for the SR-IOV plugin, a plain number for the shared RDMA
     *                     plugin (docs/reference/pingmesh-workloads-topology.md §2.2); or the DRA driver's device name
     * in its pool (a PCI address in
     *                     DNS-label form for the NIC drivers: {@code pci-0000-8a-00-0}, {@code 0000-8a-00-2})
     */
    public record AssignedDevice(String namespace, String pod, String container, String resourceName,
                                 String deviceId) {
    }

    /**
     * How much of one answer is decoded: the answer's bytes are capped (16 MiB), but a byte can be a device id, so
     * the rows decoded are bounded too. A node runs 110 pods by default and rarely more than a few hundred.
     *
     * @param pods       {@code pod_resources} entries
     * @param containers containers over all pods
     * @param devices    rows: device ids and DRA claimed devices over all containers
     */
    public record Bounds(int pods, int containers, int devices) {
        public static final Bounds KUBELET = new Bounds(4096, 32768, 65536);
    }

    /** An answer beyond the {@link Bounds}: none of it is used; the message counts what was beyond each bound hit. */
    public static final class BoundsExceeded extends RuntimeException {
        BoundsExceeded(String message) {
            super(message);
        }
    }

    private PodResourcesDecoder() {
    }

    /**
     * @throws IllegalArgumentException naming the offset when the message is malformed
     * @throws BoundsExceeded           when it holds more than {@link Bounds#KUBELET}
     */
    public static List<AssignedDevice> listResponse(byte[] message) {
        return listResponse(message, Bounds.KUBELET);
    }

    static List<AssignedDevice> listResponse(byte[] message, Bounds bounds) {
        Decoding decoding = new Decoding(bounds);
        ProtoReader response = new ProtoReader(message);
        while (response.hasMore()) {
            int tag = response.tag();
            if (tag == (1 << 3 | ProtoReader.LENGTH_DELIMITED)) {
                decoding.pod(response.message());
            } else {
                response.skip(tag & 7);
            }
        }
        return decoding.devices();
    }

    /**
     * One answer's rows and its counts. A message is read twice where its fields may come in any order — once for
     * its names, once for what it holds — so that nothing is kept per entry but the rows; an entry beyond a bound is
     * counted and skipped undecoded.
     */
    private static final class Decoding {
        private final Bounds bounds;
        private final List<AssignedDevice> rows = new ArrayList<>();
        private int pods;
        private int containers;
        private int devices;

        Decoding(Bounds bounds) {
            this.bounds = bounds;
        }

        void pod(ProtoReader pod) {
            if (++pods > bounds.pods()) {
                return;
            }
            String name = "";
            String namespace = "";
            for (ProtoReader names = pod.fromStart(); names.hasMore(); ) {
                int tag = names.tag();
                switch (tag) {
                    case 1 << 3 | ProtoReader.LENGTH_DELIMITED -> name = names.string();
                    case 2 << 3 | ProtoReader.LENGTH_DELIMITED -> namespace = names.string();
                    default -> names.skip(tag & 7);
                }
            }
            while (pod.hasMore()) {
                int tag = pod.tag();
                if (tag == (3 << 3 | ProtoReader.LENGTH_DELIMITED)) {
                    container(namespace, name, pod.message());
                } else {
                    pod.skip(tag & 7);
                }
            }
        }

        private void container(String namespace, String pod, ProtoReader container) {
            if (++containers > bounds.containers()) {
                return;
            }
            String name = "";
            for (ProtoReader names = container.fromStart(); names.hasMore(); ) {
                int tag = names.tag();
                if (tag == (1 << 3 | ProtoReader.LENGTH_DELIMITED)) {
                    name = names.string();
                } else {
                    names.skip(tag & 7);
                }
            }
            PodDirectory.PodName owner = new PodDirectory.PodName(namespace, pod, name);
            while (container.hasMore()) {
                int tag = container.tag();
                switch (tag) {
                    case 2 << 3 | ProtoReader.LENGTH_DELIMITED -> pluginDevices(owner, container.message());
                    case 5 << 3 | ProtoReader.LENGTH_DELIMITED -> claim(owner, container.message());
                    default -> container.skip(tag & 7);
                }
            }
        }

        /** A device plugin's {@code ContainerDevices}: one row per device id. */
        private void pluginDevices(PodDirectory.PodName owner, ProtoReader held) {
            String resource = "";
            for (ProtoReader names = held.fromStart(); names.hasMore(); ) {
                int tag = names.tag();
                if (tag == (1 << 3 | ProtoReader.LENGTH_DELIMITED)) {
                    resource = names.string();
                } else {
                    names.skip(tag & 7);
                }
            }
            while (held.hasMore()) {
                int tag = held.tag();
                if (tag == (2 << 3 | ProtoReader.LENGTH_DELIMITED) && ++devices <= bounds.devices()) {
                    rows.add(row(owner, resource, held.string()));
                } else {
                    held.skip(tag & 7);
                }
            }
        }

        /** A DRA {@code DynamicResource}: its claim resources. */
        private void claim(PodDirectory.PodName owner, ProtoReader claim) {
            while (claim.hasMore()) {
                int tag = claim.tag();
                if (tag == (4 << 3 | ProtoReader.LENGTH_DELIMITED)) {
                    claimResource(owner, claim.message());
                } else {
                    claim.skip(tag & 7);
                }
            }
        }

        /** A DRA {@code ClaimResource}: one row when it names a device (a claim of CDI devices alone names none). */
        private void claimResource(PodDirectory.PodName owner, ProtoReader resource) {
            String driver = "";
            String device = "";
            while (resource.hasMore()) {
                int tag = resource.tag();
                switch (tag) {
                    case 2 << 3 | ProtoReader.LENGTH_DELIMITED -> driver = resource.string();
                    case 4 << 3 | ProtoReader.LENGTH_DELIMITED -> device = resource.string();
                    default -> resource.skip(tag & 7);
                }
            }
            if (!device.isEmpty() && ++devices <= bounds.devices()) {
                rows.add(row(owner, driver, device));
            }
        }

        private static AssignedDevice row(PodDirectory.PodName owner, String resource, String deviceId) {
            return new AssignedDevice(owner.namespace(), owner.pod(), owner.container(), resource, deviceId);
        }

        /** The rows; @throws BoundsExceeded when an entry was beyond a bound */
        List<AssignedDevice> devices() {
            List<String> beyond = new ArrayList<>();
            over(beyond, pods, bounds.pods(), "pods");
            over(beyond, containers, bounds.containers(), "containers");
            over(beyond, devices, bounds.devices(), "devices");
            if (!beyond.isEmpty()) {
                throw new BoundsExceeded("answer beyond the agent's bounds: " + String.join(", ", beyond)
                        + " (none of it used)");
            }
            return rows;
        }

        private static void over(List<String> beyond, int seen, int bound, String what) {
            if (seen > bound) {
                beyond.add((seen - bound) + " " + what + " over " + bound);
            }
        }
    }
}
