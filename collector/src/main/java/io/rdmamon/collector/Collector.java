package io.rdmamon.collector;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.auth.AuthRefusals;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenAuthenticator;
import io.rdmamon.collector.cluster.ClusterBoot;
import io.rdmamon.collector.cluster.FleetCluster;
import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.diagnosis.rules.RuleTable;
import io.rdmamon.collector.fabric.FabricStore;
import io.rdmamon.collector.fabric.HostPorts;
import io.rdmamon.collector.http.RunbookPages;
import io.rdmamon.collector.ingest.AgentIngest;
import io.rdmamon.collector.ingest.SelfMetrics;
import io.rdmamon.collector.metrics.RdmaMetrics;
import io.rdmamon.collector.pingmesh.PingmeshResults;
import io.rdmamon.collector.pingmesh.PingmeshVerdicts;
import io.rdmamon.collector.probe.ProbeOutcomes;
import io.rdmamon.collector.store.NodeCost;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.web.Routes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Entry point: {@code Collector.start(vertx, config)} deploys a collector and reports where it listens. */
public final class Collector {
    private static final System.Logger LOG = System.getLogger(Collector.class.getName());
    private Collector() {
    }

    /** A running collector. */
    public record Running(Vertx vertx, String deploymentId, int port, NodeStore store, PrometheusRegistry registry,
                          TokenAuthenticator auth, FleetCluster cluster) {
        /** Undeploys the collector (closes the server and all agent connections). */
        public Future<Void> close() {
            return vertx.undeploy(deploymentId);
        }
    }

    /**
     * Starts one replica of a cluster ({@code config.cluster()}, docs/architecture.md "Cluster"): a clustered Vert.x
     * with Infinispan,
     * then the collector on it. The answer's {@code vertx} is the clustered one; closing it drains the agents (close
     * 1012) and leaves the cluster.
     */
    public static Future<Running> startReplica(CollectorConfig config, VertxOptions options) {
        return ClusterBoot.start(config.cluster(), options).compose(booted -> FleetCluster.joined(booted.vertx(), booted.manager(),
                        config.cluster().listen().host() + ":" + config.cluster().listen().port())
                .compose(cluster -> start(booted.vertx(), config, List.of(), cluster))
                .onFailure(e -> booted.vertx().close()));
    }

    public static Future<Running> start(Vertx vertx, CollectorConfig config) {
        return start(vertx, config, List.of());
    }

    /**
     * Starts a collector; {@code extraRoutes} mount further routes (diagnoses, probes, live feed) on its
     * router before the static dashboard. Fails with {@link ConfigException} when no token is configured
     * and the listen address is not loopback, unless {@code insecure} is set.
     */
    public static Future<Running> start(Vertx vertx, CollectorConfig config, List<Routes> extraRoutes) {
        return FleetCluster.lone(vertx).compose(cluster -> start(vertx, config, extraRoutes, cluster));
    }

    /** Starts a collector as {@code cluster}'s replica ({@link FleetCluster#lone} for a lone collector). */
    public static Future<Running> start(Vertx vertx, CollectorConfig config, List<Routes> extraRoutes, FleetCluster cluster) {
        try {
            checkExposure(config).ifPresent(warning -> LOG.log(System.Logger.Level.WARNING, warning));
        } catch (ConfigException e) {
            return Future.failedFuture(e);
        }
        NodeStore store = new NodeStore(System::currentTimeMillis, config.staleAfterIntervals(),
                config.expireAfter().toMillis(), config.historyPoints(), config.maxNodes(),
                config.ingest().maxClockSkew().toMillis(), config.historyBudgetBytes(Runtime.getRuntime().maxMemory()));
        long maxHeap = Runtime.getRuntime().maxMemory();
        // overload costs history, not the process: a hello whose node the heap cannot take is refused (1013)
        store.admissionLimit(NodeCost.admissionLimit(maxHeap, AgentIngest.maxWaitingHelloBytes(maxHeap)));
        PrometheusRegistry registry = new PrometheusRegistry();
        ProbeOutcomes probeOutcomes = new ProbeOutcomes();
        PingmeshResults pingmeshResults = new PingmeshResults(config.pingmesh().window(), config.pingmesh().lossRttSeconds());
        PingmeshVerdicts pathVerdicts = new PingmeshVerdicts(pingmeshResults, config.pingmesh().thresholds(),
                System::currentTimeMillis);
        DiagnosisEngine diagnoses = new DiagnosisEngine(config.diagnosis(), store, System::currentTimeMillis,
                pathVerdicts);
        FabricStore fabrics = new FabricStore(System::currentTimeMillis, FabricStore.DEFAULT_STALE_AFTER,
                FabricStore.DEFAULT_DROP_AFTER, RuleTable.FABRIC_RULES, () -> HostPorts.of(store.nodes()));
        RdmaMetrics rdmaMetrics = new RdmaMetrics(store, probeOutcomes::snapshot, () -> diagnoses.snapshot().diagnoses(),
                config.metrics(), () -> pingmeshResults.aggregates(System.currentTimeMillis()), fabrics);
        SelfMetrics selfMetrics = new SelfMetrics(registry, store);
        TokenAuthenticator auth = new TokenAuthenticator(config.tokens(),
                AuthRefusals.create(vertx, registry, config.http().refusalLogWindow()));
        for (Role role : auth.unconfiguredRoles()) {
            LOG.log(System.Logger.Level.WARNING, "no {0} token configured while other tokens are: {0} requests are"
                    + " refused with 403", role.name().toLowerCase(Locale.ROOT));
        }
        if (config.http().maxConnections() <= config.maxNodes()) {
            LOG.log(System.Logger.Level.WARNING, "http.maxConnections ({0}) is not above maxNodes ({1}): a full fleet"
                    + " of agents leaves no connection for browsers and scrapers", config.http().maxConnections(),
                    config.maxNodes());
        }
        // the runbook pages are read from the jar on a worker, not in the verticle's start on its event loop
        return vertx.executeBlocking(RunbookPages::new, false).compose(runbooks -> {
            CollectorVerticle verticle = new CollectorVerticle(config, store, registry, selfMetrics, auth, extraRoutes,
                    probeOutcomes, diagnoses, rdmaMetrics, runbooks, cluster, pingmeshResults, pathVerdicts, fabrics);
            return vertx.deployVerticle(verticle)
                    .map(id -> new Running(vertx, id, verticle.port(), store, registry, auth, cluster));
        });
    }

    /**
     * Refuses a non-loopback address without tokens (unless insecure); returns the warning for one with tokens
     * but without TLS, which is not refused because a TLS-terminating proxy in front is a common, sound setup.
     */
    static Optional<String> checkExposure(CollectorConfig config) {
        if (isLoopback(config.listenHost())) {
            return Optional.empty();
        }
        if (config.tokens().isEmpty()) {
            if (config.insecure()) {
                return Optional.empty();
            }
            throw new ConfigException("refusing to listen on " + config.listenHost()
                    + " without tokens: configure tokens or pass --insecure (RDMAMON_INSECURE=true)");
        }
        if (config.tls().enabled()) {
            return Optional.empty();
        }
        return Optional.of("listening on " + config.listenHost() + " without TLS: bearer tokens cross the network in"
                + " clear text; set tls.certFile/tls.keyFile (--tls-cert/--tls-key) or put a TLS-terminating proxy"
                + " in front");
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new ConfigException("listen address '" + host + "' does not resolve");
        }
    }
}
