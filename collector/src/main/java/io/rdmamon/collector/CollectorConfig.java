package io.rdmamon.collector;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.collector.cluster.ClusterConfig;
import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.collector.config.ListenAddress;
import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.ingest.IngestLimits;
import io.rdmamon.collector.pingmesh.PingmeshConfig;
import io.rdmamon.collector.probe.ProbeConfig;
import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.json.StrictJson;
import io.rdmamon.protocol.json.StrictJsonException;
import io.rdmamon.protocol.wire.WireFormat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Collector settings. Layers, later wins: {@link #defaults()}, a JSON file ({@link #load}), environment
 * variables {@code RDMAMON_*}, then command-line flags ({@link #withListen}, {@link #withInsecure}, {@link
 * #withTlsFiles}).
 * Every key is documented in docs/collector.md.
 *
 * @param listenHost          address to bind
 * @param listenPort          port to bind; 0 = any free port
 * @param insecure            allow a non-loopback address without any token
 * @param tokens              accepted tokens with their roles
 * @param staleAfterIntervals a node is stale (rdma_agent_up 0) after this many sampling intervals without a sample
 * @param expireAfter         a node's series disappear after this long without any frame
 * @param historyPoints       rate points kept per port for the dashboard
 * @param maxNodes            nodes kept at most; hellos of further nodes are refused
 * @param maxFrameBytes       largest agent frame accepted
 * @param probes              active probe limits (the {@code "probes"} section, docs/probes.md)
 * @param diagnosis           thresholds and windows of the diagnosis engine (the {@code "diagnosis"} section,
 * docs/diagnosis.md)
 * @param tls                 the server's certificate and key (the {@code "tls"} section); {@link TlsConfig#NONE} =
 * plain HTTP
 * @param ingest              what one agent may announce and how long its stream may stay silent (the {@code "ingest"}
 * section)
 * @param http                connection, request and refusal-log bounds of the HTTP side (the {@code "http"} section)
 * @param historyBudgetMiB    memory for the rate histories of all ports, past which each port keeps fewer points;
 *                            0 = {@value #AUTO_HISTORY_BUDGET_PERCENT} % of the JVM's maximum heap
 * @param cluster             how this collector joins a cluster of replicas (the {@code "cluster"} section);
 *                            {@link ClusterConfig#NONE} = a lone collector
 * @param metrics             the families {@code /metrics} renders (the {@code "metrics"} key, {@code --metrics}:
 *                            docs/architecture.md "The rdmamon command", docs/metrics.md "Profiles"); {@link
 * MetricSelection#FULL} = all
 * @param pingmesh            continuous latency probing between the agents that allow it (the {@code "pingmesh"}
 *                            section, docs/pingmesh.md)
 */
public record CollectorConfig(
        String listenHost,
        int listenPort,
        boolean insecure,
        List<TokenEntry> tokens,
        int staleAfterIntervals,
        Duration expireAfter,
        int historyPoints,
        int maxNodes,
        int maxFrameBytes,
        ProbeConfig probes,
        DiagnosisConfig diagnosis,
        TlsConfig tls,
        IngestLimits ingest,
        HttpLimits http,
        int historyBudgetMiB,
        ClusterConfig cluster,
        MetricSelection metrics,
        PingmeshConfig pingmesh) {

    public static final int DEFAULT_PORT = 9470;
    private static final Set<String> FILE_KEYS = Set.of("listen", "insecure", "tokens", "staleAfterIntervals",
            "expireAfter", "historyPoints", "maxNodes", "maxFrameBytes", "probes",
            "diagnosis", "tls", "ingest", "http", "historyBudgetMiB", "cluster", "metrics", "pingmesh");
    /**
     * Share of the maximum heap the histories may take when no budget is configured. The full history is about a
     * fifth of the live heap per node (122 KB of 0.4 to 0.6 MiB for 8 ports, docs/performance.md) and the
     * Deployment gives the heap 1.6 times the live set, so a fleet the heap was sized for never sheds; one that
     * outgrows it loses history points before the heap runs out for them.
     */
    public static final int AUTO_HISTORY_BUDGET_PERCENT = 30;
    private static final Set<String> TLS_KEYS = Set.of("certFile", "keyFile");
    private static final Set<String> TOKEN_KEYS = Set.of("role", "token", "tokenFile", "node");

    public CollectorConfig {
        tokens = List.copyOf(tokens);
        Objects.requireNonNull(probes, "probes");
        Objects.requireNonNull(diagnosis, "diagnosis");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(ingest, "ingest");
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(pingmesh, "pingmesh");
        if (listenPort < 0 || listenPort > 65535) {
            throw new ConfigException("listen port out of range: " + listenPort);
        }
        ConfigException.requirePositive("staleAfterIntervals", staleAfterIntervals);
        ConfigException.requirePositive("historyPoints", historyPoints);
        ConfigException.requirePositive("maxNodes", maxNodes);
        ConfigException.requirePositive("maxFrameBytes", maxFrameBytes);
        ConfigException.requirePositive("expireAfter", expireAfter);
        if (historyBudgetMiB < 0) {
            throw new ConfigException("historyBudgetMiB must be 0 (automatic) or positive, got " + historyBudgetMiB);
        }
    }

    /** The history budget in bytes, {@code maxHeapBytes} being the JVM's maximum heap. */
    public long historyBudgetBytes(long maxHeapBytes) {
        return historyBudgetMiB > 0 ? historyBudgetMiB * 1024L * 1024L
                : Math.max(1, maxHeapBytes / 100 * AUTO_HISTORY_BUDGET_PERCENT);
    }

    /** Loopback on the default port, no tokens, 3 intervals to stale, 10 minutes to expiry, 900 points (15 min at 1
     * Hz). */
    public static CollectorConfig defaults() {
        return new CollectorConfig("127.0.0.1", DEFAULT_PORT, false, List.of(), 3, Duration.ofMinutes(10), 900,
                10_000, WireFormat.DEFAULT_MAX_FRAME_BYTES, ProbeConfig.defaults(),
                DiagnosisConfig.defaults(), TlsConfig.NONE, IngestLimits.defaults(), HttpLimits.defaults(), 0,
                ClusterConfig.NONE, MetricSelection.FULL, PingmeshConfig.defaults());
    }

    /**
     * Defaults, overlaid by {@code configFile} (when not null) and then by {@code env}.
     *
     * @throws ConfigException naming the file and key, or the variable, at fault
     */
    public static CollectorConfig load(Path configFile, Map<String, String> env) {
        CollectorConfig config = defaults();
        if (configFile != null) {
            config = config.overlayFile(configFile);
        }
        return config.overlayEnv(env);
    }

    /** {@code --listen HOST:PORT} (IPv6 as {@code [::1]:9470}). */
    public CollectorConfig withListen(String hostPort) {
        return withListen(hostPort, "--listen");
    }

    /** {@code --insecure}. */
    public CollectorConfig withInsecure(boolean value) {
        return toBuilder().insecure(value).build();
    }

    public CollectorConfig withTokens(List<TokenEntry> value) {
        return toBuilder().tokens(value).build();
    }

    public CollectorConfig withStaleness(int intervals, Duration expiry) {
        return toBuilder().staleAfterIntervals(intervals).expireAfter(expiry).build();
    }

    public CollectorConfig withLimits(int points, int nodes, int frameBytes) {
        return toBuilder().historyPoints(points).maxNodes(nodes).maxFrameBytes(frameBytes).build();
    }

    public CollectorConfig withProbes(ProbeConfig value) {
        return toBuilder().probes(value).build();
    }

    public CollectorConfig withDiagnosis(DiagnosisConfig value) {
        return toBuilder().diagnosis(value).build();
    }

    /** {@code --tls-cert FILE --tls-key FILE}: either may be null to keep the earlier layers' file. */
    public CollectorConfig withTlsFiles(Path certFile, Path keyFile) {
        TlsConfig value = tls;
        if (certFile != null) {
            value = value.withCertFile(certFile);
        }
        if (keyFile != null) {
            value = value.withKeyFile(keyFile);
        }
        return withTls(value);
    }

    public CollectorConfig withIngest(IngestLimits value) {
        return toBuilder().ingest(value).build();
    }

    public CollectorConfig withTls(TlsConfig value) {
        return toBuilder().tls(value).build();
    }

    public CollectorConfig withHttp(HttpLimits value) {
        return toBuilder().http(value).build();
    }

    public CollectorConfig withCluster(ClusterConfig value) {
        return toBuilder().cluster(value).build();
    }

    public CollectorConfig withPingmesh(PingmeshConfig value) {
        return toBuilder().pingmesh(value).build();
    }

    /** {@code historyBudgetMiB}; 0 = automatic. */
    public CollectorConfig withHistoryBudgetMiB(int value) {
        return toBuilder().historyBudgetMiB(value).build();
    }

    /** {@code --metrics SPEC} or the {@code "metrics"} key: which families {@code /metrics} renders. */
    public CollectorConfig withMetrics(MetricSelection value) {
        return toBuilder().metrics(value).build();
    }

    /** {@code --metrics SPEC}, {@code origin} naming it in the error when SPEC is refused. */
    public CollectorConfig withMetrics(String spec, String origin) {
        try {
            return withMetrics(MetricSelection.parse(spec));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(origin + ": " + e.getMessage());
        }
    }

    private CollectorConfig withListen(String hostPort, String origin) {
        ListenAddress address = ListenAddress.parse(hostPort, origin);
        return toBuilder().listenHost(address.host()).listenPort(address.port()).build();
    }

    /** A builder that starts from this config: each {@code with*} changes some components and builds once. */
    private Builder toBuilder() {
        return new Builder(this);
    }

    /** Sets a config's components by name; {@link #build()} checks them, as the constructor does. */
    private static final class Builder {
        private String listenHost;
        private int listenPort;
        private boolean insecure;
        private List<TokenEntry> tokens;
        private int staleAfterIntervals;
        private Duration expireAfter;
        private int historyPoints;
        private int maxNodes;
        private int maxFrameBytes;
        private ProbeConfig probes;
        private DiagnosisConfig diagnosis;
        private TlsConfig tls;
        private IngestLimits ingest;
        private HttpLimits http;
        private int historyBudgetMiB;
        private ClusterConfig cluster;
        private MetricSelection metrics;
        private PingmeshConfig pingmesh;

        private Builder(CollectorConfig from) {
            listenHost = from.listenHost;
            listenPort = from.listenPort;
            insecure = from.insecure;
            tokens = from.tokens;
            staleAfterIntervals = from.staleAfterIntervals;
            expireAfter = from.expireAfter;
            historyPoints = from.historyPoints;
            maxNodes = from.maxNodes;
            maxFrameBytes = from.maxFrameBytes;
            probes = from.probes;
            diagnosis = from.diagnosis;
            tls = from.tls;
            ingest = from.ingest;
            http = from.http;
            historyBudgetMiB = from.historyBudgetMiB;
            cluster = from.cluster;
            metrics = from.metrics;
            pingmesh = from.pingmesh;
        }

        Builder listenHost(String listenHost) {
            this.listenHost = listenHost;
            return this;
        }

        Builder listenPort(int listenPort) {
            this.listenPort = listenPort;
            return this;
        }

        Builder insecure(boolean insecure) {
            this.insecure = insecure;
            return this;
        }

        Builder tokens(List<TokenEntry> tokens) {
            this.tokens = tokens;
            return this;
        }

        Builder staleAfterIntervals(int staleAfterIntervals) {
            this.staleAfterIntervals = staleAfterIntervals;
            return this;
        }

        Builder expireAfter(Duration expireAfter) {
            this.expireAfter = expireAfter;
            return this;
        }

        Builder historyPoints(int historyPoints) {
            this.historyPoints = historyPoints;
            return this;
        }

        Builder maxNodes(int maxNodes) {
            this.maxNodes = maxNodes;
            return this;
        }

        Builder maxFrameBytes(int maxFrameBytes) {
            this.maxFrameBytes = maxFrameBytes;
            return this;
        }

        Builder probes(ProbeConfig probes) {
            this.probes = probes;
            return this;
        }

        Builder diagnosis(DiagnosisConfig diagnosis) {
            this.diagnosis = diagnosis;
            return this;
        }

        Builder tls(TlsConfig tls) {
            this.tls = tls;
            return this;
        }

        Builder ingest(IngestLimits ingest) {
            this.ingest = ingest;
            return this;
        }

        Builder http(HttpLimits http) {
            this.http = http;
            return this;
        }

        Builder historyBudgetMiB(int historyBudgetMiB) {
            this.historyBudgetMiB = historyBudgetMiB;
            return this;
        }

        Builder cluster(ClusterConfig cluster) {
            this.cluster = cluster;
            return this;
        }

        Builder metrics(MetricSelection metrics) {
            this.metrics = metrics;
            return this;
        }

        Builder pingmesh(PingmeshConfig pingmesh) {
            this.pingmesh = pingmesh;
            return this;
        }

        CollectorConfig build() {
            return new CollectorConfig(listenHost, listenPort, insecure, tokens, staleAfterIntervals, expireAfter,
                    historyPoints, maxNodes, maxFrameBytes, probes, diagnosis, tls, ingest, http, historyBudgetMiB, cluster,
                    metrics, pingmesh);
        }
    }

    private CollectorConfig overlayFile(Path file) {
        try {
            return overlayFile(file, Files.readAllBytes(file));
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read config: " + e.getMessage().lines().findFirst().orElse(""), e);
        }
    }

    /**
     * This config overlaid by {@code content}, the bytes of config file {@code file}: the parse path without the
     * read, for the fuzz test. {@code file} names the culprit in errors; relative file names resolve against its
     * directory.
     */
    CollectorConfig overlayFile(Path file, byte[] content) {
        JsonNode json;
        try {
            json = StrictJson.mapper().readTree(content);
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read config: " + e.getMessage().lines().findFirst().orElse(""), e);
        }
        if (json == null || !json.isObject()) {
            throw new ConfigException(file + ": config must be a JSON object");
        }
        try {
            return overlay(StrictJson.of(json, "").requireKnownKeys(FILE_KEYS), file.toAbsolutePath().getParent());
        } catch (StrictJsonException | ConfigException e) {
            // the readers and the records name the key; this adds the file
            throw new ConfigException(file + ": " + e.getMessage(), e);
        }
    }

    /** This config overlaid by a config file's object; relative file names resolve against {@code baseDir}. */
    private CollectorConfig overlay(StrictJson json, Path baseDir) {
        CollectorConfig c = this;
        if (json.has("listen")) {
            c = c.withListen(json.string("listen"), "listen");
        }
        c = c.withInsecure(json.bool("insecure", c.insecure));
        if (json.has("tokens")) {
            c = c.withTokens(tokensFrom(json, baseDir));
        }
        c = c.withStaleness(json.integer("staleAfterIntervals", c.staleAfterIntervals),
                json.duration("expireAfter", c.expireAfter));
        if (json.has("diagnosis")) {
            c = c.withDiagnosis(DiagnosisConfig.fromJson(json.object("diagnosis")));
        }
        if (json.has("tls")) {
            c = c.withTls(tlsFrom(json.object("tls"), baseDir, c.tls));
        }
        if (json.has("http")) {
            c = c.withHttp(c.http.overlay(json.object("http")));
        }
        if (json.has("probes")) {
            c = c.withProbes(c.probes.overlay(json.object("probes"), baseDir));
        }
        if (json.has("ingest")) {
            c = c.withIngest(c.ingest.overlay(json.object("ingest")));
        }
        c = c.withHistoryBudgetMiB(json.integer("historyBudgetMiB", c.historyBudgetMiB));
        if (json.has("cluster")) {
            c = c.withCluster(c.cluster.overlay(json.object("cluster"), baseDir));
        }
        if (json.has("metrics")) {
            c = c.withMetrics(json.string("metrics"), "metrics");
        }
        if (json.has("pingmesh")) {
            c = c.withPingmesh(c.pingmesh.overlay(json.object("pingmesh")));
        }
        return c.withLimits(json.integer("historyPoints", c.historyPoints), json.integer("maxNodes", c.maxNodes),
                json.integer("maxFrameBytes", c.maxFrameBytes));
    }

    /** The {@code "tls"} section; relative file names resolve against the config file's directory, like token files. */
    private static TlsConfig tlsFrom(StrictJson section, Path baseDir, TlsConfig current) {
        section.requireKnownKeys(TLS_KEYS);
        TlsConfig result = current;
        if (section.has("certFile")) {
            result = result.withCertFile(ConfigException.resolvePath(baseDir, section.string("certFile"), section.path("certFile")));
        }
        if (section.has("keyFile")) {
            result = result.withKeyFile(ConfigException.resolvePath(baseDir, section.string("keyFile"), section.path("keyFile")));
        }
        return result;
    }

    private static List<TokenEntry> tokensFrom(StrictJson json, Path baseDir) {
        List<TokenEntry> result = new ArrayList<>();
        for (StrictJson entry : json.objects("tokens")) {
            entry.requireKnownKeys(TOKEN_KEYS);
            if (!entry.has("role") || entry.has("token") == entry.has("tokenFile")) {
                throw new ConfigException(entry.path() + ": needs a role and exactly one of token, tokenFile");
            }
            Role role;
            try {
                role = Role.parse(entry.string("role"));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(entry.path() + ": " + e.getMessage());
            }
            String node = entry.optString("node");
            if (entry.has("token")) {
                try {
                    result.add(new TokenEntry(role, entry.string("token"), node));
                } catch (IllegalArgumentException e) { // a blank token
                    throw new ConfigException(entry.path() + ": " + e.getMessage());
                }
            } else {
                result.addAll(readTokenFile(ConfigException.resolvePath(baseDir, entry.string("tokenFile"),
                        entry.path("tokenFile")), role));
            }
        }
        return result;
    }

    /**
     * Tokens of {@code role} in {@code file}: one per line, optionally followed by the node name it is bound to;
     * blank lines and {@code #} comments are skipped.
     */
    public static List<TokenEntry> readTokenFile(Path file, Role role) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read token file: " + e.getClass().getSimpleName(), e);
        }
        List<TokenEntry> result = new ArrayList<>();
        for (String line : lines) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            String[] parts = trimmed.split("\\s+");
            if (parts.length > 2) {
                throw new ConfigException(file + ": a token line holds a token and at most a node name");
            }
            result.add(new TokenEntry(role, parts[0], parts.length == 2 ? parts[1] : null));
        }
        if (result.isEmpty()) {
            throw new ConfigException(file + ": token file holds no token");
        }
        return result;
    }

    private CollectorConfig overlayEnv(Map<String, String> env) {
        CollectorConfig c = this;
        String listen = env.get("RDMAMON_LISTEN");
        if (listen != null) {
            c = c.withListen(listen, "RDMAMON_LISTEN");
        }
        String insecureEnv = env.get("RDMAMON_INSECURE");
        if (insecureEnv != null) {
            if (!insecureEnv.equalsIgnoreCase("true") && !insecureEnv.equalsIgnoreCase("false")) {
                throw new ConfigException("RDMAMON_INSECURE must be true or false, got '" + insecureEnv + "'");
            }
            c = c.withInsecure(Boolean.parseBoolean(insecureEnv));
        }
        List<TokenEntry> tokens = new ArrayList<>(c.tokens);
        for (Role role : Role.values()) {
            String variable = "RDMAMON_" + role.name() + "_TOKEN_FILE";
            if (env.containsKey(variable)) {
                tokens.addAll(readTokenFile(Path.of(env.get(variable)), role));
            }
        }
        c = c.withTokens(tokens);
        c = c.withStaleness(envInt(env, "RDMAMON_STALE_AFTER_INTERVALS", c.staleAfterIntervals),
                envDuration(env, "RDMAMON_EXPIRE_AFTER", c.expireAfter));
        c = c.withProbes(c.probes.overlayEnv(env));
        c = c.withHttp(c.http.overlayEnv(env));
        c = c.withTlsFiles(envPath(env, "RDMAMON_TLS_CERT_FILE"), envPath(env, "RDMAMON_TLS_KEY_FILE"));
        c = c.withHistoryBudgetMiB(envInt(env, "RDMAMON_HISTORY_BUDGET_MIB", c.historyBudgetMiB));
        c = c.withCluster(c.cluster.overlayEnv(env));
        if (env.containsKey("RDMAMON_METRICS")) {
            c = c.withMetrics(env.get("RDMAMON_METRICS"), "RDMAMON_METRICS");
        }
        return c.withLimits(envInt(env, "RDMAMON_HISTORY_POINTS", c.historyPoints),
                envInt(env, "RDMAMON_MAX_NODES", c.maxNodes), envInt(env, "RDMAMON_MAX_FRAME_BYTES", c.maxFrameBytes));
    }

    private static Path envPath(Map<String, String> env, String variable) {
        String value = env.get(variable);
        if (value == null) {
            return null;
        }
        if (value.isBlank()) {
            throw new ConfigException(variable + " is set but empty");
        }
        return Path.of(value.strip());
    }

    static int envInt(Map<String, String> env, String variable, int fallback) {
        String value = env.get(variable);
        if (value == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(variable + " must be an integer, got '" + value + "'");
        }
    }

    static Duration envDuration(Map<String, String> env, String variable, Duration fallback) {
        String value = env.get(variable);
        if (value == null) {
            return fallback;
        }
        try {
            return StrictJson.parseDuration(value, variable);
        } catch (StrictJsonException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }
}
