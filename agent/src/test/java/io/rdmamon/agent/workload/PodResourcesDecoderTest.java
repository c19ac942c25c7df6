package io.rdmamon.agent.workload;

import io.rdmamon.agent.workload.PodResourcesDecoder.AssignedDevice;
import io.rdmamon.agent.workload.PodResourcesDecoder.Bounds;
import io.rdmamon.agent.workload.PodResourcesDecoder.BoundsExceeded;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pod-resources answers encoded by the real {@code protoc} ({@link Protoc}), decoded by the agent. */
class PodResourcesDecoderTest {
    /**
     * An SR-IOV pod holding two VFs and, through DRA claims, a NIC of dranet and a VF of dra-driver-sriov; a pod of the
     * shared RDMA plugin; and every field the agent skips.
     */
    static final String TWO_PODS = """
            pod_resources {
              name: "train-llama-0" namespace: "ml"
              containers {
                name: "worker"
                devices { resource_name: "intel.com/sriov_rdma" device_ids: "0000:3b:00.2" device_ids: "0000:3B:00.3"
                          topology { nodes { ID: 0 } } }
                devices { resource_name: "nvidia.com/gpu" device_ids: "GPU-8f6c2f4e" }
                cpu_ids: 4 cpu_ids: 5
                memory { memory_type: "memory" size: 1073741824 topology { nodes { ID: 0 } } }
                dynamic_resources { claim_name: "gpu-claim" claim_namespace: "ml"
                                    claim_resources { cdi_devices { name: "nvidia.com/gpu=0" } driver_name: "gpu.nvidia.com" } }
                dynamic_resources { claim_name: "rdma-nics" claim_namespace: "ml"
                                    claim_resources { driver_name: "dra.net" pool_name: "gpu-node-7" device_name: "pci-0000-8a-00-0"
                                                      cdi_devices { name: "dra.net/pci-0000-8a-00-0" } }
                                    claim_resources { device_name: "0000-8a-00-2" pool_name: "gpu-node-7"
                                                      driver_name: "sriovnetwork.k8snetworkplumbingwg.io" } }
              }
              containers { name: "sidecar" }
            }
            pod_resources {
              namespace: "infer" name: "bert-7d9f"
              containers { name: "server" devices { resource_name: "rdma/rdma_shared_device_a" device_ids: "0" } }
            }
            """;

    static final List<AssignedDevice> TWO_PODS_DEVICES = List.of(
            new AssignedDevice("ml", "train-llama-0", "worker", "intel.com/sriov_rdma", "0000:3b:00.2"),
            new AssignedDevice("ml", "train-llama-0", "worker", "intel.com/sriov_rdma", "0000:3B:00.3"),
            new AssignedDevice("ml", "train-llama-0", "worker", "nvidia.com/gpu", "GPU-8f6c2f4e"),
            // the DRA claims: the GPU claim names CDI devices only (no row), the NIC claim two devices in any field order
            new AssignedDevice("ml", "train-llama-0", "worker", "dra.net", "pci-0000-8a-00-0"),
            new AssignedDevice("ml", "train-llama-0", "worker", "sriovnetwork.k8snetworkplumbingwg.io", "0000-8a-00-2"),
            new AssignedDevice("infer", "bert-7d9f", "server", "rdma/rdma_shared_device_a", "0"));

    @Test
    void everyDeviceOfEveryContainerIsOneRow() throws Exception {
        assertEquals(TWO_PODS_DEVICES,
                PodResourcesDecoder.listResponse(Protoc.encode("ListPodResourcesResponse", TWO_PODS)));
    }

    @Test
    void anEmptyAnswerHoldsNoDevice() throws Exception {
        assertEquals(List.of(), PodResourcesDecoder.listResponse(Protoc.encode("ListPodResourcesResponse", "")));
    }

    @Test
    void fieldsOfANewerKubeletAreSkipped() throws Exception {
        byte[] known = Protoc.encode("ListPodResourcesResponse", TWO_PODS);
        // field 7 as a varint, field 8 as fixed64, field 9 as bytes, field 10 as fixed32: any a later API may add
        byte[] later = {7 << 3, 42, 8 << 3 | 1, 1, 2, 3, 4, 5, 6, 7, 8, 9 << 3 | 2, 2, 'h', 'i', 10 << 3 | 5, 1, 2, 3, 4};
        byte[] both = Arrays.copyOf(known, known.length + later.length);
        System.arraycopy(later, 0, both, known.length, later.length);
        assertEquals(TWO_PODS_DEVICES, PodResourcesDecoder.listResponse(both));
    }

    static Stream<byte[]> malformed() throws Exception {
        byte[] good = Protoc.encode("ListPodResourcesResponse", TWO_PODS);
        return Stream.of(
                Arrays.copyOf(good, good.length / 2),       // cut inside a pod
                new byte[]{1 << 3 | 2, 100, 1, 2},              // a length past the end
                new byte[]{(byte) 0x80, (byte) 0x80},           // a tag that never ends
                new byte[]{1 << 3 | 3},                         // a (deprecated) group
                new byte[]{0});                                 // field number 0
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void aMalformedAnswerIsRefusedWithItsOffset(byte[] bytes) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PodResourcesDecoder.listResponse(bytes));
        assertTrue(e.getMessage().startsWith("malformed protobuf at byte "), e.getMessage());
    }

    /** TWO_PODS holds 2 pods, 3 containers and 6 devices: each bound one short is named with what it left out. */
    static Stream<Arguments> bounds() {
        return Stream.of(
                Arguments.of(new Bounds(2, 3, 6), null),
                Arguments.of(new Bounds(1, 3, 6), "1 pods over 1"),
                Arguments.of(new Bounds(2, 2, 6), "1 containers over 2"),
                Arguments.of(new Bounds(2, 3, 5), "1 devices over 5"),
                // the second pod is not decoded, so its container and device are not counted
                Arguments.of(new Bounds(1, 1, 1), "1 pods over 1, 1 containers over 1, 4 devices over 1"));
    }

    @ParameterizedTest
    @MethodSource("bounds")
    void anAnswerBeyondABoundIsRefusedNamingWhatItHeldBeyond(Bounds bounds, String beyond) throws Exception {
        byte[] answer = Protoc.encode("ListPodResourcesResponse", TWO_PODS);
        if (beyond == null) {
            assertEquals(TWO_PODS_DEVICES, PodResourcesDecoder.listResponse(answer, bounds));
        } else {
            BoundsExceeded e = assertThrows(BoundsExceeded.class,
                    () -> PodResourcesDecoder.listResponse(answer, bounds));
            assertEquals("answer beyond the agent's bounds: " + beyond + " (none of it used)", e.getMessage());
        }
    }
}
