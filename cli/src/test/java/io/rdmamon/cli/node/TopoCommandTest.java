package io.rdmamon.cli.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.agent.topology.PciTree;
import io.rdmamon.agent.topology.TopologyFixtures;
import io.rdmamon.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rdmamon topo} on host roots of real topologies; the matrices expected here are written by hand from the
 * published layouts (see {@link TopologyFixtures}), not from this code's output.
 */
class TopoCommandTest {

    /**
     * The HGX-class box. The GPU×NIC block (rows GPU0–GPU7, columns NIC0–NIC7) and the NIC×NIC block are the
     * {@code nvidia-smi topo -m} of kubernetes-sigs/dranet's GKE A4 guide verbatim; GPU×GPU, where nvidia-smi prints
     * NV18, is the PCIe path of the layout (NVLink is not read from sysfs); NIC8/NIC9 (the front-end card on its own
     * root port of socket 1) follow the H20 capture's NIC8–NIC10: NODE to socket 1, SYS to socket 0, PIX between
     * themselves.
     */
    private static final String HGX_NVIDIA_SMI = """
                    GPU0    GPU1    GPU2    GPU3    GPU4    GPU5    GPU6    GPU7    NIC0    NIC1    NIC2    NIC3    NIC4    NIC5    NIC6    NIC7    NIC8    NIC9    CPU Affinity    NUMA Affinity
            GPU0     X      PIX     NODE    NODE    SYS     SYS     SYS     SYS     PIX     PIX     NODE    NODE    SYS     SYS     SYS     SYS     SYS     SYS     0-55,112-167    0
            GPU1    PIX      X      NODE    NODE    SYS     SYS     SYS     SYS     PIX     PIX     NODE    NODE    SYS     SYS     SYS     SYS     SYS     SYS     0-55,112-167    0
            GPU2    NODE    NODE     X      PIX     SYS     SYS     SYS     SYS     NODE    NODE    PIX     PIX     SYS     SYS     SYS     SYS     SYS     SYS     0-55,112-167    0
            GPU3    NODE    NODE    PIX      X      SYS     SYS     SYS     SYS     NODE    NODE    PIX     PIX     SYS     SYS     SYS     SYS     SYS     SYS     0-55,112-167    0
            GPU4    SYS     SYS     SYS     SYS      X      PIX     NODE    NODE    SYS     SYS     SYS     SYS     PIX     PIX     NODE    NODE    NODE    NODE    56-111,168-223  1
            GPU5    SYS     SYS     SYS     SYS     PIX      X      NODE    NODE    SYS     SYS     SYS     SYS     PIX     PIX     NODE    NODE    NODE    NODE    56-111,168-223  1
            GPU6    SYS     SYS     SYS     SYS     NODE    NODE     X      PIX     SYS     SYS     SYS     SYS     NODE    NODE    PIX     PIX     NODE    NODE    56-111,168-223  1
            GPU7    SYS     SYS     SYS     SYS     NODE    NODE    PIX      X      SYS     SYS     SYS     SYS     NODE    NODE    PIX     PIX     NODE    NODE    56-111,168-223  1
            NIC0    PIX     PIX     NODE    NODE    SYS     SYS     SYS     SYS      X      PIX     NODE    NODE    SYS     SYS     SYS     SYS     SYS     SYS     0-55,112-167    0
            NIC1    PIX     PIX     NODE    NODE    SYS     SYS     SYS     SYS     PIX      X      NODE    NODE    SYS     SYS     SYS     SYS     SYS     SYS     0-55,112-167    0
            NIC2    NODE    NODE    PIX     PIX     SYS     SYS     SYS     SYS     NODE    NODE     X      PIX     SYS     SYS     SYS     SYS     SYS     SYS     0-55,112-167    0
            NIC3    NODE    NODE    PIX     PIX     SYS     SYS     SYS     SYS     NODE    NODE    PIX      X      SYS     SYS     SYS     SYS     SYS     SYS     0-55,112-167    0
            NIC4    SYS     SYS     SYS     SYS     PIX     PIX     NODE    NODE    SYS     SYS     SYS     SYS      X      PIX     NODE    NODE    NODE    NODE    56-111,168-223  1
            NIC5    SYS     SYS     SYS     SYS     PIX     PIX     NODE    NODE    SYS     SYS     SYS     SYS     PIX      X      NODE    NODE    NODE    NODE    56-111,168-223  1
            NIC6    SYS     SYS     SYS     SYS     NODE    NODE    PIX     PIX     SYS     SYS     SYS     SYS     NODE    NODE     X      PIX     NODE    NODE    56-111,168-223  1
            NIC7    SYS     SYS     SYS     SYS     NODE    NODE    PIX     PIX     SYS     SYS     SYS     SYS     NODE    NODE    PIX      X      NODE    NODE    56-111,168-223  1
            NIC8    SYS     SYS     SYS     SYS     NODE    NODE    NODE    NODE    SYS     SYS     SYS     SYS     NODE    NODE    NODE    NODE     X      PIX     56-111,168-223  1
            NIC9    SYS     SYS     SYS     SYS     NODE    NODE    NODE    NODE    SYS     SYS     SYS     SYS     NODE    NODE    NODE    NODE    PIX      X      56-111,168-223  1
            """;

