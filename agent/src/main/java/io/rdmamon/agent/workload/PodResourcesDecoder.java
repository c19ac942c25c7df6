package io.rdmamon.agent.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes the kubelet pod-resources {@code ListPodResourcesResponse} ({@code agent/src/main/proto/podresources-v1.proto},
 * field numbers from the Kubernetes API; fabric-facts §2.1) into one row per device a container holds: those of its
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
     *                     plugin (fabric-facts §2.2); or the DRA driver's device name in its pool (a PCI address in
     *                     DNS-label form for the NIC drivers: {@code pci-0000-8a-00-0}, {@code 0000-8a-00-2})
     */
    public record AssignedDevice(String namespace, String pod, String container, String resourceName,
                                 String deviceId) {
    }

    private PodResourcesDecoder() {
    }

    /** @throws IllegalArgumentException naming the offset when the message is malformed */
    public static List<AssignedDevice> listResponse(byte[] message) {
        List<AssignedDevice> devices = new ArrayList<>();
        ProtoReader response = new ProtoReader(message);
        while (response.hasMore()) {
            int tag = response.tag();
            if (tag == (1 << 3 | ProtoReader.LENGTH_DELIMITED)) {
                podResources(response.message(), devices);
            } else {
                response.skip(tag & 7);
            }
        }
        return devices;
    }

    private static void podResources(ProtoReader pod, List<AssignedDevice> devices) {
        String name = "";
        String namespace = "";
        List<ProtoReader> containers = new ArrayList<>();
        while (pod.hasMore()) {
            int tag = pod.tag();
            switch (tag) {
                case 1 << 3 | ProtoReader.LENGTH_DELIMITED -> name = pod.string();
                case 2 << 3 | ProtoReader.LENGTH_DELIMITED -> namespace = pod.string();
                case 3 << 3 | ProtoReader.LENGTH_DELIMITED -> containers.add(pod.message());
                default -> pod.skip(tag & 7);
            }
        }
        // fields may come in any order: the containers are read once the pod's name is known
        for (ProtoReader container : containers) {
            containerResources(namespace, name, container, devices);
        }
    }

    private static void containerResources(String namespace, String pod, ProtoReader container,
                                           List<AssignedDevice> devices) {
        String name = "";
        List<ProtoReader> held = new ArrayList<>();
        List<ProtoReader> claims = new ArrayList<>();
        while (container.hasMore()) {
            int tag = container.tag();
            switch (tag) {
                case 1 << 3 | ProtoReader.LENGTH_DELIMITED -> name = container.string();
                case 2 << 3 | ProtoReader.LENGTH_DELIMITED -> held.add(container.message());
                case 5 << 3 | ProtoReader.LENGTH_DELIMITED -> claims.add(container.message());
                default -> container.skip(tag & 7);
            }
        }
        for (ProtoReader device : held) {
            String resource = "";
            List<String> ids = new ArrayList<>();
            while (device.hasMore()) {
                int tag = device.tag();
                switch (tag) {
                    case 1 << 3 | ProtoReader.LENGTH_DELIMITED -> resource = device.string();
                    case 2 << 3 | ProtoReader.LENGTH_DELIMITED -> ids.add(device.string());
                    default -> device.skip(tag & 7);
                }
            }
            for (String id : ids) {
                devices.add(new AssignedDevice(namespace, pod, name, resource, id));
            }
        }
        for (ProtoReader claim : claims) {
            while (claim.hasMore()) {
                int tag = claim.tag();
                if (tag == (4 << 3 | ProtoReader.LENGTH_DELIMITED)) {
                    claimResource(namespace, pod, name, claim.message(), devices);
                } else {
                    claim.skip(tag & 7);
                }
            }
        }
    }

    /** A DRA {@code ClaimResource}: one row when it names a device (a claim of CDI devices alone names none). */
    private static void claimResource(String namespace, String pod, String container, ProtoReader resource,
                                      List<AssignedDevice> devices) {
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
        if (!device.isEmpty()) {
            devices.add(new AssignedDevice(namespace, pod, container, driver, device));
        }
    }
}
