package io.rdmamon.collector.live;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.store.NodeStore;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The dashboard's push channel: {@code GET /api/live} answers a server-sent event stream (read with
 * the viewer token like the rest of {@code /api}, which is why it is SSE read through {@code fetch}
 * rather than a WebSocket: a browser cannot put an Authorization header on a WebSocket).
 *
 * <p>Events: {@code hello} once; {@code fleet} every tick (a full snapshot first and after any skipped
 * tick, else the nodes that changed and the names removed); {@code port} for each watched port
 * ({@code ?watch=node/device/port}, repeatable) with its new detail points, the whole history first;
 * {@code error} for a watch that cannot be served; {@code probe} with a probe's JSON whenever it changes
 * ({@link #publish}). docs/dashboard.md describes the payloads.
 *
 * <p>Backpressure: messages are built once per tick and shared by all clients; a client whose
 * connection write queue is above {@link LiveFeedOptions#writeQueueMaxBytes()} is skipped for that tick
 * (counted in {@code rdmamon_collector_live_updates_dropped_total}) and disconnected after
 * {@link LiveFeedOptions#stallTimeout()}. The collector therefore holds at most one queue's worth plus
 * one tick per client, however slow the browser.
 */
public final class LiveFeed implements Consumer<Router> {
    public static final String PATH = "/api/live";
    private static final System.Logger LOG = System.getLogger(LiveFeed.class.getName());

    /** Totals since start, for tests and diagnostics. */
    public record Stats(int clients, long messagesSent, long updatesDropped, long clientsEvicted, int watchedPorts) {
    }

    private final Vertx vertx;
    private final LiveFeedOptions options;
    private final FleetState fleet;
    private final DetailTracker tracker;
    private final Set<LiveClient> clients = new LinkedHashSet<>();
    private final Counter messagesSent;
    private final Counter updatesDropped;
    private final Counter clientsEvicted;
    private volatile int clientCount;
    private volatile int watchedPorts;
    private FleetState.Tick lastTick;
    private String lastFull;
    private boolean building;

    public LiveFeed(Vertx vertx, NodeStore store, PrometheusRegistry registry, LiveFeedOptions options) {
        this.vertx = vertx;
        this.options = options;
        this.fleet = new FleetState(store, System::currentTimeMillis);
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
    public void accept(Router router) {
        router.get(PATH).handler(this::open);
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
        List<PortKey> accepted = new ArrayList<>();
        List<PortKey> refused = new ArrayList<>();
        for (PortKey key : keys) {
            (tracker.watch(key) ? accepted : refused).add(key);
        }
        watchedPorts = tracker.size();
        HttpServerResponse response = ctx.response().setChunked(true)
                .putHeader(HttpHeaders.CONTENT_TYPE, "text/event-stream; charset=utf-8")
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache")
                .putHeader("X-Accel-Buffering", "no");
        response.setWriteQueueMaxSize(options.writeQueueMaxBytes());
        LiveClient client = new LiveClient(response, ctx.request().connection(), accepted);
        clients.add(client);
        clientCount = clients.size();
        response.closeHandler(v -> closed(client));
        response.exceptionHandler(e -> LOG.log(System.Logger.Level.DEBUG, "live client: {0}", e.toString()));
        write(client, "hello", hello(accepted));
        for (PortKey key : refused) {
            write(client, "error", new JsonObject().put("watch", key.toString()).put("error", "cannot watch " + key
                    + ": all " + options.maxWatchedPorts() + " detail histories are in use").encode());
        }
        tracker.poll();
        if (lastTick != null) {
            deliver(client, System.currentTimeMillis());
        }
    }

    private String hello(List<PortKey> watched) {
        return new JsonObject().put("tickMillis", options.tickInterval().toMillis())
                .put("historyPoints", options.historyPoints())
                .put("portFields", new JsonArray(FleetState.PORT_FIELDS))
                .put("series", new JsonArray(DetailSeries.names()))
                .put("watching", new JsonArray(watched.stream().map(PortKey::toString).toList())).encode();
    }

    private void closed(LiveClient client) {
        if (clients.remove(client)) {
            client.watched().forEach(tracker::unwatch);
            clientCount = clients.size();
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
        boolean full = client.needsFull();
        write(client, "fleet", full ? full() : lastTick.delta());
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

    private String full() {
        if (lastFull == null) {
            lastFull = lastTick.full();
        }
        return lastFull;
    }

    private void write(LiveClient client, String event, String json) {
        client.event(event, json);
        messagesSent.inc();
    }

    private static void badRequest(RoutingContext ctx, String message) {
        ctx.response().setStatusCode(400).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(new JsonObject().put("error", message).encode());
    }
}
