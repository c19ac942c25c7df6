package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.PathVerdict;
import io.rdmamon.collector.model.PortKey;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Locale;
import java.util.function.BiPredicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The localizer on whole windows: every ordered pair of a small fleet probed, one fault laid on the pairs it would
 * spoil, and the verdicts it must give, written {@code rule culprit name on [ports]}.
 */
class PathLocalizerTest {
    private static final PathLocalizer.Thresholds DEFAULTS = PathLocalizer.Thresholds.defaults();

    /** What a fault does to a pair. */
    private enum Effect { FINE, LOSSY, SLOW, UNREACHABLE }

    /** A port of the test fleet: node {@code nNN}, in {@code group}. */
    private record Port(int index, String group) {
        PortKey key() {
            return new PortKey(String.format(Locale.ROOT, "n%02d", index), "mlx5_0", 1);
        }
    }

    /** {@code groups} groups of {@code perGroup} ports, named g1, g2, …; one group is named "fleet". */
    private static List<Port> fleet(int groups, int perGroup) {
        List<Port> ports = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            for (int i = 0; i < perGroup; i++) {
                ports.add(new Port(ports.size() + 1, groups == 1 ? "fleet" : "g" + (g + 1)));
            }
        }
        return ports;
    }

    /** Every ordered pair of {@code ports}, 10 probes of 100 round trips each, spoiled as {@code fault} says. */
    private static List<PairStats> window(List<Port> ports, Fault fault) {
        return window(ports, fault, 10);
    }

    private static List<PairStats> window(List<Port> ports, Fault fault, int probes) {
        List<PairStats> pairs = new ArrayList<>();
        for (Port src : ports) {
            for (Port dst : ports) {
                if (src != dst) {
                    pairs.add(stats(src, dst, fault.effect(src, dst), probes));
                }
            }
        }
        return pairs;
    }

    private static PairStats stats(Port src, Port dst, Effect effect, int probes) {
        long sent = probes * 100L;
        return switch (effect) {
            case FINE -> new PairStats(src.key(), dst.key(), src.group(), dst.group(), sent, 0, 12e-6, 20e-6, probes, 0);
            case LOSSY -> new PairStats(src.key(), dst.key(), src.group(), dst.group(), sent, sent * 3 / 10, 14e-6,
                    900e-6, probes, 0);
            case SLOW -> new PairStats(src.key(), dst.key(), src.group(), dst.group(), sent, 0, 2e-3, 3e-3, probes, 0);
            case UNREACHABLE -> new PairStats(src.key(), dst.key(), src.group(), dst.group(), sent, sent, Double.NaN,
                    Double.NaN, probes, probes);
        };
    }

    @FunctionalInterface
    private interface Fault {
        Effect effect(Port src, Port dst);

        /** {@code effect} on the pairs {@code where} holds for (either direction), the others fine. */
        static Fault on(BiPredicate<Port, Port> where, Effect effect) {
            return (a, b) -> where.test(a, b) || where.test(b, a) ? effect : Effect.FINE;
        }

        /** {@code effect} on every pair of port {@code index}. */
        static Fault port(int index, Effect effect) {
            return on((a, b) -> a.index() == index, effect);
        }
    }

    private static String describe(List<PathVerdict> verdicts) {
        return verdicts.stream().map(v -> v.rule().id() + " " + v.culprit().id() + " " + v.culpritName() + " on "
                + v.ports()).collect(Collectors.joining("\n"));
    }

    private static String ports(List<Port> ports, String group) {
        return ports.stream().filter(p -> p.group().equals(group)).map(p -> p.key().toString())
                .collect(Collectors.joining(", ", "[", "]"));
    }

    static Stream<Arguments> table() {
        List<Port> three = fleet(1, 3);
        List<Port> twenty = fleet(1, 20);
        List<Port> fiveByFour = fleet(5, 4);
        List<Port> fourByThree = fleet(4, 3);
        List<Port> threeByTwo = fleet(3, 2);
        List<Port> twoByThree = fleet(2, 3);
        return Stream.of(
                Arguments.of("healthy fleet", window(twenty, Fault.on((a, b) -> false, Effect.LOSSY)), ""),
                Arguments.of("a lossy port among 3", window(three, Fault.port(2, Effect.LOSSY)),
                        "path_loss port n02/mlx5_0/1 on [n02/mlx5_0/1]"),
                Arguments.of("a lossy port among 20", window(twenty, Fault.port(7, Effect.LOSSY)),
                        "path_loss port n07/mlx5_0/1 on [n07/mlx5_0/1]"),
                Arguments.of("a lossy port among 20 that is fine with 4 of its peers",
                        window(twenty, Fault.on((a, b) -> a.index() == 7 && b.index() > 4, Effect.LOSSY)),
                        "path_loss port n07/mlx5_0/1 on [n07/mlx5_0/1]"),
                Arguments.of("two lossy ports among 20, peers of each other",
                        window(twenty, (a, b) -> a.index() == 3 || b.index() == 3 || a.index() == 11 || b.index() == 11
                                ? Effect.LOSSY : Effect.FINE), "path_loss port n03/mlx5_0/1 on [n03/mlx5_0/1]\n"
                                + "path_loss port n11/mlx5_0/1 on [n11/mlx5_0/1]"),
                Arguments.of("a lossy port in a group is the port, not its group",
                        window(fiveByFour, Fault.port(6, Effect.LOSSY)), "path_loss port n06/mlx5_0/1 on [n06/mlx5_0/1]"),
                // R-Pingmesh's caveat: with two NICs per ToR, one NIC's fault is half of its ToR mesh
                Arguments.of("a lossy port of a group of two", window(threeByTwo, Fault.port(3, Effect.LOSSY)),
                        "path_loss port n03/mlx5_0/1 on [n03/mlx5_0/1]"),
                Arguments.of("a slow port (latency only)", window(twenty, Fault.port(4, Effect.SLOW)),
                        "path_latency_high port n04/mlx5_0/1 on [n04/mlx5_0/1]"),
                // the lab's netem delay on one of three VMs: 4 of the 6 pairs are slow, the median pair among them
                Arguments.of("a slow port among 3", window(three, Fault.port(1, Effect.SLOW)),
                        "path_latency_high port n01/mlx5_0/1 on [n01/mlx5_0/1]"),
                Arguments.of("a port no probe reaches", window(fleet(1, 5), Fault.port(5, Effect.UNREACHABLE)),
                        "port_unreachable port n05/mlx5_0/1 on [n05/mlx5_0/1]"),
                Arguments.of("a group bad towards the others, fine inside",
                        window(fourByThree, Fault.on((a, b) -> a.group().equals("g2") && !b.group().equals("g2"),
                                Effect.LOSSY)), "path_loss group g2 on " + ports(fourByThree, "g2")),
                Arguments.of("a group of two bad towards the others, fine inside (not its two ports)",
                        window(threeByTwo, Fault.on((a, b) -> a.group().equals("g1") && !b.group().equals("g1"),
                                Effect.LOSSY)), "path_loss group g1 on " + ports(threeByTwo, "g1")),
                Arguments.of("a slow group", window(fourByThree, Fault.on((a, b) -> a.group().equals("g4")
                        && !b.group().equals("g4"), Effect.SLOW)), "path_latency_high group g4 on " + ports(fourByThree, "g4")),
                Arguments.of("two groups: the link between them, either uplink",
                        window(twoByThree, Fault.on((a, b) -> !a.group().equals(b.group()), Effect.LOSSY)),
                        "path_loss group g1 ↔ g2 on [n01/mlx5_0/1, n02/mlx5_0/1, n03/mlx5_0/1, n04/mlx5_0/1, "
                                + "n05/mlx5_0/1, n06/mlx5_0/1]"),
                // a third of the pairs between any two groups, none inside: no port and no group stands out
                Arguments.of("bad pairs across every group pair: the spine",
                        window(fourByThree, Fault.on((a, b) -> !a.group().equals(b.group())
                                && (a.index() + b.index()) % 3 == 0, Effect.LOSSY)),
                        "path_loss spine spine on " + fourByThree.stream().map(p -> p.key().toString())
                                .collect(Collectors.joining(", ", "[", "]"))),
                Arguments.of("one bad path among 20", window(twenty, (a, b) -> a.index() == 3 && b.index() == 9
                        ? Effect.LOSSY : Effect.FINE), "path_loss path n03/mlx5_0/1 → n09/mlx5_0/1 on [n03/mlx5_0/1]"),
                Arguments.of("one unreachable path is path loss, not an unreachable port",
                        window(twenty, (a, b) -> a.index() == 3 && b.index() == 9 ? Effect.UNREACHABLE : Effect.FINE),
                        "path_loss path n03/mlx5_0/1 → n09/mlx5_0/1 on [n03/mlx5_0/1]"),
                Arguments.of("a lossy port seen in one probe per pair: too few samples",
                        window(twenty, Fault.port(7, Effect.LOSSY), 1), ""),
                Arguments.of("a port bad with a single peer is that path",
                        window(three, (a, b) -> a.index() == 1 && b.index() == 2 ? Effect.LOSSY : Effect.FINE),
                        "path_loss path n01/mlx5_0/1 → n02/mlx5_0/1 on [n01/mlx5_0/1]"),
                // one group: no group or spine verdict; every port bad with every other confirms none of them
                Arguments.of("everything bad in a single group: paths only",
                        window(three, Fault.on((a, b) -> true, Effect.LOSSY)), String.join("\n",
                                "path_loss path n01/mlx5_0/1 → n02/mlx5_0/1 on [n01/mlx5_0/1]",
                                "path_loss path n01/mlx5_0/1 → n03/mlx5_0/1 on [n01/mlx5_0/1]",
                                "path_loss path n02/mlx5_0/1 → n01/mlx5_0/1 on [n02/mlx5_0/1]",
                                "path_loss path n02/mlx5_0/1 → n03/mlx5_0/1 on [n02/mlx5_0/1]",
                                "path_loss path n03/mlx5_0/1 → n01/mlx5_0/1 on [n03/mlx5_0/1]",
                                "path_loss path n03/mlx5_0/1 → n02/mlx5_0/1 on [n03/mlx5_0/1]")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void namesTheCulprit(String name, List<PairStats> pairs, String expected) {
        assertEquals(expected, describe(PathLocalizer.localize(pairs, DEFAULTS)), name);
    }

    @Test
    void aPortVerdictSaysHowManyPeersTheLossAndTheRttWithExamples() {
        List<PathVerdict> verdicts = PathLocalizer.localize(window(fleet(1, 20), Fault.port(7, Effect.LOSSY)), DEFAULTS);
        PathVerdict verdict = verdicts.get(0);
        assertEquals(List.of(new PortKey("n07", "mlx5_0", 1)), verdict.ends());
        assertEquals(0.3, verdict.lossRatio(), 1e-9);
        assertEquals(19, verdict.affected());
        assertEquals(19, verdict.judged());
        assertEquals(List.of(
                "bad with 19 of 19 peers (38 lossy); 19 of 19 of those peers are fine with the others they probe",
                "loss 30% (11,400 of 38,000 round trips)",
                "RTT p50 14 µs, p99 900 µs (normal p50 12 µs, slow from 500 µs)",
                "e.g. n01/mlx5_0/1 → n07/mlx5_0/1 loss 30%, n02/mlx5_0/1 → n07/mlx5_0/1 loss 30%, "
                        + "n03/mlx5_0/1 → n07/mlx5_0/1 loss 30%"), verdict.evidence());
        assertEquals("port n07/mlx5_0/1 (its host or its link)", verdict.describe());
    }

    @Test
    void aVerdictAsTheApiListsIt() {
        PathVerdict unreachable = PathLocalizer.localize(window(fleet(1, 3), Fault.port(2, Effect.UNREACHABLE)),
                DEFAULTS).get(0);
        assertEquals(new JsonObject().put("rule", "port_unreachable").put("culprit", "port")
                .put("culpritName", "n02/mlx5_0/1").put("description", "port n02/mlx5_0/1 (its host or its link)")
                .put("ports", new JsonArray().add(new JsonObject().put("node", "n02").put("device", "mlx5_0").put("port", 1)))
                .put("ends", new JsonArray().add(new JsonObject().put("node", "n02").put("device", "mlx5_0").put("port", 1)))
                .put("lossRatio", 1.0).put("affected", 2).put("judged", 2)
                .put("evidence", new JsonArray(unreachable.evidence())), unreachable.toJson());
    }

    @Test
    void twoGroupsCannotTellWhichUplinkAndSaySo() {
        List<Port> ports = fleet(2, 3);
        PathVerdict verdict = PathLocalizer.localize(window(ports, Fault.on((a, b) -> !a.group().equals(b.group()),
                Effect.UNREACHABLE)), DEFAULTS).get(0);
        assertEquals("the link between groups g1 ↔ g2 (either group's uplink: two groups cannot tell which)",
                verdict.describe());
        assertEquals("18 of 18 pairs between them bad (18 unreachable); inside g1 0 of 6 pairs bad, inside g2 0 of 6 "
                + "pairs bad", verdict.evidence().get(0));
        assertEquals(List.of(), verdict.ends());
    }

    @Test
    void theSpineVerdictSaysWhetherTheGroupsAreBadInsideToo() {
        List<Port> ports = fleet(4, 3);
        PathVerdict spine = PathLocalizer.localize(window(ports, Fault.on((a, b) -> (a.index() + b.index()) % 3 == 0
                && !a.group().equals(b.group()), Effect.LOSSY)), DEFAULTS).get(0);
        assertEquals(PathVerdict.Culprit.SPINE, spine.culprit());
        assertEquals(6, spine.affected());
        assertEquals(6, spine.judged());
        assertEquals("inside the groups 0 of 24 pairs bad", spine.evidence().get(1));
    }

    /**
     * The lab's first round with loss on n01's link: n03 → n01 is lossy, and n01's other pair is not in the window yet.
     * n01 is seen with n03 alone, so its port cannot be told from the path: no verdict yet, rather than a path raised
     * on the healthy n03.
     */
    @Test
    void aBadPairWhoseEndIsSeenWithNoOtherPeerYetIsNotNamed() {
        List<Port> ports = fleet(1, 3);
        List<PairStats> firstRound = List.of(stats(ports.get(2), ports.get(0), Effect.LOSSY, 2),
                stats(ports.get(1), ports.get(2), Effect.FINE, 2));
        assertEquals(List.of(), PathLocalizer.localize(firstRound, DEFAULTS));

        List<PairStats> secondRound = new ArrayList<>(firstRound);
        secondRound.add(stats(ports.get(0), ports.get(1), Effect.LOSSY, 2));
        assertEquals("path_loss port n01/mlx5_0/1 on [n01/mlx5_0/1]",
                describe(PathLocalizer.localize(secondRound, DEFAULTS)));
    }

    /**
     * Three groups, but g1 judged only against g2 so far: its bad pairs towards g2 could be g1's uplink or one path, so
     * nothing is named until g1 has been judged against another group (a path raised on g2's healthy port otherwise).
     */
    @Test
    void aBadPairBetweenGroupsIsNotNamedBeforeBothGroupsWereJudgedAgainstTwoOthers() {
        List<Port> ports = fleet(3, 2);
        List<PairStats> window = new ArrayList<>();
        for (Port src : ports) {
            for (Port dst : ports) {
                boolean g1g3 = new HashSet<>(List.of(src.group(), dst.group())).equals(Set.of("g1", "g3"));
                if (src != dst && !g1g3) {
                    boolean crossesG1 = !src.group().equals(dst.group()) && (src.group().equals("g1")
                            || dst.group().equals("g1"));
                    window.add(stats(src, dst, crossesG1 ? Effect.LOSSY : Effect.FINE, 2));
                }
            }
        }
        assertEquals("", describe(PathLocalizer.localize(window, DEFAULTS)));
    }

    @Test
    void aPathVerdictShowsThatNeitherEndIsBadWithOthers() {
        PathVerdict path = PathLocalizer.localize(window(fleet(1, 20), (a, b) -> a.index() == 3 && b.index() == 9
                ? Effect.LOSSY : Effect.FINE), DEFAULTS).get(0);
        assertEquals(List.of(new PortKey("n03", "mlx5_0", 1), new PortKey("n09", "mlx5_0", 1)), path.ends());
        assertEquals("n03/mlx5_0/1 is bad with 0 of 18 other peers, n09/mlx5_0/1 with 0 of 18", path.evidence().get(0));
    }

    @Test
    void aLossBelowTheRatioOrASingleLostRoundTripIsNoLoss() {
        List<Port> ports = fleet(1, 5);
        List<PairStats> pairs = new ArrayList<>(window(ports, (a, b) -> Effect.FINE));
        PairStats first = pairs.get(0);
        pairs.set(0, new PairStats(first.src(), first.dst(), "fleet", "fleet", 1000, 9, 12e-6, 20e-6, 10, 0));
        pairs.set(1, new PairStats(pairs.get(1).src(), pairs.get(1).dst(), "fleet", "fleet", 100, 1, 12e-6, 20e-6, 2, 0));
        assertEquals("", describe(PathLocalizer.localize(pairs, DEFAULTS)));
        pairs.set(0, new PairStats(first.src(), first.dst(), "fleet", "fleet", 1000, 10, 12e-6, 20e-6, 10, 0));
        assertEquals("path_loss path n01/mlx5_0/1 → n02/mlx5_0/1 on [n01/mlx5_0/1]",
                describe(PathLocalizer.localize(pairs, DEFAULTS)));
    }

    @Test
    void slowIsRelativeToTheMedianAsWellAsAbsolute() {
        // every pair at 1 ms: above rttHighSeconds, but that is how this fabric is
        List<Port> ports = fleet(1, 6);
        List<PairStats> pairs = window(ports, (a, b) -> Effect.FINE).stream().map(p -> new PairStats(p.src(), p.dst(),
                p.srcGroup(), p.dstGroup(), p.sent(), 0, 1e-3, 2e-3, p.probes(), 0)).toList();
        assertEquals("", describe(PathLocalizer.localize(pairs, DEFAULTS)));
    }

    @Test
    void thresholdsAndPairsRefuseNonsenseNamingTheField() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new PathLocalizer.Thresholds(0.01, 2, 500e-6, 4,
                0.4, 2)).getMessage().contains("portShare"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new PathLocalizer.Thresholds(0.01, 2, 500e-6, 4,
                0.7, 1)).getMessage().contains("minProbes"));
        PortKey a = new PortKey("a", "mlx5_0", 1);
        PortKey b = new PortKey("b", "mlx5_0", 1);
        assertEquals("pair a/mlx5_0/1 → b/mlx5_0/1: lost 5 of 4 sent", assertThrows(IllegalArgumentException.class,
                () -> new PairStats(a, b, "g", "g", 4, 5, 1e-5, 1e-5, 1, 0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new PairStats(a, a, "g", "g", 4, 0, 1e-5, 1e-5, 1, 0));
    }

    @Test
    void theGroupOfACulpritPortIsBlamedForWhatThePortDoesNotExplain() {
        // n06 (group g2) is lossy with everyone, and g4's uplink drops everything towards the other groups
        List<Port> ports = fleet(5, 4);
        Fault fault = (a, b) -> a.index() == 6 || b.index() == 6 ? Effect.LOSSY
                : a.group().equals(b.group()) || !(a.group().equals("g4") || b.group().equals("g4")) ? Effect.FINE
                : Effect.UNREACHABLE;
        assertEquals("path_loss port n06/mlx5_0/1 on [n06/mlx5_0/1]\npath_loss group g4 on " + ports(ports, "g4"),
                describe(PathLocalizer.localize(window(ports, fault), DEFAULTS)));
    }
}
