package io.rdmamon.collector.cluster;

import io.rdmamon.collector.ConfigException;
import io.rdmamon.protocol.json.StrictJson;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * Mutual TLS on the clustered event bus (the {@code "cluster": {"tls": {...}}} section): every replica presents
 * {@code certFile}/{@code keyFile} and accepts only peers whose certificate {@code caFile} signed, so that a host
 * which reaches the event-bus port cannot read the replicas' traffic or inject messages. Hazelcast's own member
 * traffic (membership and the node directory) has no TLS in open-source Hazelcast: firewall its port
 * (docs/deploy.md).
 *
 * @param certFile PEM certificate chain of this replica; null = TLS off
 * @param keyFile  its PEM private key
 * @param caFile   PEM certificate(s) of the CA that signed every replica's certificate
 */
public record EventBusTls(Path certFile, Path keyFile, Path caFile) {
    public static final EventBusTls NONE = new EventBusTls(null, null, null);
    private static final Set<String> KEYS = Set.of("certFile", "keyFile", "caFile");

    public boolean enabled() {
        return certFile != null || keyFile != null || caFile != null;
    }

    /** The {@code "tls"} section of {@code "cluster"}; relative paths resolve against {@code baseDir}. */
    static EventBusTls fromJson(StrictJson section, Path baseDir) {
        section.requireKnownKeys(KEYS);
        return new EventBusTls(path(section, "certFile", baseDir), path(section, "keyFile", baseDir),
                path(section, "caFile", baseDir));
    }

    /** {@code RDMAMON_CLUSTER_TLS_CERT_FILE}, {@code _KEY_FILE}, {@code _CA_FILE} over these. */
    EventBusTls overlayEnv(Map<String, String> env) {
        return new EventBusTls(envPath(env, "RDMAMON_CLUSTER_TLS_CERT_FILE", certFile),
                envPath(env, "RDMAMON_CLUSTER_TLS_KEY_FILE", keyFile), envPath(env, "RDMAMON_CLUSTER_TLS_CA_FILE", caFile));
    }

    /**
     * Turns TLS on in {@code options} when configured: all three files must be set and readable (checked here, at
     * start, so that a typo is named instead of every event-bus connection failing later).
     */
    EventBusOptions apply(EventBusOptions options) {
        if (!enabled()) {
            return options;
        }
        for (Map.Entry<String, Path> file : Map.of("cluster.tls.certFile", nullSafe(certFile),
                "cluster.tls.keyFile", nullSafe(keyFile), "cluster.tls.caFile", nullSafe(caFile)).entrySet()) {
            if (file.getValue().toString().isEmpty()) {
                throw new ConfigException(file.getKey() + " is not set: event-bus TLS needs certFile, keyFile and caFile");
            }
            if (!Files.isReadable(file.getValue())) {
                throw new ConfigException(file.getKey() + ": cannot read " + file.getValue());
            }
        }
        return options.setSsl(true).setClientAuth(ClientAuth.REQUIRED)
                .setKeyCertOptions(new PemKeyCertOptions().setCertPath(certFile.toString()).setKeyPath(keyFile.toString()))
                .setTrustOptions(new PemTrustOptions().addCertPath(caFile.toString()));
    }

    private static Path nullSafe(Path path) {
        return path == null ? Path.of("") : path;
    }

    private static Path path(StrictJson section, String key, Path baseDir) {
        if (!section.has(key)) {
            return null;
        }
        String value = section.string(key);
        try {
            Path path = Path.of(value);
            return baseDir == null ? path : baseDir.resolve(path);
        } catch (java.nio.file.InvalidPathException e) {
            throw new ConfigException(section.path(key) + ": not a file name");
        }
    }

    private static Path envPath(Map<String, String> env, String variable, Path fallback) {
        String value = env.get(variable);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Path.of(value);
        } catch (java.nio.file.InvalidPathException e) {
            throw new ConfigException(variable + ": not a file name");
        }
    }
}
