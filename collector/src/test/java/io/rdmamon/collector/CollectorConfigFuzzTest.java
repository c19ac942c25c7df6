package io.rdmamon.collector;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rdmamon.collector.config.ConfigException;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Fuzzes the collector's config file: the parse path of {@link CollectorConfig#load} with the input as the
 * file's bytes (a disk write per input held the fuzzer to a few hundred inputs a second), which runs the strict
 * readers of every section ({@code listen}, {@code tokens}, {@code probes} ({@link
 * io.rdmamon.collector.probe.ProbeConfig}), {@code diagnosis} ({@link io.rdmamon.collector.diagnosis.DiagnosisConfig}),
 * {@code tls}). The only refusal allowed is a {@link ConfigException} with a message, which the collector prints
 * before it exits; anything else thrown is a finding.
 */
class CollectorConfigFuzzTest {
    /** Named in errors; token files beside it do not exist, so a tokenFile entry is refused after the parse. */
    private static final Path CONFIG_FILE = Path.of("target", "fuzz", "collector.json").toAbsolutePath();

    @FuzzTest
    void configFileLoadsOrIsRefusedWithAConfigException(byte[] file) {
        try {
            CollectorConfig.defaults().overlayFile(CONFIG_FILE, file);
        } catch (ConfigException refused) {
            assertFalse(refused.getMessage() == null || refused.getMessage().isBlank(), "a refusal without a reason");
        }
    }
}
