package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.collector.model.Rule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The {@code "diagnosis"} section of the collector's config file. */
class DiagnosisConfigTest {
    @TempDir
    Path dir;

    private DiagnosisConfig load(String diagnosis) throws IOException {
        Path file = dir.resolve("collector.json");
        Files.writeString(file, "{\"diagnosis\": " + diagnosis + "}");
        return CollectorConfig.load(file, Map.of()).diagnosis();
    }

    @Test
    void defaultsWithoutASection() {
        DiagnosisConfig d = CollectorConfig.defaults().diagnosis();
        assertEquals(new DiagnosisConfig.Window(3, 10), d.window(Rule.TRANSPORT_LOSS));
        assertEquals(new DiagnosisConfig.Window(1, 10), d.window(Rule.LINK_DOWN));
        assertEquals(0.8, d.minLosslessShare());
        assertEquals(Set.of(), d.losslessPriorities());
    }

    @Test
    void everyKeyOverlaysTheDefaults() throws IOException {
        DiagnosisConfig d = load("""
                {"raiseAfterSamples": 5, "clearAfterSamples": 20, "rules": {"link_down": {"raiseAfterSamples": 2},
                 "pfc_pause_storm": {"clearAfterSamples": 60}}, "minRdmaBytesPerSecond": 1e6, "minLosslessShare": 0.9,
                 "pauseStormRatio": 0.3, "ecnMinPauseFramesPerSecond": 50, "cnpIgnoredPerSecond": 1,
                 "transportErrorsPerSecond": 5, "erdmaDropsPerSecond": 10, "flapWindow": "15m", "minPortsForModalRate": 8,
                 "expectedRateGbps": {"MT4123": 200, "MT4129": 400}, "losslessPriorities": [5, 3], "expectedGidIndex": 3}""");
        assertEquals(new DiagnosisConfig.Window(5, 20), d.window(Rule.ECN_NOT_ENGAGED));
        assertEquals(new DiagnosisConfig.Window(2, 10), d.window(Rule.LINK_DOWN));
        assertEquals(new DiagnosisConfig.Window(5, 60), d.window(Rule.PFC_PAUSE_STORM));
        assertEquals(1e6, d.minRdmaBytesPerSecond());
        assertEquals(0.9, d.minLosslessShare());
        assertEquals(0.3, d.pauseStormRatio());
        assertEquals(50, d.ecnMinPauseFramesPerSecond());
        assertEquals(1, d.cnpIgnoredPerSecond());
        assertEquals(5, d.transportErrorsPerSecond());
        assertEquals(10, d.erdmaDropsPerSecond());
        assertEquals(Duration.ofMinutes(15), d.flapWindow());
        assertEquals(8, d.minPortsForModalRate());
        assertEquals(Map.of("MT4123", 200.0, "MT4129", 400.0), d.expectedRateGbps());
        assertEquals(Set.of(3, 5), d.losslessPriorities());
        assertEquals(3, d.expectedGidIndex());
    }

    @Test
    void linkFlappingThresholdsOverlayTheirDefaults() throws IOException {
        DiagnosisConfig d = load("""
                {"linkFlapping": {"warningFlaps": 2, "criticalWindow": "12h"}}""");

        assertEquals(new DiagnosisConfig.LinkFlapping(2, Duration.ofMinutes(10), 10, Duration.ofHours(12)),
                d.linkFlapping());
        assertEquals(DiagnosisConfig.LinkFlapping.defaults(), DiagnosisConfig.defaults().linkFlapping());
        assertEquals(new DiagnosisConfig.Window(1, 10), DiagnosisConfig.defaults().window(Rule.LINK_FLAPPING));
    }

    @Test
    void rxPowerDriftOverlaysItsDefaults() throws IOException {
        DiagnosisConfig d = load("""
                {"rxPowerDrift": {"dropDb": 4.5}}""");

        assertEquals(new DiagnosisConfig.RxPowerDrift(4.5, Duration.ofHours(1)), d.rxPowerDrift());
        assertEquals(new DiagnosisConfig.RxPowerDrift(3.0, Duration.ofHours(1)), DiagnosisConfig.defaults().rxPowerDrift());
        assertEquals(0.5012e-3, DiagnosisConfig.defaults().rxPowerDrift().floorWatts(1e-3), 1e-7, "3 dB: about half the power");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "{\"rxPowerDrift\": {\"dropDb\": 0}}|diagnosis.rxPowerDrift.dropDb must be a positive number of dB, got 0.0",
            "{\"rxPowerDrift\": {\"baselineWindow\": \"30s\"}}|diagnosis.rxPowerDrift.baselineWindow must be at least 1m, got PT30S",
            "{\"rxPowerDrift\": {\"drop\": 3}}|unknown key 'diagnosis.rxPowerDrift.drop'",
            "{\"minLossless\": 0.5}|unknown key 'diagnosis.minLossless' (known: [clearAfterSamples,",
            "{\"minLosslessShare\": 1.5}|diagnosis.minLosslessShare must be a fraction 0..1, got 1.5",
            "{\"minLosslessShare\": \"high\"}|diagnosis.minLosslessShare: expected a number, got string",
            "{\"raiseAfterSamples\": 0}|diagnosis.raiseAfterSamples and clearAfterSamples must be >= 1, got 0 and 10",
            "{\"rules\": {\"link_flap\": {}}}|diagnosis.rules: unknown rule 'link_flap'",
            "{\"rules\": {\"link_down\": {\"raise\": 1}}}|unknown key 'diagnosis.rules.link_down.raise' (known: [clearAfterSamples, raiseAfterSamples])",
            "{\"rules\": {\"link_down\": {\"clearAfterSamples\": 0}}}|diagnosis.rules.link_down: raiseAfterSamples and clearAfterSamples must be >= 1",
            "{\"flapWindow\": \"soon\"}|diagnosis.flapWindow: expected a duration",
            "{\"losslessPriorities\": [8]}|diagnosis.losslessPriorities: priority 8 is not 0..7",
            "{\"expectedRateGbps\": {\"MT4123\": -1}}|diagnosis.expectedRateGbps.MT4123 must be a positive number of Gb/s",
            "{\"expectedGidIndex\": \"3\"}|diagnosis.expectedGidIndex: expected a 32-bit integer, got string",
            "{\"linkFlapping\": {\"warningFlaps\": 0}}|diagnosis.linkFlapping.warningFlaps and criticalFlaps must be >= 1, got 0 and 10",
            "{\"linkFlapping\": {\"criticalWindow\": \"5m\"}}|diagnosis.linkFlapping.warningWindow must be positive and criticalWindow at least as long, got PT10M and PT5M",
            "{\"linkFlapping\": {\"flaps\": 3}}|unknown key 'diagnosis.linkFlapping.flaps'",
            "[]|diagnosis: expected an object, got array"})
    void badValuesAreErrorsNamingTheKey(String diagnosis, String message) {
        ConfigException e = assertThrows(ConfigException.class, () -> load(diagnosis));
        String expected = dir.resolve("collector.json") + ": " + message;
        assertEquals(expected, e.getMessage().substring(0, Math.min(e.getMessage().length(), expected.length())),
                e.getMessage());
    }
}
