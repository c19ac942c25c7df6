package io.rdmamon.collector.auth;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.web.RefusalLog;
import io.vertx.core.Vertx;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;

import java.time.Duration;
import java.util.function.BiConsumer;

/**
 * What the collector does with a refused request ({@link TokenAuthenticator#refuse}): every refusal is counted in
 * {@code rdmamon_collector_requests_refused_total{reason}}; the log gets the first refusal of each (reason, peer
 * address) per window with method, path and peer (never the token), and then one summary line per window
 * ({@link RefusalLog}).
 */
public final class AuthRefusals implements BiConsumer<RoutingContext, TokenAuthenticator.Refusal> {
    /** (reason, peer) pairs followed at once; a flood from more addresses is summarised as "other peers". */
    static final int MAX_PEERS = 1024;
    private static final System.Logger LOG = System.getLogger(AuthRefusals.class.getName());
    private final Counter refused;
    private final RefusalLog log;

    private AuthRefusals(Counter refused, RefusalLog log) {
        this.refused = refused;
        this.log = log;
    }

    public static AuthRefusals create(Vertx vertx, PrometheusRegistry registry, Duration window) {
        Counter refused = Counter.builder().name("rdmamon_collector_requests_refused")
                .help("Requests refused by the token check (ingest, /metrics, /api), by reason")
                .labelNames("reason").register(registry);
        return new AuthRefusals(refused, new RefusalLog(vertx, window, MAX_PEERS, (reason, peer, count, span) ->
                LOG.log(System.Logger.Level.WARNING, "{0} more refused requests ({1}) from {2} in the last {3} s",
                        count, reason, peer, span.toMillis() / 1000.0)));
    }

    @Override
    public void accept(RoutingContext ctx, TokenAuthenticator.Refusal refusal) {
        refused.labelValues(refusal.reason()).inc();
        SocketAddress remote = ctx.request().remoteAddress();
        String peer = remote == null ? null : remote.hostAddress();
        if (log.admit(refusal.reason(), peer)) {
            LOG.log(System.Logger.Level.WARNING, "refused {0} {1} from {2}: {3} ({4}); further refusals ({5}) from"
                            + " this address are summarised every {6} s", ctx.request().method(), ctx.request().path(),
                    peer, refusal.error(), refusal.status(), refusal.reason(), log.window().toMillis() / 1000.0);
        }
    }
}
