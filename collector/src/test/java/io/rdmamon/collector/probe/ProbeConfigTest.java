package io.rdmamon.collector.probe;

import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The {@code "probes"} config section: file, then environment; errors name the key or variable. */
class ProbeConfigTest {
    @TempDir
    Path dir;

    @Test
    void fileThenEnvironmentOverlayTheDefaults() throws Exception {
        Path file = Files.writeString(dir.resolve("collector.json"), """
                {"probes": {"maxConcurrent": 4, "cooldownSeconds": 2.5, "passRatio": 0.8, "auditLog": "audit.jsonl",
                            "serverReadyTimeoutSeconds": 5}}""");
        ProbeConfig probes = CollectorConfig.load(file, Map.of("RDMAMON_PROBES_MAX_CONCURRENT", "3",
                "RDMAMON_PROBES_TIMEOUT_MARGIN_SECONDS", "10")).probes();
        assertEquals(3, probes.maxConcurrent(), "the environment wins over the file");
        assertEquals(Duration.ofMillis(2500), probes.cooldown());
        assertEquals(0.8, probes.passRatio());
        assertEquals(dir.resolve("audit.jsonl"), probes.auditLog(), "relative to the config file");
        assertEquals(Duration.ofSeconds(5), probes.serverReadyTimeout());
        assertEquals(Duration.ofSeconds(10), probes.timeoutMargin());
        assertEquals(60, probes.maxDurationSeconds(), "default");
        assertEquals(200, probes.historySize(), "default");
    }

    @Test
    void errorsNameTheKeyOrVariable() throws Exception {
        Path unknown = Files.writeString(dir.resolve("a.json"), "{\"probes\": {\"maxConcurent\": 4}}");
        assertEquals(unknown + ": unknown key 'probes.maxConcurent' (known: [auditLog, cooldownSeconds, historySize, "
                        + "maxConcurrent, maxDurationSeconds, passRatio, serverReadyTimeoutSeconds, timeoutMarginSeconds])",
                assertThrows(ConfigException.class, () -> CollectorConfig.load(unknown, Map.of())).getMessage());
        Path ratio = Files.writeString(dir.resolve("b.json"), "{\"probes\": {\"passRatio\": 1.5}}");
        assertEquals(ratio + ": probes.passRatio must be in (0, 1]: 1.5",
                assertThrows(ConfigException.class, () -> CollectorConfig.load(ratio, Map.of())).getMessage());
        Path text = Files.writeString(dir.resolve("c.json"), "{\"probes\": {\"maxDurationSeconds\": \"60\"}}");
        assertEquals(text + ": probes.maxDurationSeconds: expected a 32-bit integer, got string",
                assertThrows(ConfigException.class, () -> CollectorConfig.load(text, Map.of())).getMessage());
        assertEquals("RDMAMON_PROBES_HISTORY_SIZE must be an integer, got 'lots'",
                assertThrows(ConfigException.class, () -> CollectorConfig.load(null,
                        Map.of("RDMAMON_PROBES_HISTORY_SIZE", "lots"))).getMessage());
        assertEquals("probes.maxConcurrent must be positive: 0",
                assertThrows(ConfigException.class, () -> CollectorConfig.load(null,
                        Map.of("RDMAMON_PROBES_MAX_CONCURRENT", "0"))).getMessage());
    }
}
