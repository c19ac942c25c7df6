package io.rdmamon.collector;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.auth.TokenAuthenticator;
import io.rdmamon.collector.changes.ChangeLog;
import io.rdmamon.collector.changes.ChangeTracker;
import io.rdmamon.collector.cluster.BaselineSharing;
import io.rdmamon.collector.cluster.ClusterAgents;
import io.rdmamon.collector.cluster.ClusterApi;
import io.rdmamon.collector.cluster.ClusterSeal;
import io.rdmamon.collector.cluster.FleetCluster;
import io.rdmamon.collector.cluster.FleetRoutes;
import io.rdmamon.collector.cluster.NodeClaims;
import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.fabric.FabricApi;
import io.rdmamon.collector.fabric.FabricStore;
import io.rdmamon.collector.fabric.FabricWorker;
import io.rdmamon.collector.http.ConnectionGuard;
import io.rdmamon.collector.http.DiagnosesApi;
import io.rdmamon.collector.http.EventsApi;
import io.rdmamon.collector.http.RunbookPages;
import io.rdmamon.collector.http.TimelineApi;
import io.rdmamon.collector.http.MetricsHandler;
import io.rdmamon.collector.http.NodesApi;
import io.rdmamon.collector.ingest.AgentIngest;
import io.rdmamon.collector.ingest.AgentRegistry;
import io.rdmamon.collector.ingest.DecodeLoops;
import io.rdmamon.collector.ingest.SelfMetrics;
import io.rdmamon.collector.live.LiveFeed;
import io.rdmamon.collector.live.LiveFeedOptions;
import io.rdmamon.collector.metrics.RdmaMetrics;
import io.rdmamon.collector.pingmesh.Pingmesh;
import io.rdmamon.collector.pingmesh.PingmeshApi;
import io.rdmamon.collector.pingmesh.PingmeshResults;
import io.rdmamon.collector.pingmesh.PingmeshVerdicts;
import io.rdmamon.collector.pingmesh.PortGroups;
import io.rdmamon.collector.probe.ProbeApi;
import io.rdmamon.collector.probe.ProbeOrchestrator;
import io.rdmamon.collector.probe.ProbeOutcomes;
import io.rdmamon.collector.store.ExpirySweep;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.store.NodeView;
import io.rdmamon.collector.web.JsonReplies;
import io.rdmamon.collector.web.PercentEscapes;
import io.rdmamon.collector.web.Routes;
import io.rdmamon.protocol.telemetry.ProcessTelemetry;
import io.rdmamon.protocol.wire.FrameCodec;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The collector's HTTP server: agent ingest (WebSocket), {@code /metrics}, the REST API, health,
 * and the dashboard's static files. One instance; everything runs on its event loop, except the decoding of
 * agent frames, which runs on {@link DecodeLoops} (JSON parsing and sample rebuild, without shared state).
 */
public final class CollectorVerticle extends VerticleBase {
    private static final System.Logger LOG = System.getLogger(CollectorVerticle.class.getName());
    private static final long HANDOVER_CHECK_MILLIS = 50;
    private final CollectorConfig config;
    private final NodeStore store;
    private final PrometheusRegistry registry;
    private final SelfMetrics selfMetrics;
    private final TokenAuthenticator auth;
    private final List<Routes> extraRoutes;
    private final ProbeOutcomes probeOutcomes;
    private final DiagnosisEngine diagnoses;
    private final RdmaMetrics rdmaMetrics;
    private final RunbookPages runbooks;
    private final FleetCluster cluster;
    private final PingmeshResults pingmeshResults;
    private final PingmeshVerdicts pathVerdicts;
    private final FabricStore fabrics;
    /** Every change to {@link #fabrics}, on its own worker: created in start, on this verticle's context. */
    private FabricWorker fabricWorker;
    private ProbeOrchestrator probes;
    private Pingmesh pingmesh;
    private long pathVerdictTimer = -1;
    private AgentRegistry agents;
    /** This replica's claims in the node directory: created in start, with the merge listener that reads them. */
    private NodeClaims claims;
    private ChangeTracker changes;
    private volatile boolean ready;
    private volatile int port;
    private HttpServer server;

