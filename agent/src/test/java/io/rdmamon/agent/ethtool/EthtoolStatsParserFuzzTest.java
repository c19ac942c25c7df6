package io.rdmamon.agent.ethtool;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rdmamon.protocol.model.EthtoolStats;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Fuzzes the captured {@code ethtool -S} text path of {@link CapturedEthtoolStatsSource}: {@link
 * EthtoolStatsParser#parseText}, whose refusal ({@link IllegalArgumentException}, naming the line) the source
 * turns into an {@link java.io.IOException} for that netdev, then the model's typed view ({@link EthtoolStats#of})
 * of what it accepted, which must not throw.
 */
class EthtoolStatsParserFuzzTest {

    @FuzzTest
    void statisticsTextParsesOrIsRefusedWithAnIllegalArgument(byte[] capture) {
        LinkedHashMap<String, Long> raw;
        try {
            raw = EthtoolStatsParser.parseText(new String(capture, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException refused) {
            return;
        }
        EthtoolStats stats = EthtoolStats.of("eth0", raw);
        assertEquals(raw, stats.raw());
    }
}
