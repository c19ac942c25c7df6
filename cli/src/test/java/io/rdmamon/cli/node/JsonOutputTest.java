package io.rdmamon.cli.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.testing.FixtureHosts;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;

import static io.rdmamon.protocol.testing.Samples.ordered;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonOutputTest {

    @Test
    void sampleJsonHasCountersAsNumbersInModelUnits() throws Exception {
        HostSample sample = new HostSample("gpu-07", 1_700_000_000_000L,
                List.of(FixtureHosts.commandsMlx5(), FixtureHosts.erdma(ordered("rx_bytes_cnt", -1L))),
                List.of(SourceStatus.ok("sysfs", "mlx5_0")));
        JsonNode json = new ObjectMapper().readTree(JsonOutput.write(sample));

        assertEquals("gpu-07", json.get("node").asText());
        JsonNode mlx5Port = json.get("devices").get(0).get("ports").get(0);
        JsonNode rcvData = mlx5Port.get("counters").get("port_rcv_data");
        assertTrue(rcvData.isNumber());
        assertEquals(4_000L, rcvData.asLong());
        // an unsigned counter at 2^64 - 1 stays the positive number it is
        JsonNode erdmaBytes = json.get("devices").get(1).get("ports").get(0).get("hwCounters").get("rx_bytes_cnt");
        assertTrue(erdmaBytes.isNumber());
        assertEquals(new BigInteger("18446744073709551615"), erdmaBytes.bigIntegerValue());
        // components only: no derived "roceV2" from GidEntry.isRoceV2(); absent values omitted
        JsonNode gid = mlx5Port.get("gids").get(2);
        assertEquals("192.168.1.2", gid.get("ipv4").asText());
        assertFalse(gid.has("roceV2"));
        assertFalse(mlx5Port.get("gids").get(0).has("ipv4"));
        assertFalse(mlx5Port.has("verbs"));
        // ethtool: the raw statistics and the typed view derived from them, as the record printed them
        JsonNode ethtool = mlx5Port.get("ethtool");
        assertEquals(List.of("netdev", "raw", "priorities", "pfcEnabledPriorities", "vportRdma"),
                iterableToList(ethtool.fieldNames()));
        assertEquals(1_000L, ethtool.get("raw").get("rx_prio3_bytes").asLong());
        assertEquals(3, ethtool.get("priorities").get(0).get("priority").asInt());
        assertEquals(2_000L, ethtool.get("priorities").get(0).get("txBytes").asLong());
        assertEquals("[3]", ethtool.get("pfcEnabledPriorities").toString());
    }

    private static List<String> iterableToList(java.util.Iterator<String> names) {
        List<String> list = new java.util.ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }
}
