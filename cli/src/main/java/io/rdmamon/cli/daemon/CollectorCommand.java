package io.rdmamon.cli.daemon;

import io.rdmamon.cli.CliFailure;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.ConfigException;
import io.vertx.core.Vertx;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "collector",
        description = {"The server: agent ingest (WebSocket), Prometheus /metrics, REST API and the dashboard.",
                "Settings layer as: defaults < --config file < RDMAMON_* environment < flags (docs/collector.md)."},
        footer = {"", "Examples:",
                "  rdmamon collector                                  (127.0.0.1:9470, no tokens)",
                "  rdmamon collector --listen 0.0.0.0:9470 --config /etc/rdmamon/collector.json",
                "  rdmamon collector --listen 0.0.0.0:9470 --config collector.json --tls-cert tls.crt --tls-key tls.key"})
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

    @Override
    public Integer call() throws Exception {
        CollectorConfig settings = settings();
        Vertx vertx = Vertx.vertx();
        Collector.Running running;
        try {
            running = Collector.start(vertx, settings).await();
        } catch (ConfigException e) {
            vertx.close();
            throw CliFailure.badInput(e.getMessage());
        } catch (Exception e) {
            vertx.close();
            throw CliFailure.runtime("collector failed to start on " + settings.listenHost() + ":"
                    + settings.listenPort() + ": " + e.getMessage(), e);
        }
        String base = (settings.tls().enabled() ? "https://" : "http://") + hostForUrl(settings.listenHost()) + ":" + running.port();
        System.err.printf("rdmamon collector: dashboard %s/  metrics %s/metrics  agents %s%n", base, base, base);
        return RunUntilStopped.await(vertx, () -> { });
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
            return insecure ? settings.withInsecure(true) : settings;
        } catch (ConfigException e) {
            throw CliFailure.badInput(e.getMessage());
        }
    }

    static String hostForUrl(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }
}
