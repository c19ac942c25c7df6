package io.rdmamon.agent.sim;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.agent.lldp.LldpctlJson;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.LldpNeighbor;
import io.rdmamon.protocol.model.SourceStatus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The simulated hosts' LLDP captures (issue 24): every Ethernet port names its node's leaf and the leaf port it is
 * cabled to, in lldpctl's own format, so the agent reads them as it reads a real capture; InfiniBand ports have none.
 */
class SimulatedLldpTest {
    @TempDir
    static Path base;
    static FabricSimulator simulator;

    @BeforeAll
    static void createFleet() throws IOException {
        // nodes 1-4: RoCE, RoCE, InfiniBand, eRDMA (FleetPlan); leaves: leaf-01 for nodes 1 and 2, leaf-02 for 3 and 4
        simulator = FabricSimulator.create(base, SimulationSpec.of(4, Scenario.HEALTHY));
    }

    private static SimulatedNode node(int index) {
        return simulator.nodes().get(index - 1);
    }

    private static List<IbPort> ports(SimulatedNode node) {
        try {
            HostSample sample = HostReader.forRoot(node.hostRoot()).read(node.name());
            assertTrue(sample.sources().stream().allMatch(SourceStatus::success), sample.sources().toString());
            return sample.devices().stream().flatMap(d -> d.ports().stream()).toList();
        } catch (io.rdmamon.agent.host.HostRootException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void roCePortsNameTheirLeafAndTheLeafPortInDeviceOrder() {
        SimulatedNode first = node(1);
        assertEquals(NodeKind.ROCE_MLX5, first.kind());
        List<IbPort> ports = ports(first);
        assertEquals(List.of(
                        new LldpNeighbor("1c:34:da:00:00:01", "mac", "leaf-01", "Ethernet0", "ifname",
                                first.name() + ":ens1f0np0"),
                        new LldpNeighbor("1c:34:da:00:00:01", "mac", "leaf-01", "Ethernet4", "ifname",
                                first.name() + ":ens1f1np1")),
                ports.stream().map(IbPort::neighbor).toList());

        SimulatedNode second = node(2);
        assertEquals(NodeKind.ROCE_MLX5, second.kind());
        assertEquals(List.of("leaf-01 1c:34:da:00:00:01 Ethernet64", "leaf-01 1c:34:da:00:00:01 Ethernet68"),
                ports(second).stream().map(p -> p.neighbor().systemName() + " " + p.neighbor().chassisId() + " "
                        + p.neighbor().portId()).toList(), "the leaf's second slot of 16 ports");
    }

    @Test
    void theErdmaNetdevHasItsLeafToo() {
        SimulatedNode fourth = node(4);
        assertEquals(NodeKind.ERDMA, fourth.kind());
        assertEquals(new LldpNeighbor("1c:34:da:00:00:02", "mac", "leaf-02", "Ethernet64", "ifname",
                fourth.name() + ":eth0"), ports(fourth).get(0).neighbor());
    }

    @Test
    void infinibandPortsHaveNoLldp() {
        SimulatedNode third = node(3);
        assertEquals(NodeKind.INFINIBAND_MLX5, third.kind());
        assertFalse(Files.exists(third.hostRoot().resolve("lldp")));
        ports(third).forEach(p -> assertNull(p.neighbor()));
    }

    @Test
    void theCaptureIsLldpctlsOneInterfaceShape() throws IOException {
        String json = Files.readString(node(1).hostRoot().resolve("lldp/ens1f0np0.json"));

        assertTrue(json.contains("\"interface\" : {\n      \"ens1f0np0\" : {"), json);
        assertTrue(json.contains("\"leaf-01\" : {"), json);
        assertEquals(List.of("ens1f0np0"), List.copyOf(LldpctlJson.parse(json).keySet()));
        assertEquals(Map.of("ens1f0np0", LldpctlJson.parse(json).get("ens1f0np0")), LldpctlJson.parse(json));
    }
}
