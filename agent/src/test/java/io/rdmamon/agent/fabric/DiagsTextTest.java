package io.rdmamon.agent.fabric;

import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.LinkSpeed;
import io.rdmamon.protocol.fabric.NodeType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The diags tools' outputs captured from ibsim (fixtures/fabric/README.md) read into the fabric model. */
class DiagsTextTest {
    private static String fixture(String name) throws IOException {
        return Files.readString(Fixtures.root("fabric").resolve(name));
    }

    private static List<FabricNode> nodes(List<String> problems) throws Exception {
        DiscoveredFabric fabric = IbNetDiscoverText.parse(fixture("ibnetdiscover.txt"));
        return FabricAssembler.nodes(fabric, IbLinkInfoText.parse(fixture("iblinkinfo.txt")),
                IbQueryErrorsText.parse(fixture("ibqueryerrors-errors.txt")),
                IbQueryErrorsText.parse(fixture("ibqueryerrors-counters.txt")), problems);
    }

    private static FabricNode node(List<FabricNode> nodes, String description) {
        return nodes.stream().filter(n -> n.description().equals(description)).findFirst().orElseThrow();
    }

    @Test
    void ibnetdiscoverNamesEveryNodeAndLink() throws Exception {
        DiscoveredFabric fabric = IbNetDiscoverText.parse(fixture("ibnetdiscover.txt"));
        assertEquals("0x0000000000100000", fabric.fromGuid());
        assertEquals(8, fabric.nodes().size());
        DiscoveredFabric.Node leaf2 = fabric.node("0x0000000000200001");
        assertEquals(new DiscoveredFabric.Node("0x0000000000200001", NodeType.SWITCH, 8, "leaf2", 3, leaf2.ports()),
                leaf2);
        assertEquals(new DiscoveredFabric.Port(2, null, null, "0x0000000000100006", 1, 1, LinkSpeed.SDR),
                leaf2.ports().get(1));
        DiscoveredFabric.Node h4 = fabric.node("0x0000000000100006");
        assertEquals(List.of(new DiscoveredFabric.Port(1, "0x0000000000100007", 8, "0x0000000000200001", 2, 1,
                LinkSpeed.SDR)), h4.ports());
        assertEquals(new PortKey("0x0000000000100006", 1), fabric.resolve(new PortKey("0x0000000000100007", 1)));
    }

    @Test
    void iblinkinfoGivesEveryPortsState() throws Exception {
        Map<PortKey, IbLinkInfoText.Line> lines = IbLinkInfoText.parse(fixture("iblinkinfo.txt"));
        assertEquals(36, lines.size());
        assertEquals(new IbLinkInfoText.Line(8, 4, 5, 1, LinkSpeed.SDR, 12, LinkSpeed.QDR),
                lines.get(new PortKey("0x0000000000100007", 1)));
        assertEquals(new IbLinkInfoText.Line(3, 1, 2, null, null, null, null),
                lines.get(new PortKey("0x0000000000200001", 3)));
    }

    @Test
    void theModelJoinsStatesLinksAndCounters() throws Exception {
        List<String> problems = new ArrayList<>();
        List<FabricNode> nodes = nodes(problems);
        assertEquals(List.of(), problems);
        FabricNode leaf1 = node(nodes, "leaf1");
        assertEquals(8, leaf1.ports().size(), "linked and down ports");
        FabricPort toSpine = leaf1.port(5).orElseThrow();
        assertEquals("0x0000000000200002", toSpine.remoteGuid());
        assertEquals(1, toSpine.remotePort());
        assertEquals(50L, toSpine.counters().get("SymbolErrorCounter"));
        assertEquals(3L, toSpine.counters().get("VL15Dropped"));
        assertEquals(0L, toSpine.counters().get("LinkDownedCounter"), "not printed: read as 0");
        assertTrue(toSpine.counters().get("PortXmitData") > 0);
        assertEquals(List.of("PortCounters", "PortCountersExtended"), toSpine.counterSets());
        assertTrue(toSpine.up());
        FabricPort down = leaf1.port(3).orElseThrow();
        assertEquals("Down", down.state());
        assertEquals("Polling", down.physState());
        assertNull(down.width());
        FabricPort h2 = node(nodes, "h2").port(1).orElseThrow();
        assertEquals(1234L, h2.counters().get("PortXmitWait"), "an HCA's port named by its port GUID");
        assertEquals(5, h2.lid());
        FabricPort h4 = node(nodes, "h4").port(1).orElseThrow();
        assertEquals(1, h4.width());
        assertEquals(List.of(12), h4.widthsSupported());
        assertEquals(List.of(LinkSpeed.QDR), h4.speedsSupported());
    }

