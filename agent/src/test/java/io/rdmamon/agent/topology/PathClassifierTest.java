package io.rdmamon.agent.topology;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Table tests of the path classifier: each row is a GPU and a NIC given as {@code hostBridge/bridge/…/function} and
 * a NUMA node, the class NCCL computes for them (its parent two sysfs levels up, xml.cc) and the bridges on the path.
 */
class PathClassifierTest {

    @ParameterizedTest(name = "{0} ↔ {2}: {4}")
    @CsvSource(delimiter = ';', value = {
            // different downstream ports of one switch (DSP, USP, DSP): one switch to NCCL, PIX
            "pci0000:39/0000:39:01.0/0000:3a:00.0/0000:3b:00.0/0000:3c:00.0; 0; pci0000:39/0000:39:01.0/0000:3a:00.0/0000:3b:01.0/0000:3d:00.0; 0; PIX; 0000:3b:00.0,0000:3a:00.0,0000:3b:01.0",
            // two functions of one card right below one root port: PIX (its ports are one NIC to NCCL)
            "pci0000:00/0000:00:01.0/0000:01:00.0; 0; pci0000:00/0000:00:01.0/0000:01:00.1; 0; PIX; 0000:00:01.0",
            // two cards right below one root port: NCCL's parent of each is the CPU, PHB
            "pci0000:00/0000:00:01.0/0000:01:00.0; 0; pci0000:00/0000:00:01.0/0000:01:01.0; 0; PHB; 0000:00:01.0",
            // a GPU behind a second switch on a port of the first, the NIC on the first: switch → switch, PXB
            "pci0000:39/0000:39:01.0/0000:3a:00.0/0000:3b:00.0/0000:3c:00.0/0000:3d:00.0/0000:3e:00.0; 0; pci0000:39/0000:39:01.0/0000:3a:00.0/0000:3b:01.0/0000:40:00.0; 0; PXB; 0000:3d:00.0,0000:3c:00.0,0000:3b:00.0,0000:3a:00.0,0000:3b:01.0",
            // two root ports of one host bridge
            "pci0000:00/0000:00:01.0/0000:01:00.0; 0; pci0000:00/0000:00:1c.0/0000:02:00.0; 0; PHB; 0000:00:01.0,0000:00:1c.0",
            // two host bridges on one NUMA node
            "pci0000:17/0000:17:01.0/0000:18:00.0/0000:19:00.0; 0; pci0000:38/0000:38:01.0/0000:39:00.0/0000:3a:02.0; 0; NODE; 0000:18:00.0,0000:17:01.0,0000:38:01.0,0000:39:00.0",
            // two sockets
            "pci0000:17/0000:17:01.0/0000:19:00.0; 0; pci0000:97/0000:97:01.0/0000:99:02.0; 1; SYS; 0000:17:01.0,0000:97:01.0",
            // NUMA not reported (-1): two host bridges are NODE, never guessed SYS
            "pci0000:17/0000:17:01.0/0000:19:00.0; -1; pci0000:97/0000:97:01.0/0000:99:02.0; 1; NODE; 0000:17:01.0,0000:97:01.0",
    })
    void classifies(String gpuPath, int gpuNuma, String nicPath, int nicNuma, PathType expected, String bridges) {
        PathClassifier.PairPath path = PathClassifier.classify(endpoint(gpuPath, gpuNuma), endpoint(nicPath, nicNuma));

        assertEquals(expected, path.type());
        assertEquals(Arrays.asList(bridges.split(",")), path.bridges().stream().map(PciNode::address).toList());
    }

    @ParameterizedTest(name = "{0}: NCCL {1}, GDR by default {2}")
    @CsvSource({"PIX, PIX, true", "PXB, PXB, true", "PHB, PHB, false", "NODE, PHB, false", "SYS, SYS, false"})
    void ncclView(PathType type, String nccl, boolean gdr) {
        assertEquals(nccl, type.nccl());
        assertEquals(gdr, type.ncclUsesGdrByDefault());
    }

    static Endpoint endpoint(String path, int numa) {
        List<String> parts = Arrays.asList(path.split("/"));
        Integer node = numa < 0 ? null : numa;
        List<PciNode> bridges = new java.util.ArrayList<>();
        for (int i = parts.size() - 2; i >= 1; i--) {
            bridges.add(node(parts.get(i), node));
        }
        return new Endpoint(parts.get(parts.size() - 1), "X", Endpoint.Kind.GPU, node(parts.get(parts.size() - 1), node),
                bridges, parts.get(0));
    }

    static PciNode node(String address, Integer numa) {
        return new PciNode(address, "0x10de", "0x2330", "0x030200", numa, null, null, ConfigFacts.absent(), null, null);
    }
}
