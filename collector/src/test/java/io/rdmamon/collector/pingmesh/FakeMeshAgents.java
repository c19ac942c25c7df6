package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.ingest.AgentLinks;
import io.rdmamon.collector.probe.ProbeOrchestrator;
import io.rdmamon.protocol.probe.LatencyResult;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.wire.Frame;
import io.vertx.core.Context;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The agents of a pingmesh test behind the orchestrator's {@link AgentLinks}: every agent allows the pingmesh and
 * answers a probe start as its node's {@link Behaviour} says, on the collector's context (as a frame would arrive).
 */
final class FakeMeshAgents implements AgentLinks {
    enum Behaviour {
        /** Server listens, client measures 19 round trips of 3 µs. */
        HEALTHY,
        /** As healthy, but 4 of the client's 19 round trips waited for a retransmission (100 ms). */
        LOSSY,
        /** The agent is up but its port cannot be reached: a client towards or from it fails, perftest exiting 1. */
        DEAD,
        /** The agent refuses every side (probes disabled): FAILED without an exit code. */
        REFUSING,
        /** Its server listens; as a client it starts and never reports again (a probe that is still running). */
        HANGING,
        /** As healthy, but as a client its perftest cannot time the exchanges (clock calibration failed). */
        UNTIMED
    }

    /** What an {@link Behaviour#UNTIMED} client's agent reports. */
    static final String UNTIMED_REASON =
            "perftest could not time the round trips (its CPU clock calibration failed): Correlation coefficient r^2: "
                    + "0.144153 < 0.9";

    /** One frame the collector sent. */
    record Sent(String node, Frame frame) {
    }

    private final Context context;
    private final Map<String, Behaviour> behaviours = new ConcurrentHashMap<>();
    final List<Sent> sent = new CopyOnWriteArrayList<>();
    ProbeOrchestrator orchestrator;

    FakeMeshAgents(Context context) {
        this.context = context;
    }

    void node(String node, Behaviour behaviour) {
        behaviours.put(node, behaviour);
    }

    @Override
    public boolean connected(String node) {
        return behaviours.containsKey(node);
    }

    @Override
    public boolean accepts(String node, String capability) {
        return behaviours.containsKey(node);
    }

    @Override
    public boolean send(String node, Frame frame) {
        if (!behaviours.containsKey(node)) {
            return false;
        }
        sent.add(new Sent(node, frame));
        if (frame instanceof Frame.ProbeStart start) {
            context.runOnContext(v -> answer(node, start));
        }
        return true;
    }

    @Override
    public Optional<String> remoteHost(String node) {
        return Optional.of("10.0.0." + (Math.abs(node.hashCode()) % 200 + 1));
    }

    /** The probe starts sent so far. */
    List<Sent> starts() {
        return sent.stream().filter(s -> s.frame() instanceof Frame.ProbeStart).toList();
    }

    private void answer(String node, Frame.ProbeStart start) {
        Behaviour behaviour = behaviours.get(node);
        String id = start.probeId();
        if (!id.startsWith("pm-")) {
            return; // an operator's probe: left running
        }
        if (behaviour == Behaviour.REFUSING) {
            report(node, id, start.role(), ProbePhase.FAILED, 0, null, null, "probes are disabled on this agent");
            return;
        }
        if (start.role() == ProbeRole.SERVER) {
            report(node, id, ProbeRole.SERVER, ProbePhase.LISTENING, 18_515, null, null, null);
            return;
        }
        String server = sent.stream().filter(s -> s.frame() instanceof Frame.ProbeStart other
                && other.probeId().equals(id) && other.role() == ProbeRole.SERVER).map(Sent::node).findFirst().orElseThrow();
        if (behaviour == Behaviour.HANGING) {
            report(node, id, ProbeRole.CLIENT, ProbePhase.RUNNING, 0, null, null, null);
            return;
        }
        if (behaviour == Behaviour.DEAD || behaviours.get(server) == Behaviour.DEAD) {
            report(node, id, ProbeRole.CLIENT, ProbePhase.FAILED, 0, null, 1, "Couldn't connect to 192.168.1.2:18515");
            report(server, id, ProbeRole.SERVER, ProbePhase.FAILED, 0, null, 1, "server timed out");
            return;
        }
        boolean lossy = behaviour == Behaviour.LOSSY || behaviours.get(server) == Behaviour.LOSSY;
        // a slow first exchange, as the lab's perftest shows (the warm-up PingmeshResults leaves out), then the rest
        List<Long> rtts = new ArrayList<>(List.of(1_300_000_000L));
        for (int i = 0; i < start.spec().iterations() - 1; i++) {
            rtts.add(lossy && i % 5 == 0 ? 100_000_000L : 3_000L);
        }
        report(node, id, ProbeRole.CLIENT, ProbePhase.RUNNING, 0, null, null, null);
        report(node, id, ProbeRole.CLIENT, ProbePhase.DONE, 0, behaviour == Behaviour.UNTIMED
                ? LatencyResult.untimed(start.spec().sizeBytes(), start.spec().iterations(), UNTIMED_REASON)
                : new LatencyResult(start.spec().sizeBytes(), start.spec().iterations(), rtts), 0, null);
        report(server, id, ProbeRole.SERVER, ProbePhase.DONE, 0, null, 0, null);
    }

    private void report(String node, String id, ProbeRole role, ProbePhase phase, int tcpPort, LatencyResult latency,
                        Integer exitCode, String error) {
        orchestrator.probeReport(node, new Frame.ProbeReport(id, role, phase, tcpPort, null, latency, exitCode, error,
                List.of()));
    }
}
