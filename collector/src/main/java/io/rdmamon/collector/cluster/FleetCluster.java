package io.rdmamon.collector.cluster;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * This collector's place among the replicas (docs/architecture.md "Cluster"): its id, the members, the {@link
 * NodeDirectory}, and
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
    private static final long SETTLE_MILLIS = 5000;
    /**
     * Logged once the second re-assertion after a merge ran: until then a replica may still drop or re-claim nodes
     * from a stale merged directory (a known race when a replica dies inside this window: docs/collector.md).
     */
    public static final String MERGE_SETTLED = "the merge has settled: this replica's entries are written again";
    private static final String REPLICAS_MAP = "rdmamon.replicas";
    /** Every cluster-wide map rdmamon uses (each replica declares them at start, {@link ClusterBoot}). */
    static final List<String> MAPS = List.of(DIRECTORY_MAP, REPLICAS_MAP);

    private final Vertx vertx;
    private final ReplicaClusterManager manager;
    private final String selfId;
    private final String address;
    private final AsyncMap<String, String> replicas;
    private final NodeDirectory directory;
    private final List<Consumer<String>> leftListeners = new CopyOnWriteArrayList<>();
    private final List<Runnable> reassertListeners = new CopyOnWriteArrayList<>();
    private volatile String api;
    private long joinedMillis;
    private int viewers;

    private FleetCluster(Vertx vertx, ReplicaClusterManager manager, String selfId, String address,
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

    /** A replica of the cluster {@code manager} joined ({@link ClusterBoot}); membership events arrive on {@code
     * vertx}. */
    public static Future<FleetCluster> joined(Vertx vertx, ReplicaClusterManager manager, String memberAddress) {
        return open(vertx, manager, manager.selfId(), memberAddress);
    }

    private static Future<FleetCluster> open(Vertx vertx, ReplicaClusterManager manager, String id, String address) {
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

    /** The cluster manager (null for a lone collector): for tests that cut a replica off. */
    ReplicaClusterManager manager() {
        return manager;
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
        return manager.memberIds();
    }

    public boolean isMember(String replica) {
        return memberIds().contains(replica);
    }

    /** Called on the collector's context with the id of a replica that left (crashed or shut down). */
    public void onMemberLeft(Consumer<String> listener) {
        leftListeners.add(listener);
    }

    /**
     * Called on the collector's context after partitions merged, and again once the caches settled: the listeners
     * write the directory entries of the nodes this replica holds again and drop the nodes that moved meanwhile
     * ({@link #reassert()}).
     */
    public void onMerged(Runnable listener) {
        reassertListeners.add(listener);
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
                String memberAddress = id.equals(selfId) ? address : announced.getString("address");
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

    private void listenForMembers(Context context) {
        // Infinispan's notification thread must not run our handlers: they touch state confined to the context
        manager.addViewListener((joined, left, merged) -> context.runOnContext(v -> {
            int size = memberIds().size();
            joined.forEach(id -> LOG.log(System.Logger.Level.INFO, "cluster: replica {0} joined ({1} members{2})", id,
                    size, merged ? ", partitions merged" : ""));
            left.forEach(id -> {
                LOG.log(System.Logger.Level.WARNING, "cluster: replica {0} left ({1} members)", id, size);
                memberLeft(id);
            });
            if (merged) {
                reassert();
                // the merged caches settle (state transfer, conflict resolution) within seconds and may undo
                // what was written during the merge: once more when they have
                vertx.setTimer(SETTLE_MILLIS, t -> {
                    reassert();
                    LOG.log(System.Logger.Level.INFO, "cluster: " + MERGE_SETTLED);
                });
            }
        }));
    }

    /**
     * After partitions merged, each side may have purged the other's entries while they were apart (a replica stopped
     * for a minute looks dead to the others): every replica writes its own entry and the nodes it holds again, so
     * the merged cluster's view is whole whichever side's copy of a map survived the merge.
     */
    private void reassert() {
        manager.republish();
        if (api != null) {
            replicas.put(selfId, info());
        }
        reassertListeners.forEach(Runnable::run);
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
