package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PingmeshConfigTest {
    @TempDir
    Path dir;

    private PingmeshConfig load(String section) throws IOException {
        Path file = Files.writeString(dir.resolve("collector.json"), "{\"pingmesh\": " + section + "}");
        return CollectorConfig.load(file, Map.of()).pingmesh();
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        PingmeshConfig d = CollectorConfig.defaults().pingmesh();
        assertEquals(List.of(true, 15, 60, 20, 2, 1, 3, 14, 8), List.of(d.enabled(), d.roundSeconds(), d.windowSeconds(),
                d.iterations(), d.peersPerRound(), d.otherGroupsPerRound(), d.maxServerPerPort(), d.qpTimeout(),
                d.probeTimeoutSeconds()));
        assertEquals(0.033554432, d.lossRttSeconds(), 1e-12); // half of 4.096 µs × 2^14
        assertEquals(PathLocalizer.Thresholds.defaults(), d.thresholds());
        assertEquals(List.of(), d.groups());
    }

    @Test
    void aSectionOverridesSomeKeysAndNamesGroupsInFileOrder() throws IOException {
        PingmeshConfig c = load("""
                {"roundSeconds": 5, "iterations": 50, "qpTimeout": 12, "rttHighMillis": 80,
                 "groups": {"rack-b": ["gpu-b*"], "rack-a": ["gpu-a*", "storage-01"]}}""");
        assertEquals(5, c.roundSeconds());
        assertEquals(50, c.iterations());
        assertEquals(12, c.qpTimeout());
        assertEquals(0.08, c.thresholds().rttHighSeconds(), 1e-12);
        assertEquals(60, c.windowSeconds());
        assertEquals(List.of("rack-b", "rack-a"), c.groups().stream().map(GroupRule::name).toList());
        assertTrue(c.groups().get(1).matches("storage-01"));
        assertTrue(c.groups().get(1).matches("gpu-a17"));
        assertTrue(!c.groups().get(1).matches("gpu-b17"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"roundSeconds": 0}                      | pingmesh.roundSeconds must be positive: 0
            {"rttHighMillis": 0}                     | pingmesh.rttHighMillis must be a positive number: 0.0
            {"windowSeconds": 5}                     | pingmesh.windowSeconds (5) must be at least roundSeconds (15)
            {"iterations": 3}                        | pingmesh.iterations must be 5..10000: 3
            {"peersPerRound": 0, "otherGroupsPerRound": 0} | must not be negative, and not both 0
            {"maxServerPerPort": 4}                  | pingmesh.maxServerPerPort must be 1..3: 4
            {"qpTimeout": 0}                         | pingmesh.qpTimeout must be 1..31: 0
            {"qpTimeout": 21}                        | pingmesh.qpTimeout 21 waits 8.590 s for a retransmission, not less than probeTimeoutSeconds (8)
            {"rounds": 3}                            | unknown key 'pingmesh.rounds'
            {"groups": {"rack a": ["x"]}}            | pingmesh.groups.rack a: group name 'rack a' must be
            {"groups": {"fleet": ["x*"]}}            | 'fleet' is the group of ports no other rule places
            {"groups": {"r1": []}}                   | pingmesh.groups.r1: a group needs at least one node-name glob
            {"groups": {"r1": ["gpu-?"]}}            | pingmesh.groups.r1[0]: 'gpu-?' is not a node-name glob
            {"groups": ["r1"]}                       | pingmesh.groups
            """)
    void badSectionsAreRefusedNamingTheKey(String section, String message) {
        ConfigException e = assertThrows(ConfigException.class, () -> load(section));
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertTrue(e.getMessage().startsWith(dir.resolve("collector.json").toString()), e.getMessage());
    }
}
