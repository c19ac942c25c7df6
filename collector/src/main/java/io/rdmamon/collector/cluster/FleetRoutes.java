package io.rdmamon.collector.cluster;

import io.rdmamon.collector.http.DiagnosesApi;
import io.rdmamon.collector.http.EventsApi;
import io.rdmamon.collector.http.TimelineApi;
import io.rdmamon.collector.http.NodesApi;
import io.rdmamon.collector.model.Severity;
import io.rdmamon.collector.probe.ProbeOrchestrator;
import io.rdmamon.collector.web.ApiAnswer;
import io.rdmamon.collector.web.JsonReplies;
import io.rdmamon.collector.web.Routes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every replica answers for the whole fleet (docs/architecture.md "Cluster"): {@code /api/nodes} and {@code
 * /api/diagnoses} and {@code /api/events} gather
 * the answers of every member over the clustered event bus ({@link FleetCluster#queryAddress}) and merge them
 * (each node carries the {@code replica} that holds it, {@link NodesApi}); {@code /api/nodes/{node}} and its {@code
 * /history},
 * {@code /nccl} and {@code /events} are answered by the replica the node directory names; {@code /api/probes} lists
 * every replica's probes and {@code /api/probes/{id}} is answered by the replica that runs it. A member that does not
 * answer within {@link #ASK_TIMEOUT} costs only its own part: a list answer is still 200, naming it in
 * {@code missingReplicas}; a node of it is 503 naming the replica. A lone collector is a cluster of one: the same
 * answers, built locally.
 *
 * <p>Mounted before the local handlers, which keep serving this replica's own nodes and unknown names (404).
 */
public final class FleetRoutes implements Routes {
    /** How long a replica waits for another's part of an answer. */
    static final Duration ASK_TIMEOUT = Duration.ofSeconds(3);
    private final Vertx vertx;
    private final FleetCluster cluster;
    private final NodesApi nodes;
    private final EventsApi events;
    private final TimelineApi timeline;
    private final DiagnosesApi diagnoses;
    private final ProbeOrchestrator probes;

    public FleetRoutes(Vertx vertx, FleetCluster cluster, NodesApi nodes, EventsApi events, DiagnosesApi diagnoses,
                       ProbeOrchestrator probes, TimelineApi timeline) {
        this.timeline = timeline;
        this.vertx = vertx;
        this.cluster = cluster;
        this.nodes = nodes;
        this.events = events;
        this.diagnoses = diagnoses;
        this.probes = probes;
    }

    /** Answers the other replicas' questions about what this one holds; call once, on the collector's context. */
    public void serve() {
        vertx.eventBus().<JsonObject>consumer(FleetCluster.queryAddress(cluster.selfId()),
                message -> message.reply(answer(message.body()).toMessage()));
    }

    @Override
    public void mount(Router router) {
        router.get("/api/nodes").handler(ctx -> gather(ctx, new JsonObject().put("query", "nodes"), "nodes",
                Comparator.comparing(item -> item.getString("node", "")), ONE_PER_NODE));
        router.get("/api/diagnoses").handler(ctx -> gather(ctx, new JsonObject().put("query", "diagnoses")
                        .put("node", ctx.request().getParam("node")).put("rule", ctx.request().getParam("rule"))
                        .put("severity", ctx.request().getParam("severity")), "diagnoses",
                Comparator.comparing((JsonObject item) -> severityRank(item.getString("severity")))
                        .thenComparingLong(item -> item.getLong("sinceMillis", 0L))
                        .thenComparing(item -> item.getString("node", "")), null));
        // each member answers at most limit entries: the merged list, newest first, holds up to limit per member
        router.get("/api/events").handler(ctx -> gather(ctx, new JsonObject().put("query", "changes")
                        .put("node", ctx.request().getParam("node")).put("kind", ctx.request().getParam("kind"))
                        .put("severity", ctx.request().getParam("severity")).put("since", ctx.request().getParam("since"))
                        .put("after", ctx.request().getParam("after")).put("limit", ctx.request().getParam("limit")),
                "events", Comparator.comparingLong((JsonObject e) -> e.getLong("timeMillis", 0L)).reversed(), null));
        // ?include=pingmesh: the pingmesh's own probes too (docs/probes.md)
        router.get("/api/probes").handler(ctx -> gather(ctx, new JsonObject().put("query", "probes")
                        .put("include", ctx.request().getParam("include")), "probes",
                Comparator.comparingLong((JsonObject probe) -> probe.getLong("createdMillis", 0L)).reversed(), null));
        router.get("/api/probes/:id").handler(this::probe);
        for (String part : List.of("", "/history", "/nccl", "/topology", "/events", "/kernel")) {
            router.get("/api/nodes/:node" + part).handler(ctx -> forward(ctx, part.isEmpty() ? "detail" : part.substring(1)));
        }
    }

    /** This replica's answer to a query from another (or from itself). */
    ApiAnswer answer(JsonObject query) {
        String node = query.getString("node");
        return switch (query.getString("query", "")) {
            case "nodes" -> nodes.list();
            case "diagnoses" -> diagnoses.list(node, query.getString("rule"), query.getString("severity"));
            case "detail" -> nodes.detail(node);
            case "history" -> nodes.history(node);
            case "nccl" -> nodes.nccl(node);
            case "topology" -> nodes.topology(node);
            case "kernel" -> nodes.kernel(node);
            case "events" -> events.events(node);
            case "changes" -> timeline.list(node, query.getString("kind"), query.getString("severity"),
                    query.getString("since"), query.getString("after"), query.getString("limit"));
            case "probes" -> ApiAnswer.ok(probes.list("pingmesh".equals(query.getString("include"))).encode());
            case "probe" -> probes.get(query.getString("id")).map(probe -> ApiAnswer.ok(probe.encode()))
                    .orElseGet(() -> ApiAnswer.error(404, "unknown probe '" + query.getString("id") + "'"));
            default -> ApiAnswer.error(400, "unknown cluster query '" + query.getString("query") + "'");
        };
    }

    /**
     * A probe is held by the replica that took its request: this one answers its own, else the first other replica
     * that knows the id; none (or none answering): the local 404.
     */
    private void probe(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        List<String> others = cluster.memberIds().stream().filter(r -> !r.equals(cluster.selfId())).toList();
        if (probes.get(id).isPresent() || others.isEmpty()) {
            ctx.next();
            return;
        }
        List<Future<ApiAnswer>> asked = others.stream()
                .map(replica -> ask(replica, new JsonObject().put("query", "probe").put("id", id))).toList();
        Future.join(asked).onComplete(done -> asked.stream()
                .filter(a -> a.succeeded() && a.result().status() == 200).findFirst()
                .ifPresentOrElse(found -> found.result().send(ctx), ctx::next));
    }

    /** The node's own replica answers; this one when it holds the node or nobody does (the local 404). */
    private void forward(RoutingContext ctx, String part) {
        String node = ctx.pathParam("node");
        cluster.directory().owner(node).onComplete(owner -> {
            if (owner.failed() || owner.result().isEmpty() || owner.result().get().replica().equals(cluster.selfId())) {
                ctx.next();
                return;
            }
            String replica = owner.result().get().replica();
            ask(replica, new JsonObject().put("query", part).put("node", node)).onComplete(asked -> {
                if (asked.succeeded()) {
                    asked.result().send(ctx);
                } else {
                    JsonReplies.error(ctx, 503, "node '" + node + "' is held by replica " + replica
                            + ", which did not answer: " + asked.cause().getMessage());
                }
            });
        });
    }

    /**
     * Asks every member in parallel and merges the {@code key} arrays of their answers; with {@code oneOf}, items of
     * one identity from several members are reduced to the one it prefers.
     */
    private void gather(RoutingContext ctx, JsonObject query, String key, Comparator<JsonObject> order,
                        Deduplication oneOf) {
        List<String> members = new ArrayList<>(cluster.memberIds());
        if (members.equals(List.of(cluster.selfId()))) {
            answer(query).send(ctx); // a cluster of one: its own answer as it is, nothing to merge
            return;
        }
        List<Future<ApiAnswer>> asked = new ArrayList<>();
        for (String replica : members) {
            asked.add(replica.equals(cluster.selfId()) ? Future.succeededFuture(answer(query)) : ask(replica, query));
        }
        Future.join(asked).onComplete(done -> {
            List<JsonObject> items = new ArrayList<>();
            JsonArray missing = new JsonArray();
            JsonObject others = new JsonObject();
            for (int i = 0; i < members.size(); i++) {
                Future<ApiAnswer> part = asked.get(i);
                if (part.failed()) {
                    missing.add(new JsonObject().put("replica", members.get(i)).put("error", part.cause().getMessage()));
                    continue;
                }
                if (part.result().status() != 200) {
                    part.result().send(ctx); // a bad request is bad on every replica: the first says why
                    return;
                }
                JsonObject body = new JsonObject(part.result().json());
                body.fieldNames().stream().filter(name -> !name.equals(key)).forEach(name -> others.put(name, body.getValue(name)));
                body.getJsonArray(key, new JsonArray()).forEach(item -> items.add((JsonObject) item));
            }
            List<JsonObject> distinct = oneOf == null ? items : oneOf.reduce(items);
            distinct.sort(order);
            // the array first, as one collector answers (clients may read the stream in order)
            JsonObject merged = new JsonObject().put(key, new JsonArray(new ArrayList<>(distinct))).mergeIn(others);
            if (!missing.isEmpty()) {
                merged.put("missingReplicas", missing);
            }
            JsonReplies.ok(ctx, merged);
        });
    }

    /** Items that name the same thing, from several members: which one to keep. */
    private record Deduplication(String identity, Comparator<JsonObject> preferred) {
        List<JsonObject> reduce(List<JsonObject> items) {
            Map<String, JsonObject> kept = new LinkedHashMap<>();
            for (JsonObject item : items) {
                kept.merge(String.valueOf(item.getValue(identity)), item,
                        (a, b) -> preferred.compare(a, b) <= 0 ? a : b);
            }
            return new ArrayList<>(kept.values());
        }
    }

    /**
     * A node moving between replicas (or after a partition healed, before the old holder dropped it) is briefly on
     * two: the connected one is the holder, else the one that heard from it last.
     */
    private static final Deduplication ONE_PER_NODE = new Deduplication("node",
            Comparator.comparing((JsonObject n) -> !n.getBoolean("connected", false))
                    .thenComparing(Comparator.comparingLong((JsonObject n) -> n.getLong("lastSeenMillis", 0L)).reversed()));

    private Future<ApiAnswer> ask(String replica, JsonObject query) {
        return vertx.eventBus().<JsonObject>request(FleetCluster.queryAddress(replica), query,
                new DeliveryOptions().setSendTimeout(ASK_TIMEOUT.toMillis())).map(reply -> ApiAnswer.fromMessage(reply.body()));
    }

    private static int severityRank(String id) {
        try {
            return Severity.fromId(id).ordinal();
        } catch (IllegalArgumentException | NullPointerException e) {
            return Integer.MAX_VALUE;
        }
    }
}
