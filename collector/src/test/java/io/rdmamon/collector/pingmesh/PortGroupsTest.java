package io.rdmamon.collector.pingmesh;

import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.LldpNeighbor;
import io.rdmamon.protocol.testing.Samples;
import io.rdmamon.collector.fabric.FabricStore;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.testing.FabricSweeps;
import io.rdmamon.protocol.wire.FabricWire;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class PortGroupsTest {
    private static final IbPort PORT = Samples.rocePort().build();
    private static final List<GroupRule> RULES = List.of(
            GroupRule.of("rack-a", List.of("gpu-a*", "storage-01"), "pingmesh.groups.rack-a"),
            GroupRule.of("rack-all-gpu", List.of("gpu-*"), "pingmesh.groups.rack-all-gpu"));

    /** Configuration first (the first matching rule), then the LLDP switch, then the fleet. */
    @ParameterizedTest
    @CsvSource(nullValues = "-", textBlock = """
            gpu-a01    | leaf-01 | rack-a       | config
            storage-01 | leaf-01 | rack-a       | config
            storage-011| leaf-02 | leaf-02      | lldp
            gpu-b01    | leaf-01 | rack-all-gpu | config
            cpu-01     | leaf-03 | leaf-03      | lldp
            cpu-01     | ' '     | fleet        | fleet
            cpu-01     | -       | fleet        | fleet
            cpu-01     | fleet   | lldp:fleet   | lldp
            cpu-01     | ' fleet	' | lldp:fleet | lldp
            cpu-01     | Fleet   | Fleet        | lldp
            cpu-01     | lldp:fleet | lldp:lldp:fleet | lldp
            cpu-01     | lldp:x  | lldp:lldp:x  | lldp
            cpu-01     | fleet-2 | fleet-2      | lldp
            """, delimiter = '|')
    void aPortsGroupAndItsSource(String node, String lldp, String group, String source) {
        PortGroups groups = new PortGroups(RULES);
        // a neighbour naming the switch in both its ids; blank ids are no ids (LldpNeighbor drops them)
        IbPort port = lldp == null ? PORT : PORT.withNeighbor(new LldpNeighbor(lldp, "local", lldp, "Ethernet8",
                "ifname", null));
        assertEquals(new PortGroups.Group(group, PortGroups.Source.valueOf(source.toUpperCase())), groups.of(node, port));
        assertEquals(source, groups.of(node, port).source().jsonName());
    }

    @Test
    void aNeighbourWithoutASystemNameIsGroupedByItsChassisId() {
        IbPort port = PORT.withNeighbor(new LldpNeighbor("1c:34:da:00:00:07", "mac", null, "Ethernet8", "ifname", null));
        assertEquals(new PortGroups.Group("1c:34:da:00:00:07", PortGroups.Source.LLDP),
                new PortGroups(RULES).of("cpu-01", port));
    }

    /**
     * An InfiniBand port without LLDP is grouped by the leaf switch a swept fabric cables it to; configuration and
     * LLDP still win, and a port no fabric holds is the fleet's.
     */
    @Test
    void anInfinibandPortIsGroupedByItsLeafSwitch() {
        FabricStore fabrics = new FabricStore(System::currentTimeMillis);
        FabricWire.parts(FabricSweeps.leafAndTwoHosts("s1"), 8).forEach(part -> fabrics.accept("s1", part));
        PortGroups groups = new PortGroups(RULES, fabrics);
        IbDevice h2 = new IbDevice("mlx5_0", IbDevice.NODE_TYPE_CA, "CA", "0000:0000:0010:0002", null, null, null, null,
                List.of(PORT));
        IbDevice elsewhere = new IbDevice("mlx5_1", IbDevice.NODE_TYPE_CA, "CA", "0000:0000:0099:0002", null, null,
                null, null, List.of(PORT));
        assertEquals(new PortGroups.Group("ib:leaf1", PortGroups.Source.FABRIC), groups.of("cpu-01", h2, PORT));
        assertEquals("fabric", groups.of("cpu-01", h2, PORT).source().jsonName());
        assertEquals(PortGroups.Source.FLEET, groups.of("cpu-01", elsewhere, PORT).source());
        assertEquals(PortGroups.Source.LLDP, groups.of("cpu-01", h2, PORT.withNeighbor(new LldpNeighbor("sw1", "local",
                "sw1", "Ethernet8", "ifname", null))).source());
        // an LLDP switch whose name looks like a fabric group stays apart from it
        assertEquals("lldp:ib:leaf1", groups.of("cpu-01", PORT.withNeighbor(new LldpNeighbor("ib:leaf1", "local",
                "ib:leaf1", "Ethernet8", "ifname", null))).name());
    }

    /** A switch named {@code fleet} stays a group of its own, apart from the ports nothing places. */
    @Test
    void aSwitchNamedFleetIsNotTheFleet() {
        PortGroups groups = new PortGroups(List.of());
        PortGroups.Group behindSwitch = groups.of("cpu-01", PORT.withNeighbor(new LldpNeighbor("fleet", "local", "fleet",
                "Ethernet8", "ifname", null)));
        PortGroups.Group unplaced = groups.of("cpu-02", PORT);
        assertEquals(PortGroups.FLEET, unplaced.name());
        assertNotEquals(unplaced.name(), behindSwitch.name());
        assertEquals(PortGroups.Source.LLDP, behindSwitch.source());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            gpu-*1     | gpu-01  | true
            gpu-*1     | gpu-10  | false
            *          | any.node| true
            a*b*c      | aXbYc   | true
            a.b        | aXb     | false
            """)
    void globsMatchWholeNodeNamesWithStarForAnyRun(String glob, String node, boolean matches) {
        assertEquals(matches, GroupRule.of("g", List.of(glob), "g").matches(node));
    }
}
