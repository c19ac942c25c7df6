package io.rdmamon.collector.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * This collector's place among the replicas (DESIGN.md §8): its id, the members, the {@link NodeDirectory}, and
 * the event-bus addresses replicas talk on. A lone collector is a cluster of one with id {@value #LONE_ID}: the
 * same code paths run on Vert.x's local maps and local event bus, so nothing forks on "clustered or not" beyond
 * this class.
 */
public final class FleetCluster {
    public static final String LONE_ID = "local";
    /** A replica's fleet-baseline counts (FleetRates, QosFleet), published every few seconds. */
    public static final String FLEET_BASELINE = "rdmamon.fleet.baseline";
    /** Probe reports from the replica holding the reporting agent, to the replica running the probe. */
    public static final String PROBE_REPORTS = "rdmamon.probe.reports";
    /** A replica's per-tick fleet delta for the dashboards of every replica. */
    public static final String LIVE_FLEET = "rdmamon.live.fleet";
    private static final System.Logger LOG = System.getLogger(FleetCluster.class.getName());
    private static final String DIRECTORY_MAP = "rdmamon.nodes";
    private static final String REPLICAS_MAP = "rdmamon.replicas";

    private final Vertx vertx;
    private final HazelcastClusterManager manager;
    private final String selfId;
    private final String address;
    private final AsyncMap<String, String> replicas;
    private final NodeDirectory directory;
    private final List<Consumer<String>> leftListeners = new CopyOnWriteArrayList<>();
    private volatile String api;
    private long joinedMillis;
    private int viewers;

    private FleetCluster(Vertx vertx, HazelcastClusterManager manager, String selfId, String address,
                         AsyncMap<String, String> replicas, AsyncMap<String, String> nodes) {
        this.vertx = vertx;
        this.manager = manager;
        this.selfId = selfId;
        this.address = address;
        this.replicas = replicas;
        this.directory = new NodeDirectory(nodes, selfId, this::isMember);
    }

    /** A lone collector: Vert.x's local maps and event bus. */
    public static Future<FleetCluster> lone(Vertx vertx) {
        return open(vertx, null, LONE_ID, null);
    }

    /** A replica of the cluster {@code manager} joined ({@link ClusterBoot}); membership events arrive on {@code vertx}. */
    public static Future<FleetCluster> joined(Vertx vertx, HazelcastClusterManager manager) {
        Member local = manager.getHazelcastInstance().getCluster().getLocalMember();
        String address = local.getAddress().getHost() + ":" + local.getAddress().getPort();
        // the member UUID, which Hazelcast's membership events carry (Vert.x's own node id is another UUID)
        return open(vertx, manager, local.getUuid().toString(), address);
    }

    private static Future<FleetCluster> open(Vertx vertx, HazelcastClusterManager manager, String id, String address) {
        Future<AsyncMap<String, String>> replicas = vertx.sharedData().getAsyncMap(REPLICAS_MAP);
        Future<AsyncMap<String, String>> nodes = vertx.sharedData().getAsyncMap(DIRECTORY_MAP);
        return Future.all(replicas, nodes).map(both -> {
            FleetCluster cluster = new FleetCluster(vertx, manager, id, address, replicas.result(), nodes.result());
            if (manager != null) {
                cluster.listenForMembers(vertx.getOrCreateContext());
            }
            return cluster;
        });
    }

    public String selfId() {
        return selfId;
    }

    public boolean clustered() {
        return manager != null;
    }

    public NodeDirectory directory() {
        return directory;
    }

    /** The replica ids in the cluster now (this one included). */
    public Set<String> memberIds() {
        if (manager == null) {
            return Set.of(selfId);
        }
        return manager.getHazelcastInstance().getCluster().getMembers().stream().map(m -> m.getUuid().toString())
                .collect(Collectors.toUnmodifiableSet());
    }

    public boolean isMember(String replica) {
        return memberIds().contains(replica);
    }

    /** Called on the collector's context with the id of a replica that left (crashed or shut down). */
    public void onMemberLeft(Consumer<String> listener) {
        leftListeners.add(listener);
    }

    /** Records this replica's HTTP base URL for {@code /api/cluster}, once its server listens. */
    public Future<Void> announce(String apiBaseUrl) {
        api = apiBaseUrl;
        joinedMillis = System.currentTimeMillis();
        return replicas.put(selfId, info());
    }

    /**
     * Records how many dashboard streams this replica serves: the replicas share their overview rows only while
     * some replica has a browser to show them to ({@link #anyViewers}).
     */
    public Future<Void> reportViewers(int count) {
        viewers = count;
        return api == null ? Future.succeededFuture() : replicas.put(selfId, info());
    }

    /** Whether any member has a dashboard stream open, by the replicas' last reports. */
    public Future<Boolean> anyViewers() {
        Set<String> ids = memberIds();
        return replicas.entries().map(entries -> entries.entrySet().stream().anyMatch(e -> ids.contains(e.getKey())
                && new JsonObject(e.getValue()).getInteger("viewers", 0) > 0));
    }

    private String info() {
        return new JsonObject().put("address", address).put("api", api).put("joinedMillis", joinedMillis)
                .put("viewers", viewers).encode();
    }

    /** Removes this replica's entry (on a clean shutdown; the survivors purge it otherwise). */
    public Future<Void> withdraw() {
        return replicas.remove(selfId).mapEmpty();
    }

    /** The members, this one first, then by address, each with the count of nodes it holds. */
    public Future<List<ClusterMember>> members() {
        Set<String> ids = memberIds();
        return Future.all(replicas.entries(), directory.all()).map(both -> {
            Map<String, String> info = both.resultAt(0);
            Map<String, Integer> held = new HashMap<>();
            ((Map<String, NodeOwner>) both.resultAt(1)).values().forEach(o -> held.merge(o.replica(), 1, Integer::sum));
            List<ClusterMember> members = new ArrayList<>();
            for (String id : ids) {
                JsonObject announced = info.containsKey(id) ? new JsonObject(info.get(id)) : new JsonObject();
                String memberAddress = id.equals(selfId) ? address : announced.getString("address", addressOf(id));
                members.add(new ClusterMember(id, memberAddress, id.equals(selfId) ? api : announced.getString("api"),
                        id.equals(selfId), held.getOrDefault(id, 0), announced.getLong("joinedMillis", 0L)));
            }
            members.sort(Comparator.comparing((ClusterMember m) -> !m.self())
                    .thenComparing(m -> m.address() == null ? "" : m.address()));
            return members;
        });
    }

    /** Request/reply: queries a replica answers for the data it holds (node detail, its nodes, its diagnoses). */
    public static String queryAddress(String replica) {
        return "rdmamon.replica." + replica + ".query";
    }

    /** Request/reply: a frame for the agent of a node this replica holds. */
    public static String agentAddress(String replica) {
        return "rdmamon.replica." + replica + ".agent";
    }

    /** Send: another replica claimed a node this one held. */
    public static String releaseAddress(String replica) {
        return "rdmamon.replica." + replica + ".release";
    }

    private String addressOf(String id) {
        if (manager == null) {
            return null;
        }
        for (Member member : manager.getHazelcastInstance().getCluster().getMembers()) {
            if (member.getUuid().toString().equals(id)) {
                return member.getAddress().getHost() + ":" + member.getAddress().getPort();
            }
        }
        return null;
    }

    private void listenForMembers(Context context) {
        manager.getHazelcastInstance().getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                LOG.log(System.Logger.Level.INFO, "cluster: replica {0} at {1} joined ({2} members)",
                        event.getMember().getUuid(), event.getMember().getAddress(), event.getMembers().size());
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                String id = event.getMember().getUuid().toString();
                LOG.log(System.Logger.Level.WARNING, "cluster: replica {0} at {1} left ({2} members)", id,
                        event.getMember().getAddress(), event.getMembers().size());
                // Hazelcast's event thread must not run our handlers: they touch state confined to the context
                context.runOnContext(v -> memberLeft(id));
            }
        });
    }

    private void memberLeft(String id) {
        replicas.remove(id);
        directory.purge(id).onSuccess(nodes -> {
            if (!nodes.isEmpty()) {
                LOG.log(System.Logger.Level.INFO, "cluster: {0} node(s) of departed replica {1} left the directory: {2}",
                        nodes.size(), id, nodes.size() <= 20 ? nodes : nodes.subList(0, 20) + "…");
            }
        }).onFailure(e -> LOG.log(System.Logger.Level.WARNING, "cluster: purging replica " + id + " failed", e));
        leftListeners.forEach(listener -> listener.accept(id));
    }
}