    /** A GPU's {@code numa_node} holding terminal escapes is printed with them made visible, never raw. */
    @Test
    void hostTextReachesTheTerminalEscaped(@TempDir Path root) throws IOException {
        TopologyFixtures.consumer(root);
        Path gpu = root.resolve("sys/bus/pci/devices/0000:01:00.0").toRealPath();
        Files.writeString(gpu.resolve("numa_node"), "\u001b]0;pwned\u0007\u001b[2J\r1");

        CliRun run = CliRun.of("topo", "--host-root", root.toString());

        String printed = run.out() + run.err();
        assertTrue(printed.contains("\\x1b]0;pwned"), run::toString);
        assertTrue(printed.chars().noneMatch(c -> c == 0x1b || c == 0x07 || c == '\r'), run::toString);
    }

    @Test
    void hgxMatrixIsTheOneNvidiaSmiPrintsForTheLayout(@TempDir Path root) {
        TopologyFixtures.hgx(root);

        CliRun run = CliRun.of("topo", "--host-root", root.toString());

        assertEquals(0, run.exitCode(), run::toString);
        List<String> lines = run.out().lines().toList();
        assertEquals(cells(HGX_NVIDIA_SMI), cells(String.join("\n", lines.subList(0, 19))));
        String out = run.out();
        assertTrue(out.contains("\nNIC Legend:\n\n  NIC0: mlx5_0\n  NIC1: mlx5_1\n"), out);
        assertTrue(out.contains("  NIC9: mlx5_9\n"), out);
        assertTrue(out.contains("  GPU0 → mlx5_0, mlx5_1 (PIX): good\n"), out);
        assertTrue(out.contains("  GPU7 → mlx5_6, mlx5_7 (PIX): good\n"), out);
        assertTrue(out.contains("  GPU0↔mlx5_0\tPIX\tready\n  GPU0↔mlx5_1\tPIX\tready\n  GPU0↔mlx5_2\tNODE\tnot_ready\n"
                + "\tGPU0↔mlx5_2 path NODE (PHB to NCCL): NCCL will not use GPUDirect RDMA (NCCL_NET_GDR_LEVEL default PXB)\n"),
                out);
        assertTrue(out.contains("  peermem:\tsys/module/nvidia_peermem\n  cmdline:\tiommu=pt intel_iommu=on\n"), out);
    }

    @Test
    void consumerBoxPrintsExactlyThis(@TempDir Path root) {
        TopologyFixtures.consumer(root);

        CliRun run = CliRun.of("topo", "--host-root", root.toString());

        assertEquals(0, run.exitCode(), run::toString);
        // nvidia-smi topo -m on a desktop with the GPU and the NIC in two root-port slots: PHB both ways
        assertEquals("""
                \tGPU0\tNIC0\tCPU Affinity\tNUMA Affinity
                GPU0\t X \tPHB\t0-7\t0
                NIC0\tPHB\t X \t0-7\t0

                Legend:

                  X    = Self
                  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)
                  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node
                  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)
                  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)
                  PIX  = Connection traversing at most a single PCIe bridge

                NIC Legend:

                  NIC0: mlx5_0

                GPUDirect RDMA (NCCL's pick: the closest NIC; GDR at NCCL_NET_GDR_LEVEL default PXB):
                  GPU0 → mlx5_0 (PHB): bad: no NIC within PXB, NCCL will not use GPUDirect RDMA

                Pairs:
                  GPU0↔mlx5_0\tPHB\tnot_ready
                \tGPU0↔mlx5_0 path PHB: NCCL will not use GPUDirect RDMA (NCCL_NET_GDR_LEVEL default PXB)

                Host:
                  peermem:\tsys/module/nvidia_peermem
                  cmdline:\tno IOMMU or PCI settings
                """, run.out());
    }

