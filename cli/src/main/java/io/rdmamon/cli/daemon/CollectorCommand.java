package io.rdmamon.cli.daemon;

import io.rdmamon.cli.failure.CliFailure;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.cluster.ClusterConfig;
import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.protocol.telemetry.ProcessTelemetry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "collector",
        description = {"The server: agent ingest (WebSocket), Prometheus /metrics, REST API and the dashboard.",
                "Settings layer as: defaults < --config file < RDMAMON_* environment < flags (docs/collector.md)."},
        footer = {"", "Examples:",
                "  rdmamon collector                                  (127.0.0.1:9470, no tokens)",
                "  rdmamon collector --listen 0.0.0.0:9470 --config /etc/rdmamon/collector.json",
                "  rdmamon collector --listen 0.0.0.0:9470 --config collector.json --tls-cert tls.crt --tls-key tls.key",
                "  rdmamon collector --listen 0.0.0.0:9470 --config collector.json \\",
                "      --cluster-listen 10.0.0.11:5701 --cluster-members 10.0.0.11:5701,10.0.0.12:5701,10.0.0.13:5701"})
public final class CollectorCommand implements Callable<Integer> {

    @Option(names = "--listen", paramLabel = "HOST:PORT",
            description = "Address to bind (default 127.0.0.1:" + CollectorConfig.DEFAULT_PORT + "; [::1]:PORT for IPv6).")
    String listen;

    @Option(names = "--config", paramLabel = "FILE", description = "JSON config file (keys in docs/collector.md).")
    Path config;

    @Option(names = "--insecure",
            description = "Allow a non-loopback --listen with no tokens configured (anyone can read and ingest).")
    boolean insecure;

    @Option(names = "--tls-cert", paramLabel = "FILE",
            description = "Serve HTTPS/WSS with this PEM certificate chain (needs --tls-key, or tls.keyFile / RDMAMON_TLS_KEY_FILE).")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE",
            description = "PEM private key (PKCS#8 or PKCS#1) of the --tls-cert certificate.")
    Path tlsKey;

    @Option(names = "--metrics", paramLabel = "SPEC", description = {"Families /metrics renders: a profile, full (default), standard (what the shipped alerts, rules and dashboards",
                    "query) or minimal (traffic, errors, state, diagnoses), then optional ,+family / ,-family items with",
                    "the names of docs/metrics.md (* matches any characters), e.g. standard,-rdma_gid_info.",
                    "Overrides the config file's metrics key."})
    String metrics;

    @Option(names = "--cluster-listen", paramLabel = "HOST:PORT",
            description = {"Run as one replica of a cluster (Vert.x + Infinispan/JGroups, docs/deploy.md): the member binds"
                    + " exactly this address; the clustered event bus takes PORT+1 on the same host. Never reachable from agent"
                    + " networks. A non-loopback address needs cluster.tls (mutual TLS on both ports) or --insecure-cluster."})
    String clusterListen;

    @Option(names = "--insecure-cluster",
            description = {"Allow a cluster on a non-loopback address without cluster.tls: anyone who reaches the member"
                    + " port can then join, read the fleet and disturb the node directory (probe frames still need the"
                    + " operator tokens). Only where nothing but the replicas can reach it."})
    boolean insecureCluster;

    @Option(names = "--cluster-members", paramLabel = "HOST:PORT,...", split = ",",
            description = "The replicas' --cluster-listen addresses to join (TCP-IP; multicast is off). This one may be listed.")
    List<String> clusterMembers;

    @Mixin
    LogFormatOption logFormat;

    @Override
    public Integer call() throws Exception {
        logFormat.install();
        CollectorConfig settings = settings();
        Collector.Running running;
        Vertx local = settings.cluster().enabled() ? null : ProcessTelemetry.process().vertx(new VertxOptions());
        try {
            running = (local == null ? Collector.startReplica(settings, new VertxOptions())
                    : Collector.start(local, settings)).await();
        } catch (ConfigException e) {
            close(local);
            throw CliFailure.badInput(e.getMessage());
        } catch (Exception e) {
            close(local);
            throw CliFailure.runtime("collector failed to start on " + settings.listenHost() + ":"
                    + settings.listenPort() + (settings.cluster().enabled() ? " (cluster member "
                    + settings.cluster().listen().host() + ":" + settings.cluster().listen().port() + ")" : "")
                    + ": " + e.getMessage(), e);
        }
        String base = (settings.tls().enabled() ? "https://" : "http://") + hostForUrl(settings.listenHost()) + ":" + running.port();
        System.err.printf("rdmamon collector: dashboard %s/  metrics %s/metrics  agents %s%n", base, base, base);
        if (running.cluster().clustered()) {
            System.err.printf("rdmamon collector: replica %s of cluster '%s' (%d member(s))%n", running.cluster().selfId(),
                    settings.cluster().name(), running.cluster().memberIds().size());
        }
        return RunUntilStopped.await(running.vertx(), () -> { });
    }

    private static void close(Vertx vertx) {
        if (vertx != null) {
            vertx.close();
        }
    }

    CollectorConfig settings() {
        if (config != null && !Files.isRegularFile(config)) {
            throw CliFailure.badInput("--config " + config + ": no such file");
        }
        try {
            CollectorConfig settings = CollectorConfig.load(config, System.getenv());
            if (listen != null) {
                settings = settings.withListen(listen);
            }
            settings = settings.withTlsFiles(tlsCert, tlsKey);
            if (metrics != null) {
                settings = settings.withMetrics(metrics, "--metrics");
            }
            ClusterConfig cluster = settings.cluster();
            if (clusterListen != null) {
                cluster = cluster.withListen(clusterListen, "--cluster-listen");
            }
            if (clusterMembers != null) {
                cluster = cluster.withMembers(String.join(",", clusterMembers), "--cluster-members");
            }
            if (insecureCluster) {
                cluster = cluster.withInsecure(true);
            }
            settings = settings.withCluster(cluster.validated());
            return insecure ? settings.withInsecure(true) : settings;
        } catch (ConfigException e) {
            throw CliFailure.badInput(e.getMessage());
        }
    }

    static String hostForUrl(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }
}
