package io.rdmamon.agent.fabric;

import io.rdmamon.protocol.fabric.FabricLink;
import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.fabric.PmaCounters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The proof on a simulated subnet (docs/fabric.md): a small two-level fat tree in ibsim, LIDs from the real opensm,
 * swept by rdmamon, agrees with infiniband-diags on every node, cable, port state, width, speed and counter. The
 * references are read another way than the sweep reads them: the cables from the net file and {@code ibnetdiscover
 * -p}, each port's state, width and speed from {@code smpquery portinfo LID PORT}, each counter from
 * {@code perfquery} and {@code perfquery -x} of that LID and port. A node made silent on ibsim's console
 * ({@code Error "node" 100}) is named and skipped.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IbsimFabricTest {
    private static final FatTreeNetFile TREE = new FatTreeNetFile(3, 3, 2, 1, "h2-1");
    private static final Pattern PORTINFO = Pattern.compile("(?m)^(\\w+):\\.+(.*)$");
    private static final Pattern PERF = Pattern.compile("(?m)^(\\w+):\\.+(\\d+)$");

    @TempDir
    static Path dir;
    private static Ibsim ibsim;
    private static DiagsFabricReader reader;
    private static FabricSweep sweep;

    @BeforeAll
    static void sweepTheSubnet() throws Exception {
        Assumptions.assumeTrue(Ibsim.installed(), "ibsim-utils, opensm and infiniband-diags are not installed "
                + "(scripts/test.sh installs them)");
        ibsim = new Ibsim(dir, TREE.text());
        ibsim.console("PerformanceSet \"leaf1\"[4] PortCounters.SymbolErrorCounter=50", "has been set to 50");
        ibsim.console("PerformanceSet \"spine0\"[2] PortCounters.LinkErrorRecoveryCounter=7", "has been set to 7");
        ibsim.console("PerformanceSet \"spine0\"[2] PortCounters.LinkDownedCounter=3", "has been set to 3");
        ibsim.console("PerformanceSet \"h0-2\"[1] PortCounters.PortXmitWait=123456", "has been set to 123456");
        ibsim.console("PerformanceSet \"leaf2\"[1] PortCounters.PortRcvErrors=11", "has been set to 11");
        reader = new DiagsFabricReader(new FabricOptions(null, null, Duration.ofSeconds(30), Duration.ofSeconds(15),
                Duration.ofMinutes(5), ibsim.environment()), Clock.systemUTC());
        sweep = reader.sweep("h0-0", true);
    }

    @AfterAll
    static void stop() throws Exception {
        if (ibsim != null) {
            ibsim.close();
        }
    }

    @Test
    void everyNodeAndCableOfTheNetFileAndOfIbnetdiscover() throws Exception {
        assertEquals(List.of(), sweep.problems());
        assertTrue(sweep.success());
        assertEquals("0xfe80000000000000", sweep.subnetPrefix());
        assertEquals(TREE.nodeCount(), sweep.nodes().size());
        Set<String> cables = sweep.links().stream().map(l -> FatTreeNetFile.cable(l.a().node().description(),
                l.a().port().number(), l.b().node().description(), l.b().port().number()))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(TREE.cables()), cables);
        // ibnetdiscover -p: one line per port end, "SW 2 4 0x... 4x SDR - SW 5 1 0x... ( 'leaf1' - 'spine0' )"
        Set<String> diags = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^(?:SW|CA)\\s+\\d+\\s+(\\d+) (0x[0-9a-f]+) .* - (?:SW|CA)\\s+\\d+\\s+(\\d+) "
                + "(0x[0-9a-f]+) ").matcher(ibsim.run("ibnetdiscover", "-p"));
        while (m.find()) {
            diags.add(end(m.group(2), m.group(1)) + " - " + end(m.group(4), m.group(3)));
        }
        Set<String> ours = new TreeSet<>();
        Map<String, String> portGuids = portGuids();
        for (FabricLink l : sweep.links()) {
            String a = end(portGuids.getOrDefault(l.a().node().guid() + "/" + l.a().port().number(),
                    l.a().node().guid()), String.valueOf(l.a().port().number()));
            String b = end(portGuids.getOrDefault(l.b().node().guid() + "/" + l.b().port().number(),
                    l.b().node().guid()), String.valueOf(l.b().port().number()));
            ours.add(a + " - " + b);
            ours.add(b + " - " + a);
        }
        assertEquals(diags, ours);
    }

    @Test
    void everyPortsStateWidthAndSpeedAsSmpqueryReadsThem() throws Exception {
        int ports = 0;
        for (FabricNode n : sweep.nodes()) {
            for (FabricPort p : n.ports()) {
                Map<String, String> info = fields(PORTINFO, ibsim.run("smpquery", "portinfo",
                        String.valueOf(p.lid()), String.valueOf(p.number())));
                String at = n.description() + "[" + p.number() + "]";
                assertEquals(info.get("LinkState"), p.state(), at);
                assertEquals(info.get("PhysLinkState"), p.physState(), at);
                if (p.up()) {
                    assertEquals(info.get("LinkWidthActive"), p.width() + "X", at);
                    assertEquals(info.get("LinkSpeedActive"), p.speed().gbps() + " Gbps", at);
                }
                ports++;
            }
        }
        assertEquals(TREE.leaves() * (TREE.hostsPerLeaf() + TREE.spines()) + TREE.spines() * TREE.leaves()
                + TREE.leaves() * TREE.hostsPerLeaf(), ports);
        FabricPort narrow = sweep.nodes().stream().filter(n -> n.description().equals("h2-1")).findFirst()
                .orElseThrow().ports().get(0);
        assertEquals(1, narrow.width(), "the w=1 cable trains at 1X");
    }

    @Test
    void everyCounterAsPerfqueryReadsIt() throws Exception {
        int injected = 0;
        for (FabricNode n : sweep.nodes()) {
            for (FabricPort p : n.ports()) {
                String lid = String.valueOf(p.lid());
                String port = String.valueOf(p.number());
                Map<String, String> basic = fields(PERF, ibsim.run("perfquery", lid, port));
                Map<String, String> extended = fields(PERF, ibsim.run("perfquery", "-x", lid, port));
                String at = n.description() + "[" + p.number() + "]";
                for (String error : PmaCounters.ERRORS) {
                    assertEquals(Long.valueOf(basic.get(error)), p.counters().get(error), at + " " + error);
                }
                assertEquals(Long.valueOf(basic.get("PortXmitWait")), p.counters().get("PortXmitWait"), at);
                injected += p.counters().entrySet().stream()
                        .filter(e -> PmaCounters.isError(e.getKey()) || e.getKey().equals("PortXmitWait"))
                        .mapToInt(e -> e.getValue() > 0 ? 1 : 0).sum();
                for (String data : PmaCounters.DATA) {
                    // the sweep's own MADs cross the fabric: a data counter can only have grown since it was read
                    long ours = p.counters().get(data);
                    long now = Long.parseLong(extended.get(data));
                    assertTrue(ours <= now && ours >= 0, at + " " + data + ": " + ours + " then " + now);
                }
                assertEquals(Long.valueOf(extended.get("PortUnicastXmitPkts")), p.counters().get("PortUnicastXmitPkts"),
                        at);
            }
        }
        assertEquals(5, injected, "the injected counters, and no other");
    }

    /** Last: ibsim counts the packets it dropped for the node as its PortRcvErrors. */
    @Test
    @Order(Integer.MAX_VALUE)
    void aNodeThatAnswersNothingIsNamedAndSkipped() throws Exception {
        ibsim.console("Error \"h1-1\" 100", "sim>");
        try {
            // the node stops answering between two topology sweeps: the counters sweep names it
            FabricSweep failing = reader.sweep("h0-0", false);
            assertTrue(!failing.success() && !failing.topology());
            assertTrue(failing.problems().stream().anyMatch(p -> p.contains("\"h1-1\": no port answered PMA")),
                    failing.problems().toString());
            FabricNode silent = failing.nodes().stream().filter(n -> n.description().equals("h1-1")).findFirst()
                    .orElseThrow();
            assertEquals(Map.of(), silent.ports().get(0).counters());
            assertEquals(TREE.nodeCount(), failing.nodes().size(), "still in the topology");
            long counted = failing.nodes().stream().flatMap(n -> n.ports().stream())
                    .filter(p -> !p.counters().isEmpty()).count();
            assertTrue(counted > 0, "the other nodes' counters are read");
        } finally {
            ibsim.console("Error \"h1-1\" 0", "sim>");
        }
    }

    private static Map<String, String> fields(Pattern pattern, String text) {
        Map<String, String> fields = new HashMap<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            fields.putIfAbsent(m.group(1), m.group(2).strip());
        }
        return fields;
    }

    /** HCA ports by node GUID and port, to their port GUIDs (which ibnetdiscover -p prints for an HCA's end). */
    private static Map<String, String> portGuids() throws Exception {
        Map<String, String> guids = new HashMap<>();
        for (DiscoveredFabric.Node n : IbNetDiscoverText.parse(ibsim.run("ibnetdiscover")).nodes()) {
            n.ports().stream().filter(p -> p.portGuid() != null)
                    .forEach(p -> guids.put(n.guid() + "/" + p.number(), p.portGuid()));
        }
        return guids;
    }

    private static String end(String guid, String port) {
        return PortKey.guid(guid) + "/" + port;
    }
}