    CollectorVerticle(CollectorConfig config, NodeStore store, PrometheusRegistry registry, SelfMetrics selfMetrics,
                      TokenAuthenticator auth, List<Routes> extraRoutes, ProbeOutcomes probeOutcomes,
                      DiagnosisEngine diagnoses, RdmaMetrics rdmaMetrics, RunbookPages runbooks, FleetCluster cluster,
                      PingmeshResults pingmeshResults, PingmeshVerdicts pathVerdicts, FabricStore fabrics) {
        this.fabrics = fabrics;
        this.pingmeshResults = pingmeshResults;
        this.pathVerdicts = pathVerdicts;
        this.runbooks = runbooks;
        this.cluster = cluster;
        this.rdmaMetrics = rdmaMetrics;
        this.probeOutcomes = probeOutcomes;
        this.diagnoses = diagnoses;
        this.config = config;
        this.store = store;
        this.registry = registry;
        this.selfMetrics = selfMetrics;
        this.auth = auth;
        this.extraRoutes = List.copyOf(extraRoutes);
    }

    @Override
    public Future<?> start() {
        agents = new AgentRegistry();
        EventLoopDelay.start(vertx, registry);
        vertx.eventBus().<JsonObject>consumer(FleetCluster.releaseAddress(cluster.selfId()), message -> moved(message.body()));
        claims = new NodeClaims(vertx, cluster);
        cluster.onMerged(this::dropMovedNodes);
        DecodeLoops decodeLoops = new DecodeLoops();
        fabricWorker = new FabricWorker(vertx, fabrics);
        LiveFeed live = new LiveFeed(vertx, store, diagnoses, registry,
                LiveFeedOptions.defaults(config.historyPoints()).withMaxWatchesPerAddress(config.http().maxPortWatchesPerAddress()), cluster);
        ClusterAgents probeAgents = new ClusterAgents(vertx, cluster, agents, store,
                ClusterSeal.of(config.tokens(), System::currentTimeMillis));
        probes = new ProbeOrchestrator(vertx, config.probes(), probeAgents, probeAgents, probeOutcomes, registry,
                config.http().refusalLogWindow());
        probeAgents.serve(probes);
        probes.onChange(probe -> live.publish("probe", probe.encode()));
        pingmesh = new Pingmesh(vertx, config.pingmesh(), store, probeAgents, probes,
                new PortGroups(config.pingmesh().groups(), fabrics), pingmeshResults,
                () -> diagnoses.config().qosProfile(), registry, System::currentTimeMillis);
        NodesApi nodesApi = new NodesApi(store, cluster.selfId(), fabrics);
        DiagnosesApi diagnosesApi = new DiagnosesApi(diagnoses);
        ChangeLog changeLog = new ChangeLog();
        changeLog.onRecord(entry -> live.publish("change", TimelineApi.json(entry).encode()));
        changes = new ChangeTracker(changeLog, store, diagnoses, System::currentTimeMillis).register(registry);
        store.addKernelEventSink(changes);
        TimelineApi timelineApi = new TimelineApi(changeLog);
        EventsApi eventsApi = new EventsApi(store, diagnoses, timelineApi);
        FleetRoutes fleetRoutes = new FleetRoutes(vertx, cluster, nodesApi, eventsApi, diagnosesApi, probes,
                timelineApi);
        fleetRoutes.serve();
        new BaselineSharing(vertx, cluster, diagnoses).start();
        // in this order: malformed escapes are refused before any route decodes them, /api/* is authenticated before
        // the APIs, the dashboard's files come after everything
        List<Routes> routes = new ArrayList<>(List.of(new PercentEscapes(),
                new AgentIngest(auth, new FrameCodec(config.maxFrameBytes(), "collector"), config.ingest(), store, selfMetrics,
                        agents, this::applied, decodeLoops, claims, fabricWorker),
                router -> router.get("/healthz").handler(ctx -> JsonReplies.ok(ctx, new JsonObject().put("status", "ok"))),
                router -> router.get("/readyz").handler(ctx -> JsonReplies.send(ctx, ready ? 200 : 503,
                        new JsonObject().put("status", ready ? "ready" : "starting"))),
                router -> router.get("/metrics").handler(auth.requireRead()).handler(new MetricsHandler(rdmaMetrics, registry,
                        ProcessTelemetry.process())),
                router -> router.route("/api/*").handler(auth.requireRead()),
                fleetRoutes,
                nodesApi,
                new ClusterApi(cluster, registry),
                eventsApi,
                timelineApi,
                diagnosesApi,
                router -> router.get(RunbookPages.PATH).handler(runbooks::serve),
                live,
                new PingmeshApi(vertx, pingmesh, pathVerdicts::json),
                new FabricApi(vertx, fabrics),
                new ProbeApi(probes, auth, config.probes(), request -> probeAgents.prefetch(request.source().node())
                        .compose(v -> probeAgents.prefetch(request.destination().node())))));
        routes.addAll(extraRoutes);
        routes.add(router -> router.route("/*").handler(StaticHandler.create("webroot")));
        Router router = Router.router(vertx);
        routes.forEach(part -> part.mount(router));
        router.errorHandler(404, ctx -> JsonReplies.error(ctx, 404, "no such resource: " + ctx.request().path()));
        // the failure goes to the log, where an operator reads it; the client gets no exception text (it can carry
        // paths, configuration and internals) and is told where to look
        router.errorHandler(500, ctx -> {
            LOG.log(System.Logger.Level.WARNING, "internal error answering " + ctx.request().method() + " "
                    + ctx.request().path(), ctx.failure());
            JsonReplies.error(ctx, 500, "internal error answering " + ctx.request().path() + " (the collector's log"
                    + " has the details)");
        });

        // agent streams assemble their messages from frames themselves and close beyond maxFrameBytes with a
        // reason (AgentConnection); this bounds messages of any other WebSocket. The idle timeout closes any
        // connection, WebSockets included, on which no whole message or frame moved either way: agents send a
        // heartbeat after 5 s of silence and the dashboard stream gets an event every tick, so only dead, stalled or
        // trickling peers reach it. HTTP/2 cleartext is off: the collector speaks HTTP/1.1, whose
        // one-request-at-a-time connections the guard bounds.
        HttpLimits limits = config.http();
        ConnectionGuard guard = new ConnectionGuard(vertx, limits.maxConnections(), limits.requestTimeout(), registry);
        guard.start();
        HttpServerOptions options = new HttpServerOptions()
                .setMaxWebSocketMessageSize(config.maxFrameBytes() + 64 * 1024)
                .setIdleTimeoutUnit(TimeUnit.MILLISECONDS).setIdleTimeout(Math.toIntExact(limits.idleTimeout().toMillis()))
                .setHttp2ClearTextEnabled(false);
        long sweepMillis = Math.max(100, Math.min(1000, config.expireAfter().toMillis() / 2));
        // the server is created on this verticle's context (withTls completes there), so undeploy closes it
        return withTls(options).compose(serverOptions -> {
            server = vertx.createHttpServer(serverOptions).connectionHandler(guard::opened)
                    .requestHandler(guard.admitting(router));
            return probes.open();
        }).compose(v -> decodeLoops.deploy(vertx, DecodeLoops.defaultCount(Runtime.getRuntime().availableProcessors())))
                .compose(v -> server.listen(config.listenPort(), config.listenHost())).map(s -> {
            port = s.actualPort();
            new ExpirySweep(vertx, this::expire).start(sweepMillis);
            pingmesh.start();
            if (config.pingmesh().enabled()) {
                pathVerdictTimer = pathVerdicts.start(vertx, config.pingmesh().round(), pingmesh::counterDeltas);
            }
            LOG.log(System.Logger.Level.INFO, "collector listening on {0}://{1}:{2}", config.tls().enabled() ? "https" : "http",
                    config.listenHost(), String.valueOf(port));
            return s;
        }).compose(s -> cluster.announce(apiBaseUrl())).onSuccess(v -> ready = true);
    }

