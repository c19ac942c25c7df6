package io.rdmamon.cli.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.QueuePair;
import io.rdmamon.protocol.model.RdmaResources;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.testing.FixtureHosts;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;

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

    /** The paths the lab compares with {@code rdma -j statistic show link}, {@code rdma -j resource show [qp]}. */
    @Test
    void sampleJsonHasEachDevicesResourcesAndQpsAndEachPortsHwCounterSource() throws Exception {
        IbDevice rxe = FixtureHosts.commandsMlx5();
        IbPort port = rxe.ports().get(0).withHwCounters(Map.of("sent_pkts", 94_699L), IbPort.HW_COUNTERS_NETLINK);
        HostSample sample = new HostSample("lab", 1L, List.of(rxe.withPorts(List.of(port)).withResources(
                new RdmaResources(Map.of("qp", 2L), List.of(new QueuePair(1, null, 1, "GSI", "RTS", null, "ib_core"),
                        new QueuePair(17, 18L, 1, "RC", "RTS", 4321L, null)), 0))), List.of());
        JsonNode device = new ObjectMapper().readTree(JsonOutput.write(sample)).get("devices").get(0);

        assertEquals("netlink", device.get("ports").get(0).get("hwCountersSource").asText());
        assertEquals(94_699L, device.get("ports").get(0).get("hwCounters").get("sent_pkts").asLong());
        assertEquals("{\"summary\":{\"qp\":2},\"qps\":[{\"lqpn\":1,\"port\":1,\"type\":\"GSI\",\"state\":\"RTS\","
                + "\"kernName\":\"ib_core\"},{\"lqpn\":17,\"rqpn\":18,\"port\":1,\"type\":\"RC\",\"state\":\"RTS\","
                + "\"pid\":4321}],\"qpsDropped\":0,\"workloads\":[]}", device.get("resources").toString());
    }

    /** What the lab reads from {@code rdmamon sample --json}: an absent capability beside success, as on the wire. */
    @Test
    void sampleJsonShowsAnUnsupportedSourceBesideSuccessAndAFailedOneAsBefore() throws Exception {
        HostSample sample = new HostSample("rxe-node", 1L, List.of(), List.of(SourceStatus.ok("sysfs", "rxe0"),
                SourceStatus.unsupported("qos", "eth1", "no DCB support on eth1 (EOPNOTSUPP)"),
                SourceStatus.failed("ethtool", "eth1", "ioctl SIOCETHTOOL on eth1: No such device")));
        JsonNode sources = new ObjectMapper().readTree(JsonOutput.write(sample)).get("sources");

        assertEquals("[{\"source\":\"sysfs\",\"subject\":\"rxe0\",\"success\":true},"
                + "{\"source\":\"qos\",\"subject\":\"eth1\",\"success\":true,"
                + "\"unsupported\":\"no DCB support on eth1 (EOPNOTSUPP)\"},"
                + "{\"source\":\"ethtool\",\"subject\":\"eth1\",\"success\":false,"
                + "\"error\":\"ioctl SIOCETHTOOL on eth1: No such device\"}]", sources.toString());
    }

    private static List<String> iterableToList(java.util.Iterator<String> names) {
        List<String> list = new java.util.ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }
}
