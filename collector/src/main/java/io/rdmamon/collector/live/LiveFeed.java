package io.rdmamon.collector.live;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.cluster.BusCompression;
import io.rdmamon.collector.cluster.FleetCluster;
import io.rdmamon.collector.diagnosis.DiagnosisJson;
import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.model.PortKey;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.store.NodeView;
import io.rdmamon.collector.web.JsonReplies;
import io.rdmamon.collector.web.Routes;
import io.rdmamon.protocol.model.HostSample;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The dashboard's push channel: {@code GET /api/live} answers a server-sent event stream (read with
 * the viewer token like the rest of {@code /api}, which is why it is SSE read through {@code fetch}
 * rather than a WebSocket: a browser cannot put an Authorization header on a WebSocket).
 *
 * <p>Events: {@code hello} once; {@code fleet} every tick (a full snapshot first and after any skipped
 * tick, else the nodes that changed, in data, liveness or diagnoses, and the names removed; each port with its
 * diagnosis badge); {@code port} for each watched port
 * ({@code ?watch=node/device/port}, repeatable) with its new detail points, the whole history first;
 * {@code error} for a watch that cannot be served (every history in use, or the client address holds
 * {@link LiveFeedOptions#maxWatchesPerAddress()} watches already); {@code probe} with a probe's JSON whenever it changes
 * ({@link #publish}); {@code diagnoses} with the active diagnoses, after the hello and whenever they change
 * (at most once per tick, at most {@value #MAX_LIVE_DIAGNOSES} items). docs/dashboard.md and docs/diagnosis.md
 * describe the payloads.
 *
 * <p>A watch of a port the store does not know (unknown node, or a node whose last sample lacks the port) is
 * answered 404 naming it, so that no detail history is spent on it. A watch of a connected node that has not sent
 * its first sample yet (the dashboard opened on a port link right after the collector or the agent started) is
 * held pending, without a history, and settled at the first tick after that sample.
 *
 * <p>Ports with an active diagnosis get a detail history too, within the same {@link LiveFeedOptions#maxWatchedPorts()}
 * (see {@link DetailTracker}): a watch of such a port starts with its per-priority and PFC points from before.
 *
 * <p>Backpressure: messages are built once per tick and shared by all clients; a client whose
 * connection write queue is above {@link LiveFeedOptions#writeQueueMaxBytes()} is skipped for that tick
 * (counted in {@code rdmamon_collector_live_updates_dropped_total}) and disconnected after
 * {@link LiveFeedOptions#stallTimeout()}. The collector therefore holds at most one queue's worth plus
 * one tick per client, however slow the browser.
 */
public final class LiveFeed implements Routes {
    public static final String PATH = "/api/live";
    /** A replica publishes all its rows, not only the changed ones, this often (in ticks). */
    static final int FULL_EVERY_TICKS = 10;
    /** The largest fleet update from another replica, inflated: 64 MiB, about 35,000 nodes of rows. */
    static final int MAX_BUS_MESSAGE_BYTES = 64 << 20;
    static final int MAX_LIVE_DIAGNOSES = 2000;
    private static final System.Logger LOG = System.getLogger(LiveFeed.class.getName());

    /** Totals since start, for tests and diagnostics. */
    public record Stats(int clients, long messagesSent, long updatesDropped, long clientsEvicted, int watchedPorts) {
    }

    private final Vertx vertx;
    private final LiveFeedOptions options;
    private final FleetState fleet;
    private final DiagnosisEngine diagnoses;
    private final DetailTracker tracker;
    private final NodeStore store;
    /** The cluster this feed's replica belongs to; null for a collector on its own (nothing to share). */
    private final FleetCluster cluster;
    private final RemoteFleet remote;
    private final Counter busBytes;
    private final Set<LiveClient> clients = new LinkedHashSet<>();
    /** Detail watches held per client address, over all its streams. */
    private final Map<String, Integer> watchesByAddress = new HashMap<>();
    private final Counter messagesSent;
    private final Counter updatesDropped;
    private final Counter clientsEvicted;
    private volatile int clientCount;
    private volatile int watchedPorts;
    private FleetState.Tick lastTick;
    /** The delta of the last tick with the other replicas' changes since the one before. */
    private String lastDelta;
    private String lastFull;
    private long ticks;
    /** Whether some replica of the cluster had a dashboard stream at the last look; nothing is shared while none has. */
    private boolean viewersSomewhere;
    private boolean fullOwed;
    private int reportedViewers;
    private long publishedDiagnosesVersion = -1;
    private long mergedLocalVersion = -1;
    private long mergedRemoteVersion = -1;
    private long mergedVersion;
    private long diagnosesVersion = -1;
    private String diagnosesEvent;
    private long diagnosedPortsVersion = -1;
    private List<PortKey> diagnosedPorts = List.of();
    private boolean building;

    public LiveFeed(Vertx vertx, NodeStore store, DiagnosisEngine diagnoses, PrometheusRegistry registry,
                    LiveFeedOptions options) {
        this(vertx, store, diagnoses, registry, options, null);
    }

    /**
     * A replica's feed: each tick it publishes its own changes to the other replicas ({@link FleetCluster#LIVE_FLEET})
     * and gives its browsers theirs too, so that every replica's dashboard shows the whole fleet.
     */
    public LiveFeed(Vertx vertx, NodeStore store, DiagnosisEngine diagnoses, PrometheusRegistry registry,
                    LiveFeedOptions options, FleetCluster cluster) {
        this.vertx = vertx;
        this.store = store;
        this.diagnoses = diagnoses;
        this.options = options;
        this.cluster = cluster != null && cluster.clustered() ? cluster : null;
        String replica = cluster == null ? FleetCluster.LONE_ID : cluster.selfId();
        this.remote = new RemoteFleet(replica);
        this.fleet = new FleetState(store, replica, () -> diagnoses.snapshot().diagnoses(), System::currentTimeMillis);
        busBytes = Counter.builder().name("rdmamon_collector_live_bus_bytes")
                .help("Bytes of dashboard fleet updates this replica published to the other replicas of its cluster")
                .register(registry);
        this.tracker = new DetailTracker(store, options.maxWatchedPorts(), options.historyPoints());
        messagesSent = Counter.builder().name("rdmamon_collector_live_messages_sent")
                .help("Events written to dashboard push clients").register(registry);
        updatesDropped = Counter.builder().name("rdmamon_collector_live_updates_dropped")
                .help("Ticks skipped for a dashboard client whose write queue was full (it gets a full snapshot later)")
                .register(registry);
        clientsEvicted = Counter.builder().name("rdmamon_collector_live_clients_evicted")
                .help("Dashboard clients disconnected because they stopped reading").register(registry);
        GaugeWithCallback.builder().name("rdmamon_collector_live_clients").help("Open dashboard push streams")
                .callback(cb -> cb.call(clientCount)).register(registry);
        GaugeWithCallback.builder().name("rdmamon_collector_live_watched_ports")
                .help("Ports with a detail history held for the dashboard").callback(cb -> cb.call(watchedPorts))
                .register(registry);
    }

    /** Mounts {@code GET /api/live} and starts the tick and poll timers on the caller's context. */
    @Override
    public void mount(Router router) {
        router.get(PATH).handler(this::open);
        if (cluster != null) {
            vertx.eventBus().<Object>consumer(FleetCluster.LIVE_FLEET, message -> {
                try {
                    // deflated JSON; a JsonObject from a replica of a release before the compression, during an upgrade
                    remote.apply(message.body() instanceof JsonObject old ? old
                            : new JsonObject(BusCompression.inflate((io.vertx.core.buffer.Buffer) message.body(),
                            MAX_BUS_MESSAGE_BYTES)));
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "live feed: a malformed fleet update from another replica"
                            + " was dropped: {0}", e.toString());
                }
            });
            cluster.onMemberLeft(remote::replicaLeft);
        }
        vertx.setPeriodic(options.tickInterval().toMillis(), id -> tick());
        vertx.setPeriodic(options.detailPollInterval().toMillis(), id -> tracker.poll());
    }

    /**
     * Sends {@code event} (e.g. {@code probe}) with {@code json} to every client now, outside the tick. A
     * client whose write queue is full misses it (counted as dropped), so that nothing piles up; such events
     * describe state the dashboard can fetch again over REST.
     */
    public void publish(String event, String json) {
        for (LiveClient client : clients) {
            if (client.writeQueueFull()) {
                updatesDropped.inc();
            } else {
                write(client, event, json);
            }
        }
    }

    public Stats stats() {
        return new Stats(clientCount, (long) messagesSent.get(), (long) updatesDropped.get(),
                (long) clientsEvicted.get(), watchedPorts);
    }

    private void open(RoutingContext ctx) {
        List<PortKey> keys = new ArrayList<>();
        try {
            for (String text : ctx.queryParam("watch")) {
                PortKey key = PortKey.parse(text);
                if (!keys.contains(key)) {
                    keys.add(key);
                }
            }
        } catch (IllegalArgumentException e) {
            badRequest(ctx, e.getMessage());
            return;
        }
        if (keys.size() > options.maxWatchPerClient()) {
            badRequest(ctx, "watch: at most " + options.maxWatchPerClient() + " ports per stream, got " + keys.size());
            return;
        }
        List<PortKey> pending = new ArrayList<>();
        for (PortKey key : keys) {
            PortCheck check = check(key);
            if (check == PortCheck.UNKNOWN) {
                notFound(ctx, key);
                return;
            }
            if (check == PortCheck.NO_SAMPLE_YET) {
                pending.add(key);
            }
        }
        String address = ctx.request().remoteAddress() == null ? "unknown" : ctx.request().remoteAddress().hostAddress();
        HttpServerResponse response = ctx.response().setChunked(true)
                .putHeader(HttpHeaders.CONTENT_TYPE, "text/event-stream; charset=utf-8")
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache")
                .putHeader("X-Accel-Buffering", "no");
        response.setWriteQueueMaxSize(options.writeQueueMaxBytes());
        LiveClient client = new LiveClient(response, ctx.request().connection(), address, pending);
        clients.add(client);
        clientCount = clients.size();
        viewersChanged();
        response.closeHandler(v -> closed(client));
        response.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "live client: {0}", e.toString()));
        List<String> refusals = new ArrayList<>();
        for (PortKey key : keys) {
            if (!pending.contains(key)) {
                watch(client, key).ifPresent(refusals::add);
            }
        }
        watchedPorts = tracker.size();
        write(client, "hello", hello(client.watched(), pending));
        refusals.forEach(error -> write(client, "error", error));
        writeDiagnoses(client);
        tracker.poll();
        if (lastTick != null) {
            deliver(client, System.currentTimeMillis());
        }
    }

    private String hello(List<PortKey> watched, List<PortKey> pending) {
        return new JsonObject().put("tickMillis", options.tickInterval().toMillis())
                .put("historyPoints", options.historyPoints())
                .put("portFields", new JsonArray(FleetState.PORT_FIELDS))
                .put("series", new JsonArray(DetailSeries.names()))
                .put("watching", new JsonArray(watched.stream().map(PortKey::toString).toList()))
                .put("pending", new JsonArray(pending.stream().map(PortKey::toString).toList())).encode();
    }

    /** Whether the store knows {@code key}'s port: a connected node without a sample yet cannot tell. */
    private enum PortCheck { KNOWN, NO_SAMPLE_YET, UNKNOWN }

    private PortCheck check(PortKey key) {
        Optional<NodeView> view = store.node(key.node());
        if (view.isEmpty()) {
            return PortCheck.UNKNOWN;
        }
        HostSample last = view.get().lastSample();
        if (last == null) {
            return PortCheck.NO_SAMPLE_YET;
        }
        return NodeStore.portsByKey(last).containsKey(key.devicePort()) ? PortCheck.KNOWN : PortCheck.UNKNOWN;
    }

    /**
     * Gives {@code client} a detail slot for the known port {@code key}; the error event's JSON when the client's
     * address holds all its watches or every history is watched.
     */
    private Optional<String> watch(LiveClient client, PortKey key) {
        int held = watchesByAddress.getOrDefault(client.address(), 0);
        if (held >= options.maxWatchesPerAddress()) {
            return Optional.of(watchError(key, "cannot watch " + key + ": this client address already holds "
                    + held + " port watches (at most " + options.maxWatchesPerAddress()
                    + ", http.maxPortWatchesPerAddress); close another port view first"));
        }
        if (!tracker.watch(key)) {
            return Optional.of(watchError(key, "cannot watch " + key + ": all " + options.maxWatchedPorts()
                    + " detail histories are in use"));
        }
        watchesByAddress.merge(client.address(), 1, Integer::sum);
        client.watching(key);
        return Optional.empty();
    }

    /**
     * Settles the watches a client asked for before their node's first sample: a port the sample has gets its
     * slot (or an error event when none is left), one it lacks or a node that went away gets an error event.
     */
    private void settlePending(LiveClient client) {
        for (PortKey key : client.pending()) {
            PortCheck check = check(key);
            if (check == PortCheck.NO_SAMPLE_YET) {
                continue;
            }
            client.settled(key);
            Optional<String> error = check == PortCheck.KNOWN ? watch(client, key)
                    : Optional.of(watchError(key, unknownPort(key)));
            error.ifPresent(json -> write(client, "error", json));
        }
        watchedPorts = tracker.size();
    }

    private String unknownPort(PortKey key) {
        if (store.node(key.node()).isEmpty() && remote.nodes().contains(key.node())) {
            // the port detail history lives with the replica holding the node
            return "watch '" + key + "': node '" + key.node() + "' is held by another replica of the cluster;"
                    + " open that replica's dashboard for its port detail (GET /api/cluster lists their addresses)";
        }
        return store.node(key.node()).isEmpty() ? "watch '" + key + "': unknown node '" + key.node() + "'"
                : "watch '" + key + "': node '" + key.node() + "' has no port " + key.devicePort();
    }

    private static String watchError(PortKey key, String message) {
        return new JsonObject().put("watch", key.toString()).put("error", message).encode();
    }

    private void closed(LiveClient client) {
        if (clients.remove(client)) {
            client.watched().forEach(tracker::unwatch);
            watchesByAddress.computeIfPresent(client.address(),
                    (address, held) -> held > client.watched().size() ? held - client.watched().size() : null);
            clientCount = clients.size();
            viewersChanged();
        }
    }

    private void tick() {
        if (building) {
            return; // the previous tick is still being built: skip a beat rather than pile up workers
        }
        building = true;
        vertx.executeBlocking(fleet::tick, false).andThen(ar -> building = false).onSuccess(tick -> {
            lastTick = tick;
            lastFull = null;
            lastDelta = merged(tick);
            share(tick);
            tracker.diagnosed(diagnosedPorts());
            tracker.poll();
            watchedPorts = tracker.size();
            long now = System.currentTimeMillis();
            for (LiveClient client : List.copyOf(clients)) {
                deliver(client, now);
            }
        }).onFailure(e -> LOG.log(System.Logger.Level.WARNING, "live feed tick failed: {0}", e.toString()));
    }

    private void deliver(LiveClient client, long now) {
        if (client.writeQueueFull()) {
            updatesDropped.inc();
            if (client.skipped(now) >= options.stallTimeout().toMillis()) {
                LOG.log(System.Logger.Level.INFO, "dropping a dashboard client stalled for {0}", options.stallTimeout());
                clientsEvicted.inc();
                closed(client);
                client.close();
            }
            return;
        }
        if (!client.pending().isEmpty()) {
            settlePending(client);
        }
        writeDiagnoses(client);
        boolean full = client.needsFull();
        write(client, "fleet", full ? full() : lastDelta);
        client.fleetSent(full);
        for (PortKey key : client.watched()) {
            tracker.history(key).ifPresent(history -> {
                long after = client.sentUpTo(key);
                PortHistory.Slice slice = history.since(after);
                if (slice.size() > 0 || after == Long.MIN_VALUE) {
                    write(client, "port", PortEvent.json(key, after == Long.MIN_VALUE, slice, history.moved()));
                    client.sentUpTo(key, slice.size() > 0 ? slice.timestamps()[slice.size() - 1] : Long.MIN_VALUE + 1);
                }
            });
        }
    }

    /** Tells the cluster whether this replica serves a dashboard (0 and more than 0 are what matter). */
    private void viewersChanged() {
        if (cluster != null && (clientCount == 0) != (reportedViewers == 0)) {
            reportedViewers = clientCount;
            cluster.reportViewers(clientCount);
        }
    }

    /** The ports with an active port-level diagnosis, most urgent first; recomputed when the diagnoses change. */
    private List<PortKey> diagnosedPorts() {
        DiagnosisEngine.Snapshot snapshot = diagnoses.snapshot();
        if (snapshot.version() != diagnosedPortsVersion) {
            diagnosedPorts = snapshot.diagnoses().stream().filter(d -> !d.nodeLevel())
                    .map(d -> new PortKey(d.node(), d.device(), d.port())).distinct().toList();
            diagnosedPortsVersion = snapshot.version();
        }
        return diagnosedPorts;
    }

    /** Sends the diagnoses when the client's copy is older than the engine's; the event is built once per change. */
    private void writeDiagnoses(LiveClient client) {
        DiagnosisEngine.Snapshot snapshot = diagnoses.snapshot();
        if (snapshot.version() != mergedLocalVersion || remote.diagnosesVersion() != mergedRemoteVersion) {
            diagnosesEvent = DiagnosisJson.event(snapshot.diagnoses(), snapshot.version(), System.currentTimeMillis(),
                    MAX_LIVE_DIAGNOSES);
            List<JsonObject> others = remote.diagnoses();
            if (!others.isEmpty()) {
                JsonObject event = new JsonObject(diagnosesEvent);
                JsonArray items = event.getJsonArray("diagnoses");
                JsonObject runbooks = event.getJsonObject("runbooks");
                others.stream().limit(Math.max(0, MAX_LIVE_DIAGNOSES - items.size())).forEach(item -> {
                    items.add(item);
                    String rule = item.getString("rule");
                    if (!runbooks.containsKey(rule)) {
                        try {
                            Rule known = Rule.fromId(rule);
                            runbooks.put(rule, new JsonObject().put("runbook", known.runbook())
                                    .put("runbookPath", known.runbookPath()).put("runbookUrl", known.runbookUrl()));
                        } catch (IllegalArgumentException unknown) {
                            // a rule of a newer replica: listed without its runbook
                        }
                    }
                });
                event.put("total", event.getInteger("total") + others.size());
                diagnosesEvent = event.encode();
            }
            mergedLocalVersion = snapshot.version();
            mergedRemoteVersion = remote.diagnosesVersion();
            diagnosesVersion = ++mergedVersion;
        }
        if (client.diagnosesVersion() != diagnosesVersion) {
            write(client, "diagnoses", diagnosesEvent);
            client.diagnosesSent(diagnosesVersion);
        }
    }

    private String full() {
        if (lastFull == null) {
            if (cluster == null) {
                lastFull = lastTick.full();
            } else {
                List<String> rows = new ArrayList<>(lastTick.rows());
                rows.addAll(remote.rows(lastTick.names()));
                lastFull = FleetState.Tick.full(lastTick.timestampMillis(), rows);
            }
        }
        return lastFull;
    }

    /**
     * The tick's delta with what the other replicas changed since the previous tick. A name one replica removed and
     * another (or this one) shows is not removed: a node moving between replicas neither flickers out nor shows twice.
     */
    private String merged(FleetState.Tick tick) {
        RemoteFleet.Changes changes = remote.drain();
        if (changes.isEmpty()) {
            return tick.delta();
        }
        List<String> rows = new ArrayList<>(tick.changed());
        changes.rows().forEach((node, row) -> {
            if (!tick.names().contains(node)) {
                rows.add(row); // a node this replica holds now is shown as this replica has it
            }
        });
        Set<String> removed = new java.util.HashSet<>(tick.removed());
        removed.addAll(changes.removed());
        removed.removeAll(tick.names());
        removed.removeAll(remote.nodes());
        return FleetState.delta(tick.timestampMillis(), rows, removed);
    }

    /**
     * Publishes this replica's changes of the tick to the other replicas: the rows that changed (every row each
     * {@value #FULL_EVERY_TICKS}th tick, so that a replica that joined late converges, and at once when a first
     * browser appeared somewhere), the names removed, and the diagnoses when they changed. Nothing when this
     * collector is not clustered, nothing changed, or no replica has a dashboard stream open (the event bus then
     * carries nothing for the dashboards: docs/performance.md, "Collector cluster").
     */
    private void share(FleetState.Tick tick) {
        if (cluster == null) {
            return;
        }
        cluster.anyViewers().onSuccess(any -> {
            if (any && !viewersSomewhere) {
                fullOwed = true; // a first browser: the replicas send everything they hold, not just changes
            }
            viewersSomewhere = any;
        });
        if (!viewersSomewhere) {
            return;
        }
        boolean full = fullOwed || ticks++ % FULL_EVERY_TICKS == 0;
        fullOwed = false;
        DiagnosisEngine.Snapshot snapshot = diagnoses.snapshot();
        boolean diagnosesChanged = snapshot.version() != publishedDiagnosesVersion;
        if (!full && !diagnosesChanged && tick.changed().isEmpty() && tick.removed().isEmpty()) {
            return;
        }
        JsonObject message = new JsonObject().put("replica", cluster.selfId()).put("full", full)
                .put("rows", new JsonArray(new ArrayList<>(full ? tick.rows() : tick.changed())))
                .put("removed", new JsonArray(new ArrayList<>(tick.removed())));
        if (diagnosesChanged || full) {
            message.put("diagnoses", new JsonObject(DiagnosisJson.event(snapshot.diagnoses(), snapshot.version(),
                    System.currentTimeMillis(), MAX_LIVE_DIAGNOSES)).getJsonArray("diagnoses"));
            publishedDiagnosesVersion = snapshot.version();
        }
        io.vertx.core.buffer.Buffer deflated = BusCompression.deflate(message.toBuffer());
        busBytes.inc(deflated.length());
        vertx.eventBus().publish(FleetCluster.LIVE_FLEET, deflated);
    }

    private void write(LiveClient client, String event, String json) {
        client.event(event, json);
        messagesSent.inc();
    }

    private void notFound(RoutingContext ctx, PortKey key) {
        JsonReplies.send(ctx, 404, new JsonObject().put("error", unknownPort(key)).put("watch", key.toString()));
    }

    private static void badRequest(RoutingContext ctx, String message) {
        JsonReplies.error(ctx, 400, message);
    }
}