    /** A sample the store applied: diagnosed, then what changed logged (diagnoses raised and cleared with it). */
    private void applied(io.rdmamon.protocol.model.HostSample sample) {
        diagnoses.accept(sample);
        changes.accept(sample);
    }

    /** The certificate files are read and checked on a worker; a bad one fails the start with a ConfigException. */
    private Future<HttpServerOptions> withTls(HttpServerOptions options) {
        if (config.tls().equals(TlsConfig.NONE)) {
            return Future.succeededFuture(options);
        }
        return vertx.executeBlocking(() -> options.setSsl(true).setKeyCertOptions(config.tls().keyCertOptions(vertx)), false);
    }

    private String apiBaseUrl() {
        String host = config.listenHost().contains(":") ? "[" + config.listenHost() + "]" : config.listenHost();
        return (config.tls().enabled() ? "https://" : "http://") + host + ":" + port;
    }

    /**
     * Another replica took a node over ({@code {"node", "instance"}}): the stale connection here is closed (4010) and
     * the node dropped at once with its diagnoses, so that it is exported by one replica only.
     */
    private void moved(JsonObject message) {
        String node = message.getString("node");
        if (node != null && agents.moved(node, message.getString("instance")) && store.remove(node)) {
            diagnoses.forget(node);
            changes.forget(node);
            LOG.log(System.Logger.Level.INFO, "node {0} moved to another replica: dropped here", node);
        }
    }

