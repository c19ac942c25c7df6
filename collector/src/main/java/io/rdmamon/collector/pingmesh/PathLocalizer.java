package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.PathVerdict;
import io.rdmamon.collector.model.PortKey;
import io.rdmamon.collector.model.Rule;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Names the likely culprit behind the bad pairs of one pingmesh window: a pure function of the pairs' statistics
 * (docs/pingmesh.md "Verdicts", which also gives the limits).
 *
 * <p>A pair is judged when it had at least {@code minProbes} probes; it is <em>unreachable</em> when every probe
 * failed, <em>lossy</em> when at least {@code minLost} round trips and {@code lossRatio} of those sent were lost,
 * <em>slow</em> when its p50 reaches {@code rttHighSeconds} and {@code slowFactor} × the fabric's normal p50. The
 * normal p50 is the median, over ports, of each port's fastest judged pair rather than the median of all pairs: a
 * slow port slows every pair it is in, which among three ports is two thirds of them, and must not raise the
 * baseline it is judged against. The pattern of the bad pairs is then read from the narrowest culprit to the
 * widest, each step leaving out the pairs an earlier one explained:
 * <ol>
 *   <li>a <b>port</b> bad with most of its peers (at least {@code portShare} of them, and two), also inside its own
 *       group, while those peers are mostly fine with the others they probe: its host or its link;</li>
 *   <li>a <b>group</b> bad towards most other groups (the same share, at least two) and mostly fine inside, those
 *       groups being fine with the rest: its switch or uplinks; with only two groups, the link between them (the
 *       pattern is symmetric: either side's uplink);</li>
 *   <li>bad pairs on most group pairs (at least three): the <b>spine</b>;</li>
 *   <li>each bad pair left: its <b>path</b>.</li>
 * </ol>
 * A peer (or a group) counts as bad with another when at least half of the judged pairs between them, both
 * directions, are bad; "mostly fine" is a bad share below {@code 1 - portShare}. With one group (the fleet) only
 * port and path verdicts are possible. Pingmesh (SIGCOMM'15) scores a ToR by its affected servers and blames a
 * higher tier when all ToRs are; rpingmesh's localizer design classifies ToR-pair edges by breadth: this one
 * adds the per-port step, the check that the culprit's peers are fine elsewhere, and the counters of both ends
 * (the diagnosis rules).
 *
 * <p>Cost: linear in the window's pairs; 560,000 pairs (2,000 nodes × 8 ports probing 35 peers each) took 1.2 s of
 * CPU on a loaded 2-core build machine. Call it on a worker, once per window.
 */
public final class PathLocalizer {
    private static final int EXAMPLES = 3;

    /**
     * The localizer's thresholds.
     *
     * @param lossRatio      a pair is lossy from this share of lost round trips
     * @param minLost        ... and at least this many lost
     * @param rttHighSeconds a pair is slow from this p50 ...
     * @param slowFactor     ... and this many times the fabric's normal p50 (the median of each port's fastest pair)
     * @param portShare      "most": the share of a port's peers (of a group's other groups, of the group pairs) that
     *                       must be bad to blame it
     * @param minProbes      probes a pair needs in the window to be judged at all
     */
    public record Thresholds(double lossRatio, long minLost, double rttHighSeconds, double slowFactor,
                             double portShare, int minProbes) {
        public Thresholds {
            if (!(lossRatio > 0 && lossRatio <= 1)) {
                throw new IllegalArgumentException("lossRatio must be in (0, 1], got " + lossRatio);
            }
            if (minLost < 1) {
                throw new IllegalArgumentException("minLost must be >= 1, got " + minLost);
            }
            if (!(rttHighSeconds > 0) || Double.isInfinite(rttHighSeconds)) {
                throw new IllegalArgumentException("rttHighSeconds must be a positive number, got " + rttHighSeconds);
            }
            if (!(slowFactor >= 1) || Double.isInfinite(slowFactor)) {
                throw new IllegalArgumentException("slowFactor must be >= 1, got " + slowFactor);
            }
            if (!(portShare > 0.5 && portShare <= 1)) {
                throw new IllegalArgumentException("portShare must be in (0.5, 1], got " + portShare);
            }
            if (minProbes < 2) {
                throw new IllegalArgumentException("minProbes must be >= 2, got " + minProbes);
            }
        }

        /** 1 % and 2 round trips lost, p50 from 500 µs and 4 × the median, two thirds, 2 probes. */
        public static Thresholds defaults() {
            return new Thresholds(0.01, 2, 500e-6, 4, 2.0 / 3, 2);
        }
    }

    /** What a judged pair shows, worst last. */
    enum Symptom {
        OK, SLOW, LOSSY, UNREACHABLE;

        boolean bad() {
            return this != OK;
        }

        boolean loss() {
            return this == LOSSY || this == UNREACHABLE;
        }
    }

    /** Two groups, in name order. */
    private record GroupPair(String first, String second) {
    }

    /** A pair with what it shows, and whether a verdict explained it already (steps leave such pairs out). */
    private static final class Judged {
        final PairStats stats;
        final Symptom symptom;
        boolean explained;

        Judged(PairStats stats, Symptom symptom) {
            this.stats = stats;
            this.symptom = symptom;
        }

        PairStats stats() {
            return stats;
        }

        Symptom symptom() {
            return symptom;
        }
    }

    /** Judged pairs between two members (ports, groups), both directions together. */
    private static final class Tally {
        int judged;
        int bad;

        void add(Judged pair) {
            judged++;
            if (pair.symptom().bad()) {
                bad++;
            }
        }

        /** At least half of the pairs are bad. */
        boolean isBad() {
            return bad > 0 && 2 * bad >= judged;
        }
    }

    private PathLocalizer() {
    }

    /** The verdicts on one window's pairs: ports, then groups, the spine, paths; none when no judged pair is bad. */
    public static List<PathVerdict> localize(List<PairStats> pairs, Thresholds thresholds) {
        return new Window(pairs, thresholds).verdicts();
    }

    /** One window's pairs being read, and what has been explained so far. */
    private static final class Window {
        private final Thresholds t;
        private final List<Judged> judged = new ArrayList<>();
        private final Map<PortKey, String> groupOf = new HashMap<>();
        /** The fabric's normal p50: the median, over ports, of each port's fastest judged pair. */
        private final double normalP50;
        private final double slowFrom;
        /** Every judged pair between two ports, both ways: built once, read by the port and the path steps. */
        private Map<PortKey, Map<PortKey, Tally>> portEdges;
        private final List<PathVerdict> verdicts = new ArrayList<>();

        Window(List<PairStats> pairs, Thresholds thresholds) {
            this.t = thresholds;
            Map<PortKey, Double> fastest = new HashMap<>();
            for (PairStats pair : pairs) {
                groupOf.putIfAbsent(pair.src(), pair.srcGroup());
                groupOf.putIfAbsent(pair.dst(), pair.dstGroup());
                if (pair.probes() >= t.minProbes() && Double.isFinite(pair.p50Seconds())) {
                    fastest.merge(pair.src(), pair.p50Seconds(), Math::min);
                    fastest.merge(pair.dst(), pair.p50Seconds(), Math::min);
                }
            }
            normalP50 = median(List.copyOf(fastest.values()));
            slowFrom = Double.isNaN(normalP50) ? t.rttHighSeconds()
                    : Math.max(t.rttHighSeconds(), t.slowFactor() * normalP50);
            for (PairStats pair : pairs) {
                if (pair.probes() >= t.minProbes()) {
                    judged.add(new Judged(pair, symptom(pair)));
                }
            }
        }

        private Symptom symptom(PairStats pair) {
            if (pair.failedProbes() == pair.probes()) {
                return Symptom.UNREACHABLE;
            }
            if (pair.lost() >= t.minLost() && pair.lost() >= t.lossRatio() * pair.sent()) {
                return Symptom.LOSSY;
            }
            return pair.p50Seconds() >= slowFrom ? Symptom.SLOW : Symptom.OK;
        }

        List<PathVerdict> verdicts() {
            if (judged.stream().noneMatch(j -> j.symptom().bad())) {
                return List.of();
            }
            ports();
            Set<String> groups = new TreeSet<>(groupOf.values());
            if (groups.size() == 2) {
                twoGroups(List.copyOf(groups));
            } else if (groups.size() > 2) {
                groups();
                spine();
            }
            paths();
            return List.copyOf(verdicts);
        }

        private List<Judged> open() {
            return judged.stream().filter(j -> !j.explained).toList();
        }

        // ---- ports

        private void ports() {
            portEdges = edges(judged, PairStats::src, PairStats::dst);
            Map<PortKey, Map<PortKey, Tally>> edges = portEdges;
            boolean grouped = new HashSet<>(groupOf.values()).size() > 1;
            Set<PortKey> culprits = culprits(edges, port -> !grouped || badInsideOwnGroup(port, edges));
            Map<PortKey, List<Judged>> byPort = new HashMap<>();
            for (Judged pair : judged) {
                for (PortKey end : List.of(pair.stats().src(), pair.stats().dst())) {
                    if (culprits.contains(end)) {
                        byPort.computeIfAbsent(end, k -> new ArrayList<>()).add(pair);
                    }
                }
            }
            for (PortKey port : sorted(culprits, PortKey::toString)) {
                List<Judged> all = byPort.get(port);
                List<Judged> bad = all.stream().filter(j -> j.symptom().bad()).toList();
                Map<PortKey, Tally> peers = edges.get(port);
                int badPeers = (int) peers.values().stream().filter(Tally::isBad).count();
                boolean unreachable = all.stream().allMatch(j -> j.symptom() == Symptom.UNREACHABLE);
                List<String> lines = List.of("bad with " + badPeers + " of " + peers.size() + " peers (" + symptoms(bad)
                        + "); " + confirmation(port, edges, culprits) + " of those peers are fine with the others they probe");
                verdicts.add(verdict(unreachable ? Rule.PORT_UNREACHABLE : rule(bad), PathVerdict.Culprit.PORT,
                        port.toString(), List.of(port), List.of(port), bad, badPeers, peers.size(), lines));
            }
            judged.stream().filter(j -> culprits.contains(j.stats().src()) || culprits.contains(j.stats().dst()))
                    .forEach(j -> j.explained = true);
        }

        /**
         * A port's own fault shows inside its group too: one whose group peers are mostly fine while the rest is bad
         * is a symptom of its group's switch or uplink, not a culprit. A port without judged group peers passes.
         */
        private boolean badInsideOwnGroup(PortKey port, Map<PortKey, Map<PortKey, Tally>> edges) {
            String group = groupOf.get(port);
            int inside = 0;
            int bad = 0;
            for (Map.Entry<PortKey, Tally> peer : edges.get(port).entrySet()) {
                if (group.equals(groupOf.get(peer.getKey()))) {
                    inside++;
                    bad += peer.getValue().isBad() ? 1 : 0;
                }
            }
            return inside == 0 || bad >= t.portShare() * inside;
        }

        // ---- groups

        private void twoGroups(List<String> groups) {
            List<Judged> open = open();
            Map<String, Tally> inside = insideTallies(open);
            List<Judged> between = open.stream().filter(j -> !sameGroup(j)).toList();
            Tally tally = new Tally();
            between.forEach(tally::add);
            if (tally.bad < 2 || !tally.isBad() || !fineInside(inside, groups.get(0))
                    || !fineInside(inside, groups.get(1))) {
                return;
            }
            List<Judged> bad = between.stream().filter(j -> j.symptom().bad()).toList();
            List<String> lines = List.of(tally.bad + " of " + tally.judged + " pairs between them bad (" + symptoms(bad)
                    + "); inside " + groups.get(0) + " " + describe(inside, groups.get(0)) + ", inside " + groups.get(1)
                    + " " + describe(inside, groups.get(1)));
            verdicts.add(verdict(rule(bad), PathVerdict.Culprit.GROUP, groups.get(0) + PathVerdict.BETWEEN + groups.get(1),
                    portsOf(Set.copyOf(groups)), List.of(), bad, tally.bad, tally.judged, lines));
            between.forEach(j -> j.explained = true);
        }

        private void groups() {
            List<Judged> open = open();
            Map<String, Tally> inside = insideTallies(open);
            Map<String, Map<String, Tally>> edges = edges(open.stream().filter(j -> !sameGroup(j)).toList(),
                    PairStats::srcGroup, PairStats::dstGroup);
            Set<String> culprits = culprits(edges, group -> fineInside(inside, group));
            for (String group : sorted(culprits, Function.identity())) {
                Map<String, Tally> others = edges.get(group);
                List<String> badOthers = others.entrySet().stream().filter(e -> e.getValue().isBad()).map(Map.Entry::getKey)
                        .sorted().toList();
                List<Judged> bad = open.stream().filter(j -> j.symptom().bad() && !sameGroup(j) && touches(j, Set.of(group)))
                        .toList();
                List<String> lines = List.of("bad towards " + badOthers.size() + " of " + others.size()
                        + " other groups (" + String.join(", ", badOthers) + "; " + symptoms(bad) + "), fine inside ("
                        + describe(inside, group) + "); " + confirmation(group, edges, culprits)
                        + " of those groups are fine with the others");
                verdicts.add(verdict(rule(bad), PathVerdict.Culprit.GROUP, group, portsOf(Set.of(group)), List.of(), bad,
                        badOthers.size(), others.size(), lines));
            }
            open.stream().filter(j -> !sameGroup(j) && touches(j, culprits)).forEach(j -> j.explained = true);
        }

        /** The pairs inside each group among {@code open}. */
        private Map<String, Tally> insideTallies(List<Judged> open) {
            Map<String, Tally> inside = new HashMap<>();
            open.stream().filter(this::sameGroup)
                    .forEach(j -> inside.computeIfAbsent(j.stats().srcGroup(), k -> new Tally()).add(j));
            return inside;
        }

        /** The group's judged inside pairs (those no earlier verdict explained) are mostly fine, or there are none. */
        private boolean fineInside(Map<String, Tally> inside, String group) {
            Tally tally = inside.getOrDefault(group, new Tally());
            return tally.bad < (1 - t.portShare()) * tally.judged || tally.judged == 0;
        }

        private static String describe(Map<String, Tally> inside, String group) {
            Tally tally = inside.getOrDefault(group, new Tally());
            return tally.bad + " of " + tally.judged + " pairs bad";
        }

        /** Either end of the pair is in one of {@code groups}. */
        private boolean touches(Judged pair, Set<String> groups) {
            return groups.contains(pair.stats().srcGroup()) || groups.contains(pair.stats().dstGroup());
        }

        private boolean sameGroup(Judged pair) {
            return pair.stats().srcGroup().equals(pair.stats().dstGroup());
        }

        /** The ports seen in {@code groups}, but for those a port verdict already blames. */
        private List<PortKey> portsOf(Set<String> groups) {
            Set<PortKey> blamed = new HashSet<>();
            verdicts.stream().filter(v -> v.culprit() == PathVerdict.Culprit.PORT).forEach(v -> blamed.addAll(v.ports()));
            return sorted(groupOf.entrySet().stream()
                    .filter(e -> groups.contains(e.getValue()) && !blamed.contains(e.getKey()))
                    .map(Map.Entry::getKey).toList(), PortKey::toString);
        }

        // ---- spine

        private void spine() {
            List<Judged> open = open();
            Map<GroupPair, Tally> byGroupPair = new HashMap<>();
            Tally inside = new Tally();
            for (Judged pair : open) {
                if (sameGroup(pair)) {
                    inside.add(pair);
                } else {
                    byGroupPair.computeIfAbsent(groupPair(pair), k -> new Tally()).add(pair);
                }
            }
            long affected = byGroupPair.values().stream().filter(tally -> tally.bad > 0).count();
            if (affected < 3 || affected < t.portShare() * byGroupPair.size()) {
                return;
            }
            List<Judged> bad = open.stream().filter(j -> !sameGroup(j) && j.symptom().bad()).toList();
            int interJudged = byGroupPair.values().stream().mapToInt(tally -> tally.judged).sum();
            List<String> lines = List.of("bad pairs on " + affected + " of " + byGroupPair.size() + " group pairs ("
                    + bad.size() + " of " + interJudged + " pairs between groups: " + symptoms(bad) + ")",
                    "inside the groups " + inside.bad + " of " + inside.judged + " pairs bad"
                            + (inside.isBad() ? " too: not the spine alone (a fabric-wide cause such as a PFC storm, or "
                            + "the probing hosts themselves)" : ""));
            Set<PortKey> ends = new HashSet<>();
            bad.forEach(j -> {
                ends.add(j.stats().src());
                ends.add(j.stats().dst());
            });
            verdicts.add(verdict(rule(bad), PathVerdict.Culprit.SPINE, "spine", sorted(ends, PortKey::toString), List.of(),
                    bad, (int) affected, byGroupPair.size(), lines));
            bad.forEach(j -> j.explained = true);
        }

        private GroupPair groupPair(Judged pair) {
            String a = pair.stats().srcGroup();
            String b = pair.stats().dstGroup();
            return a.compareTo(b) < 0 ? new GroupPair(a, b) : new GroupPair(b, a);
        }

        // ---- paths

        private void paths() {
            Map<PortKey, Map<PortKey, Tally>> edges = portEdges;
            // with three groups or more, a group is judged against at least two others before its switch can be told
            // from one path: until both groups of a bad pair between groups were, the pair is not named (the simulated
            // tor-uplink-loss raised paths on leaf-02's healthy ports before leaf-01's group verdict formed)
            Set<String> groups = new HashSet<>(groupOf.values());
            Map<String, Map<String, Tally>> groupEdges = edges(judged.stream().filter(j -> !sameGroup(j)).toList(),
                    PairStats::srcGroup, PairStats::dstGroup);
            List<Judged> bad = open().stream().filter(j -> j.symptom().bad())
                    .sorted(Comparator.comparing((Judged j) -> j.stats().src().toString())
                            .thenComparing(j -> j.stats().dst().toString())).toList();
            for (Judged pair : bad) {
                PortKey src = pair.stats().src();
                PortKey dst = pair.stats().dst();
                if (groups.size() > 2 && !sameGroup(pair) && (groupEdges.getOrDefault(pair.stats().srcGroup(), Map.of())
                        .size() < 2 || groupEdges.getOrDefault(pair.stats().dstGroup(), Map.of()).size() < 2)) {
                    continue;
                }
                if (edges.get(src).size() < 2 || edges.get(dst).size() < 2) {
                    // an end seen with this peer alone cannot be told from the path yet (its port may be the culprit):
                    // no verdict until the window holds another of its pairs. In the lab a lossy port's first bad pair
                    // was otherwise named a path, raised on a healthy peer, for half a minute.
                    continue;
                }
                List<String> lines = List.of(src + " is bad with " + otherBad(edges, src, dst) + " of "
                        + (edges.get(src).size() - 1) + " other peers, " + dst + " with " + otherBad(edges, dst, src)
                        + " of " + (edges.get(dst).size() - 1));
                verdicts.add(verdict(rule(List.of(pair)), PathVerdict.Culprit.PATH, src + PathVerdict.TO + dst, List.of(src),
                        List.of(src, dst), List.of(pair), 1, 1, lines));
            }
        }

        private static long otherBad(Map<PortKey, Map<PortKey, Tally>> edges, PortKey port, PortKey except) {
            return edges.get(port).entrySet().stream()
                    .filter(e -> !e.getKey().equals(except) && e.getValue().isBad()).count();
        }

        // ---- shared

        /**
         * The members bad with most of their neighbours (at least two) that pass {@code inside}, confirmed by their
         * bad neighbours (candidates left out) being mostly fine with the others: at least {@code portShare} of those
         * that have others. A member none of whose bad neighbours has others is not confirmed: nothing tells it
         * apart from a wider fault.
         */
        private <K> Set<K> culprits(Map<K, Map<K, Tally>> edges, Predicate<K> inside) {
            Set<K> candidates = new HashSet<>();
            edges.forEach((member, neighbours) -> {
                long bad = neighbours.values().stream().filter(Tally::isBad).count();
                if (bad >= 2 && bad >= t.portShare() * neighbours.size() && inside.test(member)) {
                    candidates.add(member);
                }
            });
            Set<K> confirmed = new HashSet<>();
            for (K member : candidates) {
                int[] fine = fineNeighbours(member, edges, candidates);
                if (fine[1] > 0 && fine[0] >= t.portShare() * fine[1]) {
                    confirmed.add(member);
                }
            }
            return confirmed;
        }

        /** {fine, with others}: the member's bad neighbours, candidates left out, that have other neighbours. */
        private <K> int[] fineNeighbours(K member, Map<K, Map<K, Tally>> edges, Set<K> candidates) {
            int fine = 0;
            int withOthers = 0;
            for (Map.Entry<K, Tally> neighbour : edges.get(member).entrySet()) {
                if (!neighbour.getValue().isBad() || candidates.contains(neighbour.getKey())) {
                    continue;
                }
                int others = 0;
                int bad = 0;
                for (Map.Entry<K, Tally> other : edges.get(neighbour.getKey()).entrySet()) {
                    if (!other.getKey().equals(member) && !candidates.contains(other.getKey())) {
                        others++;
                        bad += other.getValue().isBad() ? 1 : 0;
                    }
                }
                if (others > 0) {
                    withOthers++;
                    fine += bad < (1 - t.portShare()) * others ? 1 : 0;
                }
            }
            return new int[]{fine, withOthers};
        }

        private <K> String confirmation(K member, Map<K, Map<K, Tally>> edges, Set<K> candidates) {
            int[] fine = fineNeighbours(member, edges, candidates);
            return fine[0] + " of " + fine[1];
        }

        private PathVerdict verdict(Rule rule, PathVerdict.Culprit culprit, String name, List<PortKey> ports,
                                    List<PortKey> ends, List<Judged> bad, int affected, int of, List<String> lines) {
            long sent = bad.stream().mapToLong(j -> j.stats().sent()).sum();
            long lost = bad.stream().mapToLong(j -> j.stats().lost()).sum();
            double loss = sent == 0 ? Double.NaN : (double) lost / sent;
            double p50 = median(bad.stream().map(j -> j.stats().p50Seconds()).filter(Double::isFinite).toList());
            double p99 = bad.stream().mapToDouble(j -> j.stats().p99Seconds()).filter(Double::isFinite).max()
                    .orElse(Double.NaN);
            List<String> evidence = new ArrayList<>(lines);
            if (lost > 0) {
                evidence.add(String.format(Locale.ROOT, "loss %s (%,d of %,d round trips)", percent(loss), lost, sent));
            }
            if (!Double.isNaN(p50)) {
                evidence.add("RTT p50 " + rtt(p50) + ", p99 " + rtt(p99) + " (normal p50 " + rtt(normalP50)
                        + ", slow from " + rtt(slowFrom) + ")");
            }
            evidence.add((bad.size() > EXAMPLES ? "e.g. " : "") + bad.stream().sorted(WORST_FIRST).limit(EXAMPLES)
                    .map(PathLocalizer::example).collect(Collectors.joining(", ")));
            return new PathVerdict(rule, culprit, name, ports, ends, loss, p50, p99, affected, of, evidence);
        }
    }

    /** Unreachable, then lossy by loss, then slow by p50. */
    private static final Comparator<Judged> WORST_FIRST = Comparator.comparing((Judged j) -> j.symptom()).reversed()
            .thenComparing(j -> -ratio(j.stats())).thenComparing(j -> -finite(j.stats().p50Seconds()))
            .thenComparing(j -> j.stats().src().toString()).thenComparing(j -> j.stats().dst().toString());

    /** path_loss when any of the pairs lost round trips (or every probe), else path_latency_high. */
    private static Rule rule(Collection<Judged> bad) {
        return bad.stream().anyMatch(j -> j.symptom().loss()) ? Rule.PATH_LOSS : Rule.PATH_LATENCY_HIGH;
    }

    /**
     * Members (ports, groups) to the tally of the pairs between them, both ways, the pair's ends' members given by
     * {@code srcMember} and {@code dstMember}; a pair inside one member counts nowhere.
     */
    private static <K> Map<K, Map<K, Tally>> edges(List<Judged> pairs, Function<PairStats, K> srcMember,
                                                   Function<PairStats, K> dstMember) {
        Map<K, Map<K, Tally>> edges = new HashMap<>();
        for (Judged pair : pairs) {
            K a = srcMember.apply(pair.stats());
            K b = dstMember.apply(pair.stats());
            if (!a.equals(b)) {
                edges.computeIfAbsent(a, k -> new HashMap<>()).computeIfAbsent(b, k -> new Tally()).add(pair);
                edges.computeIfAbsent(b, k -> new HashMap<>()).computeIfAbsent(a, k -> new Tally()).add(pair);
            }
        }
        return edges;
    }

    /** "10 lossy, 2 unreachable, 1 slow": the bad pairs by symptom. */
    private static String symptoms(List<Judged> bad) {
        StringJoiner joiner = new StringJoiner(", ");
        for (Symptom symptom : List.of(Symptom.LOSSY, Symptom.UNREACHABLE, Symptom.SLOW)) {
            long count = bad.stream().filter(j -> j.symptom() == symptom).count();
            if (count > 0) {
                joiner.add(count + " " + symptom.name().toLowerCase(Locale.ROOT));
            }
        }
        return joiner.toString();
    }

    private static String example(Judged pair) {
        PairStats s = pair.stats();
        String what = switch (pair.symptom()) {
            case UNREACHABLE -> "unreachable (" + s.failedProbes() + " of " + s.probes() + " probes failed)";
            case LOSSY -> "loss " + percent(ratio(s));
            default -> "p50 " + rtt(s.p50Seconds());
        };
        return s.src() + PathVerdict.TO + s.dst() + " " + what;
    }

    private static double ratio(PairStats s) {
        return s.sent() == 0 ? 0 : (double) s.lost() / s.sent();
    }

    private static double finite(double value) {
        return Double.isFinite(value) ? value : 0;
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int mid = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(mid) : (sorted.get(mid - 1) + sorted.get(mid)) / 2;
    }

    private static <T> List<T> sorted(Collection<T> items, Function<T, String> key) {
        return items.stream().sorted(Comparator.comparing(key)).toList();
    }

    static String percent(double share) {
        return String.format(Locale.ROOT, share < 0.1 && share > 0 ? "%.1f%%" : "%.0f%%", share * 100);
    }

    static String rtt(double seconds) {
        return seconds < 1e-3 ? String.format(Locale.ROOT, "%.0f µs", seconds * 1e6)
                : String.format(Locale.ROOT, "%.2f ms", seconds * 1e3);
    }
}
