package io.rdmamon.collector.fabric;

import io.rdmamon.protocol.fabric.FabricLink;
import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.fabric.NodeType;
import io.rdmamon.protocol.wire.Frame;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The InfiniBand fabrics the {@code --fabric} agents sweep (docs/fabric.md). One fabric per subnet, named by its
 * subnet prefix and SM ({@link #subnetOf}): two sweepers of one subnet make one fabric, the latest sweep wins, and
 * when one sweeper dies the other's sweeps keep it current. A topology sweep replaces the fabric's nodes and ports; a
 * counters-only sweep updates the counters of the ports it already holds. A fabric whose every sweeper is gone, or
 * that no sweep reached for {@code staleAfter}, is stale; {@code dropAfter} after its last sweep it is dropped.
 *
 * <p>Bounded: at most {@link #MAX_FABRICS} fabrics and {@link #MAX_PORTS} ports over all of them (a sweep that would
 * go beyond is refused whole), at most {@link #MAX_NODES_PER_SWEEP} nodes a sweep, {@link CounterHistory#POINTS}
 * points of counter history a port. Thread-safe: the collector applies every change on one worker, in order
 * ({@link FabricWorker}), and readers get immutable snapshots ({@link #fabrics()}).
 */
public final class FabricStore {
    public static final int MAX_FABRICS = 16;
    /** A 40,000-port fabric (docs/performance.md) and room for a few small ones. */
    public static final int MAX_PORTS = 64_000;
    /** A 2,000-host, 100-switch fabric has about 4,100 nodes. */
    public static final int MAX_NODES_PER_SWEEP = 20_000;
    public static final Duration DEFAULT_STALE_AFTER = Duration.ofMinutes(10);
    public static final Duration DEFAULT_DROP_AFTER = Duration.ofHours(1);

    private static final System.Logger LOG = System.getLogger(FabricStore.class.getName());

    /** One fabric's state between sweeps. */
    private static final class Subnet {
        final String id;
        FabricSweep sweep;
        FabricSweep previous;
        long previousMillis;
        long lastSweepMillis;
        final Map<String, FabricState.SweeperStatus> sweepers = new TreeMap<>();
        /** Links once seen up, by id: a link among them missing from the topology is down. */
        final Map<String, LinkEnds> seenUp = new HashMap<>();
        List<LinkEnds> lost = List.of();
        final Map<String, FabricVerdict> verdicts = new TreeMap<>();
        final CounterHistory history = new CounterHistory();
        /** Each HCA port's switch port in {@link #sweep}, by {@code guid/port}: rebuilt when the sweep changes. */
        Map<String, LinkEnds.End> hostSwitchPorts = Map.of();

        Subnet(String id) {
            this.id = id;
        }

        int ports() {
            return sweep == null ? 0 : ports(sweep);
        }

        static int ports(FabricSweep sweep) {
            return sweep.nodes().stream().mapToInt(n -> n.ports().size()).sum();
        }
    }

    private final LongSupplier clock;
    private final long staleAfterMillis;
    private final long dropAfterMillis;
    private final List<FabricRule> rules;
    private final Supplier<HostPorts> hosts;
    private final Map<String, SweepAssembler> assembling = new HashMap<>();
    private final Map<String, Subnet> subnets = new TreeMap<>();
    private volatile List<FabricState> published = List.of();
    /** A host (CA) port's switch port, by {@code guid/port}, over every fabric. */
    private volatile Map<String, LinkEnds.End> switchPorts = Map.of();

    /**
     * {@code rules} are judged on every sweep, {@code hosts} asked once per sweep for the hosts behind the HCA ports.
     */
    public FabricStore(LongSupplier clock, Duration staleAfter, Duration dropAfter, List<FabricRule> rules,
                       Supplier<HostPorts> hosts) {
        this.clock = clock;
        this.staleAfterMillis = staleAfter.toMillis();
        this.dropAfterMillis = dropAfter.toMillis();
        this.rules = List.copyOf(rules);
        this.hosts = hosts;
    }

    /** A store without rules or hosts (tests of what consumes fabrics). */
    public FabricStore(LongSupplier clock) {
        this(clock, DEFAULT_STALE_AFTER, DEFAULT_DROP_AFTER, List.of(), () -> HostPorts.NONE);
    }

    /**
     * The fabric's name: {@code <subnet prefix>/<SM port GUID>} ({@code /lid<N>} when only the SM's LID is known,
     * {@code /no-sm} without an SM), since every subnet may keep the default prefix {@code 0xfe80000000000000}.
     */
    public static String subnetOf(FabricSweep sweep) {
        String sm = sweep.smGuid() != null ? sweep.smGuid() : sweep.smLid() != null ? "lid" + sweep.smLid() : "no-sm";
        return sweep.subnetPrefix() + "/" + sm;
    }

    /**
     * One frame of {@code sweeper}'s stream; a sweep is applied when its last part arrives.
     *
     * @throws IllegalArgumentException the frame or its sweep is refused (out of order, beyond a bound), saying why;
     *                                  the stream goes on
     */
    public synchronized void accept(String sweeper, Frame.Fabric frame) {
        SweepAssembler assembler = assembling.computeIfAbsent(sweeper, s -> new SweepAssembler(MAX_NODES_PER_SWEEP));
        Optional<FabricSweep> whole = assembler.add(frame);
        if (whole.isPresent()) {
            apply(sweeper, whole.get());
        }
    }

    private void apply(String sweeper, FabricSweep sweep) {
        long now = clock.getAsLong();
        String id = subnetOf(sweep);
        Subnet subnet = subnets.get(id);
        if (subnet == null && subnets.size() >= MAX_FABRICS) {
            throw new IllegalArgumentException("fabric " + id + " from " + sweeper + " refused: the collector holds "
                    + MAX_FABRICS + " fabrics already");
        }
        FabricSweep merged = subnet == null || subnet.sweep == null || sweep.topology() ? sweep
                : withCounters(subnet.sweep, sweep);
        int others = subnets.values().stream().filter(s -> s != subnet).mapToInt(Subnet::ports).sum();
        int ports = Subnet.ports(merged);
        if (others + ports > MAX_PORTS) {
            throw new IllegalArgumentException("fabric " + id + " from " + sweeper + " refused: " + ports
                    + " ports, and " + others + " held in other fabrics, exceed the bound of " + MAX_PORTS);
        }
        Subnet target = subnet == null ? new Subnet(id) : subnet;
        subnets.put(id, target);
        target.sweepers.put(sweeper, new FabricState.SweeperStatus(sweeper, true, now, sweep.durationMillis(),
                sweep.success(), sweep.problems()));
        if (target.sweep != null && sweep.timeMillis() < target.sweep.timeMillis()) {
            publish(now); // the other sweeper's newer sweep is already applied: this one only counts as a sign of life
            return;
        }
        target.previous = target.sweep;
        target.previousMillis = target.lastSweepMillis;
        target.sweep = merged;
        target.lastSweepMillis = now;
        if (sweep.topology() || target.previous == null) {
            target.lost = lostLinks(target, merged);
        }
        target.history.record(merged, now);
        target.hostSwitchPorts = hostSwitchPorts(merged);
        judge(target, now);
        publish(now);
    }

    /** {@code topology}'s ports with the counters {@code counters} read of them; ports it did not read keep theirs. */
    private static FabricSweep withCounters(FabricSweep topology, FabricSweep counters) {
        Map<String, FabricPort> read = new HashMap<>();
        for (FabricNode node : counters.nodes()) {
            node.ports().forEach(p -> read.put(node.guid() + "/" + p.number(), p));
        }
        List<FabricNode> nodes = new ArrayList<>(topology.nodes().size());
        for (FabricNode node : topology.nodes()) {
            List<FabricPort> ports = new ArrayList<>(node.ports().size());
            for (FabricPort port : node.ports()) {
                FabricPort fresh = read.get(node.guid() + "/" + port.number());
                ports.add(fresh == null ? port : port.withCounters(fresh.counterSets(), fresh.counters()));
            }
            nodes.add(new FabricNode(node.guid(), node.type(), node.description(), ports));
        }
        return new FabricSweep(counters.subnetPrefix(), counters.smLid(), counters.smGuid(), counters.sweeper(),
                counters.timeMillis(), counters.durationMillis(), false, counters.success(), counters.problems(), nodes);
    }

    /**
     * The links seen up before that {@code sweep} no longer has up. A link whose end node is missing from a sweep
     * that failed is not judged: the node may only not have answered (the sweep's problems name it).
     */
    private static List<LinkEnds> lostLinks(Subnet subnet, FabricSweep sweep) {
        Set<String> up = new HashSet<>();
        for (FabricLink link : sweep.links()) {
            if (link.a().port().up() && link.b().port().up()) {
                LinkEnds ends = LinkEnds.of(link);
                up.add(ends.id());
                if (subnet.seenUp.size() < MAX_PORTS || subnet.seenUp.containsKey(ends.id())) {
                    subnet.seenUp.put(ends.id(), ends);
                }
            }
        }
        Set<String> answered = new HashSet<>();
        sweep.nodes().forEach(n -> answered.add(n.guid()));
        List<LinkEnds> lost = new ArrayList<>();
        for (LinkEnds link : subnet.seenUp.values()) {
            boolean judged = sweep.success() || answered.contains(link.a().guid()) && answered.contains(link.b().guid());
            if (!up.contains(link.id()) && judged) {
                lost.add(link);
            }
        }
        return lost;
    }

    private void judge(Subnet subnet, long now) {
        if (rules.isEmpty()) {
            return;
        }
        long elapsed = subnet.previous == null ? 0 : subnet.sweep.timeMillis() - subnet.previous.timeMillis();
        FabricInput in = new FabricInput(subnet.id, subnet.previous, subnet.sweep, elapsed, subnet.lost, hosts.get());
        Map<String, Long> holds = new HashMap<>();
        for (FabricRule rule : rules) {
            holds.put(rule.id().id(), rule.holdMillis());
            for (FabricFinding finding : rule.evaluate(in)) {
                String key = rule.id().id() + " " + finding.link().id();
                FabricVerdict before = subnet.verdicts.get(key);
                subnet.verdicts.put(key, new FabricVerdict(subnet.id, finding,
                        before == null ? now : before.sinceMillis(), now));
            }
        }
        subnet.verdicts.values().removeIf(v -> v.lastMillis() < now
                && now - v.lastMillis() >= holds.getOrDefault(v.rule().id(), 0L));
    }

    /** {@code sweeper}'s stream closed: it no longer keeps its fabrics current, and a sweep half received is dropped. */
    public synchronized void sweeperGone(String sweeper) {
        if (assembling.remove(sweeper) == null
                && subnets.values().stream().noneMatch(s -> s.sweepers.containsKey(sweeper))) {
            return;
        }
        subnets.values().forEach(s -> s.sweepers.computeIfPresent(sweeper, (k, v) -> v.disconnected()));
        publish(clock.getAsLong());
    }

    /**
     * Drops the fabrics no sweep reached for {@code dropAfter}; updates which are stale. Called every second: it
     * publishes anew only when a fabric was dropped or went stale.
     */
    public synchronized void expire() {
        long now = clock.getAsLong();
        boolean staler = published.stream().anyMatch(f -> !f.stale() && now - f.lastSweepMillis() > staleAfterMillis);
        boolean dropped = subnets.values().removeIf(s -> {
            boolean drop = now - s.lastSweepMillis >= dropAfterMillis;
            if (drop) {
                LOG.log(System.Logger.Level.INFO, "fabric {0} dropped: no sweep for {1} ms", s.id,
                        String.valueOf(now - s.lastSweepMillis));
            }
            return drop;
        });
        if (staler || dropped) {
            publish(now);
        }
    }

    private void publish(long now) {
        List<FabricState> states = new ArrayList<>(subnets.size());
        Map<String, LinkEnds.End> hostSwitchPorts = new HashMap<>();
        for (Subnet s : subnets.values()) {
            if (s.sweep == null) {
                continue;
            }
            boolean connected = s.sweepers.values().stream().anyMatch(FabricState.SweeperStatus::connected);
            states.add(new FabricState(s.id, s.sweep, List.copyOf(s.sweepers.values()),
                    !connected || now - s.lastSweepMillis > staleAfterMillis, s.lastSweepMillis,
                    List.copyOf(s.verdicts.values())));
            hostSwitchPorts.putAll(s.hostSwitchPorts);
        }
        published = List.copyOf(states);
        switchPorts = Map.copyOf(hostSwitchPorts);
    }

    /** The switch port at the other end of each HCA port of {@code sweep} that a cable leads to a switch. */
    private static Map<String, LinkEnds.End> hostSwitchPorts(FabricSweep sweep) {
        Map<String, LinkEnds.End> ports = new HashMap<>();
        for (FabricLink link : sweep.links()) {
            LinkEnds ends = LinkEnds.of(link);
            if (ends.a().type() == NodeType.CA && ends.b().type() == NodeType.SWITCH) {
                ports.put(ends.a().key(), ends.b());
            } else if (ends.b().type() == NodeType.CA && ends.a().type() == NodeType.SWITCH) {
                ports.put(ends.b().key(), ends.a());
            }
        }
        return ports;
    }

    /** Every fabric held, by name. */
    public List<FabricState> fabrics() {
        return published;
    }

    /** The fabric {@code subnet}, if held. */
    public Optional<FabricState> fabric(String subnet) {
        return published.stream().filter(f -> f.subnet().equals(subnet)).findFirst();
    }

    /**
     * The switch port cabled to HCA {@code guid}'s port {@code port} (the host port's neighbour, as LLDP names an
     * Ethernet port's), if a fabric holds it.
     */
    public Optional<LinkEnds.End> switchPortOf(String guid, int port) {
        return Optional.ofNullable(switchPorts.get(guid + "/" + port));
    }

    /**
     * The counters over time of both ends of the link at {@code guid}'s port {@code port} in fabric {@code subnet}:
     * the sweep times, then per end ({@code guid/port}) counter → values aligned with them. Empty when no such link.
     */
    public synchronized Optional<LinkHistory> history(String subnet, String guid, int port) {
        Subnet s = subnets.get(subnet);
        if (s == null || s.sweep == null) {
            return Optional.empty();
        }
        for (FabricLink link : s.sweep.links()) {
            LinkEnds ends = LinkEnds.of(link);
            if (ends.has(guid, port)) {
                Map<String, Map<String, List<Long>>> series = new LinkedHashMap<>();
                series.put(ends.a().key(), s.history.series(ends.a().key()));
                series.put(ends.b().key(), s.history.series(ends.b().key()));
                return Optional.of(new LinkHistory(subnet, ends, s.history.times(), series));
            }
        }
        return Optional.empty();
    }

    /**
     * A link's counters over time.
     *
     * @param times  collector times of the sweeps, oldest first
     * @param series per end ({@code guid/port}), counter name → values aligned with {@code times}, null where unread
     */
    public record LinkHistory(String subnet, LinkEnds link, List<Long> times,
                              Map<String, Map<String, List<Long>>> series) {
    }
}