    /**
     * After partitions merged: a node this replica still has whose agent another member claimed while they were
     * apart (no release message could reach this side then), and later than this replica did, moved there; dropped
     * here as if told, so that no node is exported twice. An entry older than this replica's claim is a stale copy
     * the merge brought back (a replica killed just after a merge left them; docs/collector.md): the node stays, and
     * the re-claim writes it back ({@link NodeClaims}).
     */
    private void dropMovedNodes() {
        for (NodeView view : store.nodes()) {
            String node = view.node();
            cluster.directory().owner(node).onSuccess(owner -> owner.filter(o -> claims.movedAway(node, o))
                    .ifPresent(o -> moved(new JsonObject().put("node", node).put("instance", o.instance()))));
        }
    }

    private void expire() {
        for (String node : store.expire()) {
            cluster.directory().release(node);
            selfMetrics.nodesExpired.inc();
            changes.forget(node);
            LOG.log(System.Logger.Level.INFO, "node {0} expired: no frame for {1}", node, config.expireAfter());
        }
        diagnoses.sweep(store.nodes()); // notices stale nodes (they send nothing) and forgets expired ones
        fabricWorker.expire();
        changes.diagnoses();
    }

    @Override
    public Future<?> stop() {
        ready = false;
        if (pingmesh != null) {
            pingmesh.stop();
        }
        vertx.cancelTimer(pathVerdictTimer);
        // before the server closes: each agent moves on at once and replays
        Set<String> handedOver = agents == null ? Set.of() : agents.closeAllForShutdown();
        return awaitTakenOver(handedOver).compose(v -> cluster.withdraw()).recover(e -> Future.succeededFuture())
                .compose(v -> server == null ? Future.succeededFuture() : server.close())
                .eventually(() -> probes == null ? Future.succeededFuture() : probes.close())
                .eventually(() -> fabricWorker == null ? Future.succeededFuture() : fabricWorker.idle());
    }

    /**
     * Keeps serving the nodes whose streams the shutdown closed until another replica has taken each over (its claim's
     * release dropped the node here, {@link #moved}) or {@code cluster.handover} passed: a scrape in between finds every node
     * on one replica or the other, not on neither (a rolling restart then loses no node from {@code /metrics}). Without
     * another member no one takes a node over, so there is nothing to wait for.
     */
    private Future<Void> awaitTakenOver(Set<String> nodes) {
        Duration handover = config.cluster().handover();
        if (nodes.isEmpty() || cluster.memberIds().size() < 2 || handover.isZero()) {
            return Future.succeededFuture();
        }
        Promise<Void> done = Promise.promise();
        long deadline = System.nanoTime() + handover.toNanos();
        // on the event loop every check: only the nodes still here are looked at again
        Set<String> left = new HashSet<>(nodes);
        vertx.setPeriodic(HANDOVER_CHECK_MILLIS, timer -> {
            left.removeIf(node -> !store.contains(node));
            if (left.isEmpty() || System.nanoTime() > deadline) {
                vertx.cancelTimer(timer);
                if (!left.isEmpty()) {
                    LOG.log(System.Logger.Level.INFO, "shutdown: {0} of {1} nodes not taken over by another replica"
                            + " within {2} s; leaving all the same", left.size(), nodes.size(), handover.toSeconds());
                }
                done.complete();
            }
        });
        return done.future();
    }

    int port() {
        return port;
    }
}
