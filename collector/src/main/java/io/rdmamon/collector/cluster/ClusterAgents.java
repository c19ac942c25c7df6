package io.rdmamon.collector.cluster;

import io.rdmamon.collector.ingest.AgentLinks;
import io.rdmamon.collector.ingest.AgentRegistry;
import io.rdmamon.collector.probe.ProbeNodes;
import io.rdmamon.collector.probe.ProbeOrchestrator;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.FrameException;
import io.rdmamon.protocol.wire.SampleDecoder;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The agents and nodes a probe may use, in a cluster any replica's (docs/architecture.md "Cluster": probes between
 * agents held by
 * different replicas, requested on a third). The replica that takes the request runs the probe: before it starts,
 * {@link #prefetch} asks each endpoint's replica (the node directory names it) for the node's last sample, which
 * the checks and the server address need; frames for a remote agent go to its replica over the event bus
 * ({@link FleetCluster#agentAddress}), which writes them on the agent's own authenticated stream; every replica
 * publishes its agents' probe reports and disconnects ({@link FleetCluster#PROBE_REPORTS}) and every orchestrator
 * takes those of the probes it runs. A lone collector runs the same code on its local event bus.
 */
public final class ClusterAgents implements AgentLinks, ProbeNodes {
    private static final System.Logger LOG = System.getLogger(ClusterAgents.class.getName());
    private static final DeliveryOptions ASK = new DeliveryOptions().setSendTimeout(FleetRoutes.ASK_TIMEOUT.toMillis());
    /** Remote nodes remembered for the probes that use them; the oldest are forgotten beyond this. */
    private static final int REMEMBERED = 256;

    /** A node another replica holds: its directory entry and last sample, as fetched before a probe. */
    private record Remote(NodeOwner owner, HostSample sample) {
    }

    private final Vertx vertx;
    private final FleetCluster cluster;
    private final AgentRegistry local;
    private final NodeStore store;
    private final ClusterSeal seal;
    private final FrameCodec codec = new FrameCodec();
    private final Map<String, Remote> remote = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Remote> eldest) {
            return size() > REMEMBERED;
        }
    };

    public ClusterAgents(Vertx vertx, FleetCluster cluster, AgentRegistry local, NodeStore store, ClusterSeal seal) {
        this.vertx = vertx;
        this.cluster = cluster;
        this.local = local;
        this.store = store;
        this.seal = seal;
    }

    /** Serves the other replicas (samples, frames for this replica's agents) and hands reports to {@code probes}. */
    public void serve(ProbeOrchestrator probes) {
        vertx.eventBus().<JsonObject>consumer(FleetCluster.agentAddress(cluster.selfId()), message -> {
            JsonObject body = message.body();
            if (body.containsKey("sample")) {
                message.reply(sampleMessage(body.getString("sample")));
            } else {
                String refusal = seal.refusal(body);
                if (refusal != null) {
                    LOG.log(System.Logger.Level.WARNING, "a frame for the agent of {0} from another member was refused: {1}",
                            body.getString("node"), refusal);
                    message.reply(new JsonObject().put("sent", false).put("refused", refusal));
                    return;
                }
                message.reply(new JsonObject().put("sent", sendLocal(body.getString("node"), body.getBinary("frame"))));
            }
        });
        local.listener(new AgentRegistry.Listener() {
            @Override
            public void probeReport(String node, Frame.ProbeReport report) {
                vertx.eventBus().publish(FleetCluster.PROBE_REPORTS, new JsonObject().put("node", node)
                        .put("report", codec.encode(report)));
            }

            @Override
            public void disconnected(String node) {
                vertx.eventBus().publish(FleetCluster.PROBE_REPORTS, new JsonObject().put("node", node)
                        .put("disconnected", true));
            }
        });
        vertx.eventBus().<JsonObject>consumer(FleetCluster.PROBE_REPORTS, message -> {
            String node = message.body().getString("node");
            try {
                if (message.body().getBoolean("disconnected", false)) {
                    probes.disconnected(node);
                } else if (codec.decode(message.body().getBinary("report")) instanceof Frame.ProbeReport report) {
                    probes.probeReport(node, report);
                }
            } catch (FrameException | RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "a probe report of {0} from another replica was dropped: {1}",
                        node, e.getMessage());
            }
        });
    }

    /**
     * Learns what a probe needs of {@code node} when another replica holds it; completes (never fails) when this
     * replica holds it, nobody does, or the holder does not answer (the probe is then refused as not connected).
     */
    public Future<Void> prefetch(String node) {
        if (store.node(node).isPresent()) {
            return Future.succeededFuture();
        }
        return cluster.directory().owner(node).compose(owner -> {
            if (owner.isEmpty() || owner.get().replica().equals(cluster.selfId())) {
                remote.remove(node);
                return Future.succeededFuture();
            }
            return vertx.eventBus().<JsonObject>request(FleetCluster.agentAddress(owner.get().replica()),
                    new JsonObject().put("sample", node), ASK).compose(reply -> {
                try {
                    remote.put(node, new Remote(owner.get(), decodeSample(reply.body())));
                    return Future.<Void>succeededFuture();
                } catch (FrameException e) {
                    return Future.failedFuture(e);
                }
            });
        }).recover(e -> {
            LOG.log(System.Logger.Level.DEBUG, "probe: {0} not reachable through its replica: {1}", node, e.getMessage());
            remote.remove(node);
            return Future.succeededFuture();
        });
    }

    @Override
    public boolean known(String node) {
        return store.node(node).isPresent() || remote.containsKey(node);
    }

    @Override
    public HostSample lastSample(String node) {
        return store.node(node).map(view -> view.lastSample())
                .orElseGet(() -> Optional.ofNullable(remote.get(node)).map(Remote::sample).orElse(null));
    }

    @Override
    public boolean connected(String node) {
        if (local.connected(node)) {
            return true;
        }
        Remote far = remote.get(node);
        return far != null && far.owner().connected() && cluster.isMember(far.owner().replica());
    }

    @Override
    public boolean accepts(String node, String capability) {
        if (local.connected(node)) {
            return local.accepts(node, capability);
        }
        Remote far = remote.get(node);
        return far != null && far.owner().capabilities().contains(capability);
    }

    @Override
    public boolean send(String node, Frame frame) {
        if (local.connected(node)) {
            return local.send(node, frame);
        }
        Remote far = remote.get(node);
        if (far == null || !cluster.isMember(far.owner().replica())) {
            return false;
        }
        vertx.eventBus().send(FleetCluster.agentAddress(far.owner().replica()), seal.frame(node, codec.encode(frame)));
        return true;
    }

    @Override
    public Optional<String> remoteHost(String node) {
        if (local.connected(node)) {
            return local.remoteHost(node);
        }
        return Optional.ofNullable(remote.get(node)).map(far -> far.owner().remoteHost());
    }

    private boolean sendLocal(String node, byte[] frame) {
        try {
            return node != null && frame != null && local.send(node, codec.decode(frame));
        } catch (FrameException e) {
            LOG.log(System.Logger.Level.WARNING, "a frame for the agent of {0} from another replica was dropped: {1}",
                    node, e.getMessage());
            return false;
        }
    }

    /** The node's last sample as the wire carries it (hello with the layout, then the values). */
    private JsonObject sampleMessage(String node) {
        HostSample last = node == null ? null : store.node(node).map(view -> view.lastSample()).orElse(null);
        JsonArray frames = new JsonArray();
        if (last != null) {
            new SampleEncoder(node, "cluster", 1000).encode(last, 1).forEach(frame -> frames.add(codec.encode(frame)));
        }
        return new JsonObject().put("frames", frames);
    }

    private HostSample decodeSample(JsonObject message) throws FrameException {
        SampleDecoder decoder = new SampleDecoder();
        HostSample sample = null;
        JsonArray frames = message.getJsonArray("frames", new JsonArray());
        for (int i = 0; i < frames.size(); i++) {
            sample = decoder.accept(codec.decode(frames.getBinary(i))).orElse(sample);
        }
        return sample;
    }
}
