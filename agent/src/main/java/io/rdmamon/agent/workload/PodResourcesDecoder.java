package io.rdmamon.agent.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes the kubelet pod-resources {@code ListPodResourcesResponse} ({@code agent/src/main/proto/podresources-v1.proto},
 * field numbers from the Kubernetes API; fabric-facts §2.1) into one row per device a container holds. Pure; fields it
 * does not need (CPU ids, memory, topology, dynamic resources) are skipped, as are fields a newer kubelet adds.
 */
public final class PodResourcesDecoder {
    /**
     * One device a container holds, as the device plugin named it.
     *
     * @param deviceId the plugin's id: a VF's PCI address for the SR-IOV plugin, a plain number for the shared RDMA
     *                 plugin (fabric-facts §2.2)
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
        while (container.hasMore()) {
            int tag = container.tag();
            switch (tag) {
                case 1 << 3 | ProtoReader.LENGTH_DELIMITED -> name = container.string();
                case 2 << 3 | ProtoReader.LENGTH_DELIMITED -> held.add(container.message());
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
    }
}
