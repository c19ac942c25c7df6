package io.rdmamon.collector;

import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.collector.ingest.IngestLimits;
import io.rdmamon.protocol.exposition.MetricSelection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CollectorConfigTest {
    @TempDir
    Path dir;

    @Test
    void fileThenEnvironmentThenFlags() throws IOException {
        Files.writeString(dir.resolve("agents.txt"), "# fleet\nshared-token\nper-node-token gpu-07\n");
        Path file = Files.writeString(dir.resolve("collector.json"), """
                {"listen": "0.0.0.0:9000", "tokens": [{"role": "agent", "tokenFile": "agents.txt"},
                 {"role": "viewer", "token": "grafana"}], "expireAfter": "2m", "historyPoints": 60}""");
        Path operator = Files.writeString(dir.resolve("op.token"), "op-secret\n");
        CollectorConfig config = CollectorConfig.load(file, Map.of("RDMAMON_EXPIRE_AFTER", "90s",
                        "RDMAMON_OPERATOR_TOKEN_FILE", operator.toString()))
                .withListen("[::1]:0");
        assertEquals("::1", config.listenHost());
        assertEquals(0, config.listenPort());
        assertEquals(Duration.ofSeconds(90), config.expireAfter());
        assertEquals(60, config.historyPoints());
        assertEquals(3, config.staleAfterIntervals());
        assertEquals(List.of(new TokenEntry(Role.AGENT, "shared-token", null),
                new TokenEntry(Role.AGENT, "per-node-token", "gpu-07"), new TokenEntry(Role.VIEWER, "grafana", null),
                new TokenEntry(Role.OPERATOR, "op-secret", null)), config.tokens());
        assertTrue(!config.tokens().toString().contains("secret"), "tokens must not show in toString");
    }

    @Test
    void ingestLimitsHaveDefaultsAndAFileSectionOverridesSomeOfThem() throws IOException {
        assertEquals(IngestLimits.defaults(), CollectorConfig.defaults().ingest());
        Path file = Files.writeString(dir.resolve("collector.json"),
                "{\"ingest\": {\"maxPortsPerDevice\": 4, \"maxClockSkew\": \"30s\", \"idleTimeout\": \"1m\"}}");
        IngestLimits limits = CollectorConfig.load(file, Map.of()).ingest();
        assertEquals(4, limits.maxPortsPerDevice());
        assertEquals(Duration.ofSeconds(30), limits.maxClockSkew());
        assertEquals(Duration.ofMinutes(1), limits.idleTimeout());
        assertEquals(IngestLimits.defaults().maxCountersPerGroup(), limits.maxCountersPerGroup());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"listen\": \"nohost\"}                    | collector.json: listen: expected HOST:PORT, got 'nohost'",
            "{\"lissten\": \"a:1\"}                      | collector.json: unknown key 'lissten'",
            "{\"expireAfter\": \"soon\"}                 | collector.json: expireAfter: expected a duration",
            "{\"maxNodes\": \"many\"}                    | collector.json: maxNodes: expected a 32-bit integer, got string",
            "{\"tokens\": [{\"role\": \"admin\", \"token\": \"x\"}] } | collector.json: tokens[0]: unknown role 'admin'",
            "{\"tokens\": [{\"role\": \"agent\"}] }      | collector.json: tokens[0]: needs a role and exactly one of token, tokenFile",
            "{\"listen\": 5                              | collector.json: cannot read config",
            "{\"ingest\": {\"maxPorts\": 4}}              | collector.json: unknown key 'ingest.maxPorts'",
            "{\"ingest\": {\"maxDevices\": 0}}            | collector.json: ingest.maxDevices must be positive: 0",
            "{\"ingest\": {\"maxNameLength\": 10}}        | collector.json: ingest.maxNameLength must be at least 64: 10",
            "{\"ingest\": {\"maxClockSkew\": 5}}          | collector.json: ingest.maxClockSkew: expected a duration string like \"500ms\"",
            "{\"ingest\": {\"idleTimeout\": \"500ms\"}}   | collector.json: ingest.idleTimeout must be at least 1s",
            "{\"http\": {\"maxConections\": 5}}          | collector.json: unknown key 'http.maxConections'",
            "{\"http\": {\"idleTimeout\": 60}}           | collector.json: http.idleTimeout: expected a duration string like \"500ms\", \"30s\", \"10m\" or \"1h\", got number",
            "{\"http\": {\"maxConnections\": 0}}         | collector.json: http.maxConnections must be positive: 0",
            "{\"metrics\": \"everything\"}             | collector.json: metrics: unknown metrics profile 'everything' (known: full, standard, minimal",
            "{\"metrics\": \"standard,-rdma_gids_info\"} | collector.json: metrics: unknown metric family 'rdma_gids_info'",
            "{\"metrics\": 3}                          | collector.json: metrics: expected a string",
            "{\"maxNodes\": 0}                         | collector.json: maxNodes must be positive: 0",
            "{\"historyBudgetMiB\": -1}                | collector.json: historyBudgetMiB must be 0 (automatic) or positive, got -1",
            "{\"expireAfter\": \"99999999999999999999\"} | collector.json: expireAfter: duration '99999999999999999999' is beyond",
            "{\"tokens\": [{\"role\": \"agent\", \"token\": \"x\", \"nodes\": \"gpu-1\"}]} | collector.json: unknown key 'tokens[0].nodes'",
            "{\"tokens\": {\"role\": \"agent\"}}        | collector.json: tokens: expected an array, got object",
            "{\"maxNodes\": 5, \"maxNodes\": 6}          | collector.json: cannot read config: Duplicate field 'maxNodes'",
            // found by CollectorConfigFuzzTest: each threw something else than a ConfigException
            "{\"expireAfter\": \"99999999999999999999s\"} | collector.json: expireAfter: duration '99999999999999999999s' is beyond",
            "{\"expireAfter\": \"9999999999999999h\"}    | collector.json: expireAfter: duration '9999999999999999h' is beyond",
            "{\"diagnosis\": {\"flapWindow\": \"99999999999999999999m\"}} | collector.json: diagnosis.flapWindow: duration",
            "{\"tokens\": [{\"role\": \"viewer\", \"token\": \" \"}] } | collector.json: tokens[0]: empty viewer token",
            "{\"tokens\": [{\"role\": \"agent\", \"tokenFile\": \"a\\u0000b\"}] } | collector.json: tokens[0].tokenFile: not a file name",
            "{\"tls\": {\"certFile\": \"a\\u0000b\"}}       | collector.json: tls.certFile: not a file name",
            "{\"probes\": {\"auditLog\": \"a\\u0000b\"}}    | collector.json: probes.auditLog: not a file name"})
    void badFilesAreNamed(String content, String message) throws IOException {
        Path file = Files.writeString(dir.resolve("collector.json"), content);
        ConfigException e = assertThrows(ConfigException.class, () -> CollectorConfig.load(file, Map.of()));
        assertTrue(e.getMessage().startsWith(file.getParent().resolve(message.substring(0, message.indexOf(':'))).toString())
                && e.getMessage().contains(message.substring(message.indexOf(':') + 2)), e.getMessage());
    }

    @Test
    void theMetricsSelectionIsFullUnlessTheFileTheEnvironmentOrTheFlagSetsIt() throws IOException {
        assertEquals(MetricSelection.FULL, CollectorConfig.defaults().metrics());
        Path file = Files.writeString(dir.resolve("collector.json"), "{\"metrics\": \"standard,-rdma_gid_info\"}");
        CollectorConfig fromFile = CollectorConfig.load(file, Map.of());
        assertEquals("standard,-rdma_gid_info", fromFile.metrics().toString());
        assertEquals("minimal", CollectorConfig.load(file, Map.of("RDMAMON_METRICS", "minimal")).metrics().toString());
        // the flag comes last and wins (CollectorCommand applies it over the loaded config)
        assertEquals("full,-rdma_hw_*", fromFile.withMetrics("full,-rdma_hw_*", "--metrics").metrics().toString());
        ConfigException e = assertThrows(ConfigException.class, () -> fromFile.withMetrics("nope", "--metrics"));
        assertTrue(e.getMessage().startsWith("--metrics: unknown metrics profile 'nope'"), e.getMessage());
    }

    @Test
    void httpLimitsFromTheFileThenTheEnvironment() throws IOException {
        Path file = Files.writeString(dir.resolve("collector.json"), """
                {"http": {"maxConnections": 500, "requestTimeout": "5s", "idleTimeout": "2m",
                 "refusalLogWindow": "30s", "maxPortWatchesPerAddress": 3}}""");
        HttpLimits http = CollectorConfig.load(file, Map.of("RDMAMON_HTTP_IDLE_TIMEOUT", "90s",
                "RDMAMON_HTTP_MAX_CONNECTIONS", "700")).http();
        assertEquals(new HttpLimits(700, Duration.ofSeconds(5), Duration.ofSeconds(90), Duration.ofSeconds(30), 3), http);
        assertEquals(new HttpLimits(12_000, Duration.ofSeconds(10), Duration.ofSeconds(60), Duration.ofSeconds(60), 8),
                CollectorConfig.defaults().http());
    }

    @Test
    void theHistoryBudgetIsAShareOfTheHeapUnlessTheFileOrTheEnvironmentSetsIt() throws IOException {
        long heap = 4L << 30;
        assertEquals(heap / 100 * CollectorConfig.AUTO_HISTORY_BUDGET_PERCENT,
                CollectorConfig.defaults().historyBudgetBytes(heap));
        Path file = Files.writeString(dir.resolve("collector.json"), "{\"historyBudgetMiB\": 300}");
        assertEquals(300L << 20, CollectorConfig.load(file, Map.of()).historyBudgetBytes(heap));
        assertEquals(40L << 20, CollectorConfig.load(file, Map.of("RDMAMON_HISTORY_BUDGET_MIB", "40"))
                .historyBudgetBytes(heap));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "RDMAMON_LISTEN             | 1.2.3.4:http | RDMAMON_LISTEN: port of '1.2.3.4:http' is not a number",
            "RDMAMON_INSECURE           | yes          | RDMAMON_INSECURE must be true or false, got 'yes'",
            "RDMAMON_MAX_NODES          | lots         | RDMAMON_MAX_NODES must be an integer, got 'lots'",
            "RDMAMON_EXPIRE_AFTER       | 99999999999999999999s | RDMAMON_EXPIRE_AFTER: duration '99999999999999999999s' is beyond",
            "RDMAMON_AGENT_TOKEN_FILE   | /nonexistent/agent.token | /nonexistent/agent.token: cannot read token file"})
    void badEnvironmentIsNamed(String variable, String value, String message) {
        ConfigException e = assertThrows(ConfigException.class, () -> CollectorConfig.load(null, Map.of(variable, value)));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }
}