    @Test
    void aNodeMissingFromTheCountersIsNamed() throws Exception {
        String counters = fixture("ibqueryerrors-counters.txt");
        String withoutH3 = String.join("\n", counters.lines()
                .filter(l -> !l.contains("0x100004")).toList());
        List<String> problems = new ArrayList<>();
        DiscoveredFabric fabric = IbNetDiscoverText.parse(fixture("ibnetdiscover.txt"));
        List<FabricNode> nodes = FabricAssembler.nodes(fabric, IbLinkInfoText.parse(fixture("iblinkinfo.txt")),
                IbQueryErrorsText.parse(fixture("ibqueryerrors-errors.txt")), IbQueryErrorsText.parse(withoutH3),
                problems);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("0x0000000000100004 \"h3\""), problems.get(0));
        assertEquals(Map.of(), node(nodes, "h3").port(1).orElseThrow().counters());
        assertEquals(8, nodes.size(), "the node is still in the topology");
    }

    /** The sweep reads the data counters in two passes, switches and the rest, and joins them. */
    @Test
    void theDataCountersOfTwoPassesOverOtherNodesJoinIntoOne() throws Exception {
        String whole = fixture("ibqueryerrors-counters.txt");
        IbQueryErrorsText.Result switches = IbQueryErrorsText.parse(pass(whole, "0x2"));
        IbQueryErrorsText.Result hosts = IbQueryErrorsText.parse(pass(whole, "0x1"));
        IbQueryErrorsText.Result joined = switches.and(hosts);
        IbQueryErrorsText.Result expected = IbQueryErrorsText.parse(whole);
        assertEquals(expected.counters(), joined.counters());
        assertEquals(36, joined.portsChecked());
        assertEquals(expected.portsChecked(), joined.portsChecked());
        assertTrue(switches.counters().size() > 0 && hosts.counters().size() > 0, "both passes read ports");
    }

    /** One node type's part of a {@code --counters} output (its nodes' GUIDs begin with {@code guidPrefix}). */
    private static String pass(String whole, String guidPrefix) {
        List<String> lines = new ArrayList<>();
        boolean keep = false;
        for (String line : whole.lines().toList()) {
            if (line.startsWith("Data Counters for ")) {
                keep = line.startsWith("Data Counters for " + guidPrefix);
            } else if (line.startsWith("##") || line.isBlank()) {
                break;
            }
            if (keep) {
                lines.add(line);
            }
        }
        long ports = lines.stream().filter(l -> l.stripLeading().startsWith("GUID ")).count();
        lines.add("## Summary: 4 nodes checked, 0 bad nodes found");
        lines.add("##          " + ports + " ports checked, 0 ports have errors beyond threshold");
        return String.join("\n", lines) + "\n";
    }

    @Test
    void smpqueryGivesTheSubnet() throws Exception {
        assertEquals(new PortInfoText("0xfe80000000000000", 1), PortInfoText.parse(fixture("smpquery-portinfo.txt")));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "ibnetdiscover|Switch\t8 \"S-0000000000200001\"|Switch\t8 \"S-00000000002000zz\"|not a node header",
            "ibnetdiscover|[5]\t\"S-0000000000200002\"[2]|[5]\t\"S-0000000000200002\"[x]|not a port line",
            "iblinkinfo|Active/  LinkUp|Active/  Linky|unknown port state",
            "iblinkinfo|==(|=(|not a port line",
            "ibqueryerrors|[PortXmitWait == 1234]|[PortXmitWait = 1234]|not a list of [Counter == value]",
    })
    void aMalformedLineIsNamed(String tool, String from, String to, String reason) throws Exception {
        String file = switch (tool) {
            case "ibnetdiscover" -> "ibnetdiscover.txt";
            case "iblinkinfo" -> "iblinkinfo.txt";
            default -> "ibqueryerrors-errors.txt";
        };
        String text = fixture(file);
        assertTrue(text.contains(from), from);
        String bad = text.replace(from, to);
        FabricTextException e = assertThrows(FabricTextException.class, () -> {
            switch (tool) {
                case "ibnetdiscover" -> IbNetDiscoverText.parse(bad);
                case "iblinkinfo" -> IbLinkInfoText.parse(bad);
                default -> IbQueryErrorsText.parse(bad);
            }
        });
        assertTrue(e.getMessage().startsWith(tool + " output line ") && e.getMessage().contains(reason),
                e.getMessage());
    }

    @Test
    void aTruncatedOutputIsRefused() throws Exception {
        String counters = fixture("ibqueryerrors-counters.txt");
        // cut at a line's end: a cut inside a line is refused as that line
        String cut = counters.substring(0, counters.lastIndexOf('\n', counters.length() / 2) + 1);
        FabricTextException e = assertThrows(FabricTextException.class, () -> IbQueryErrorsText.parse(cut));
        assertTrue(e.getMessage().contains("cut short"), e.getMessage());
        FabricTextException empty = assertThrows(FabricTextException.class, () -> IbNetDiscoverText.parse(""));
        assertTrue(empty.getMessage().contains("no node"), empty.getMessage());
    }
}