    @Test
    void jsonCarriesTheBridgesAcsBitsAndVerdicts(@TempDir Path root) throws IOException {
        TopologyFixtures.switched(root, PciTree.ACS_REDIRECT);

        CliRun run = CliRun.of("topo", "--json", "--host-root", root.toString());
        JsonNode json = new ObjectMapper().readTree(run.out());

        assertEquals(0, run.exitCode(), run::toString);
        assertEquals("PIX", json.get("matrix").get("GPU0").get("mlx5_0").asText(), "one switch between them");
        assertEquals("X", json.get("matrix").get("mlx5_0").get("mlx5_0").asText());
        JsonNode nicPort = json.get("nics").get(0).get("bridges").get(0);
        assertEquals("0000:3b:01.0", nicPort.get("address").asText());
        assertEquals("0011101", nicPort.get("acs").asText());
        JsonNode pair = json.get("pairs").get(0);
        assertEquals("not_ready", pair.get("verdict").asText());
        assertEquals("PIX", pair.get("ncclPath").asText());
        assertTrue(pair.get("ncclUsesGdr").asBoolean());
        assertTrue(pair.get("reasons").get(0).asText().startsWith("ACS P2P Request Redirect"));
        assertEquals(true, json.get("nics").get(0).get("function").get("relaxedOrdering").asBoolean());
        assertEquals(4096, json.get("nics").get(0).get("function").get("maxReadRequestBytes").asInt());
    }

    @Test
    void unprivilegedReadSaysUnknownPerFact(@TempDir Path root) throws IOException {
        TopologyFixtures.unprivileged(root);

        CliRun run = CliRun.of("topo", "--host-root", root.toString());
        JsonNode json = new ObjectMapper().readTree(CliRun.of("topo", "--json", "--host-root", root.toString()).out());

        assertTrue(run.out().contains("  GPU0↔mlx5_0\tPIX\tdegraded\n\tunknown: ACS of bridge 0000:3b:00.0: config space "
                + "beyond 64 bytes not readable (needs root)\n"), run.out());
        JsonNode nic = json.get("nics").get(0).get("function");
        assertEquals("config space beyond 64 bytes not readable (needs root)", nic.get("configUnknown").asText());
        assertTrue(nic.get("relaxedOrdering") == null, nic::toString);
        assertTrue(nic.get("acs") == null, nic::toString);
    }

    @Test
    void aRootWithoutAPciTreeIsBadInput(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("sys/class/infiniband"));

        CliRun run = CliRun.of("topo", "--host-root", root.toString());
        CliRun missing = CliRun.of("topo", "--host-root", root.resolve("nope").toString());

        assertEquals(2, run.exitCode());
        assertArrayEquals(new String[] {"rdmamon: --host-root " + root + ": no sys/bus/pci/devices (no PCI tree to read)"},
                run.errLines());
        assertEquals(2, missing.exitCode());
    }

    @Test
    void helpDescribesTheMatrix() {
        CliRun run = CliRun.of("topo", "--help");

        assertEquals(0, run.exitCode());
        assertTrue(run.out().contains("nvidia-smi topo -m"), run.out());
        assertTrue(run.out().contains("--host-root"), run.out());
        assertTrue(run.out().contains("--json"), run.out());
    }

    /** The rows of a matrix as cell lists, whitespace-separated (so nvidia-smi's spaces and rdmamon's tabs agree). */
    private static List<List<String>> cells(String matrix) {
        List<List<String>> rows = new ArrayList<>();
        for (String line : matrix.strip().split("\n")) {
            rows.add(Arrays.asList(line.strip().split("\\s+")));
        }
        return rows;
    }
}
