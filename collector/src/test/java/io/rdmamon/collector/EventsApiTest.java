package io.rdmamon.collector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.FecMode;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.LldpNeighbor;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.PciFunction;
import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.QueuePair;
import io.rdmamon.protocol.model.RdmaResources;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.wire.Frame;
import io.rdmamon.protocol.wire.FrameCodec;
import io.rdmamon.protocol.wire.SampleEncoder;
import io.rdmamon.protocol.wire.WireFormat;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code GET /api/nodes/{node}/events}: a collector fed over the real ingest with samples in which one RoCE port's
 * carrier goes down and up twice (protocol 3 netdev counters) and an IB port's link_downed rises to 255.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(VertxExtension.class)
class EventsApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long START = System.currentTimeMillis() - 10_000;
    private final HttpClient http = HttpClient.newHttpClient();
    private Vertx vertx;
    private Collector.Running collector;
    private WebSocket agent;

    @BeforeAll
    void start(Vertx vertx) throws Exception {
        this.vertx = vertx;
        collector = await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0")));
        FrameCodec codec = new FrameCodec();
        LinkedBlockingQueue<Frame> acks = new LinkedBlockingQueue<>();
        agent = await(vertx.createWebSocketClient().connect(new WebSocketConnectOptions().setHost("127.0.0.1")
                .setPort(collector.port()).setURI(WireFormat.STREAM_PATH)));
        agent.binaryMessageHandler(b -> {
            try {
                acks.add(codec.decode(b.getBytes()));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        SampleEncoder encoder = new SampleEncoder("gpu-07", "test", 1000);
        // carrier downs per sample: 4, 4, 5, 6 (two flaps, in samples 3 and 4); link_downed 250, 250, 255, 255
        long[] downs = {4, 4, 5, 6};
        long[] linkDowned = {250, 250, 255, 255};
        for (int seq = 1; seq <= downs.length; seq++) {
            HostSample sample = sample(START + seq * 1000L, downs[seq - 1], linkDowned[seq - 1]);
            for (Frame frame : encoder.encode(sample, seq)) {
                await(agent.writeBinaryMessage(Buffer.buffer(codec.encode(frame))));
            }
            assertEquals(new Frame.Ack(seq), acks.poll(5, TimeUnit.SECONDS));
        }
    }

    @AfterAll
    void stop() throws Exception {
        await(agent.close());
    }

    @Test
    void theLedgerListsEachIncreaseWithItsSampleTime() throws Exception {
        HttpResponse<String> response = get("/api/nodes/gpu-07/events");
        assertEquals(200, response.statusCode(), response.body());
        JsonNode body = JSON.readTree(response.body());
        assertEquals("gpu-07", body.get("node").asText());
        JsonNode ports = body.get("ports");
        assertEquals(2, ports.size(), body.toString());

        JsonNode ib = ports.get(0);
        assertEquals("mlx5_4", ib.get("device").asText());
        assertEquals("[\"link_downed\"]", ib.get("saturatedCounters").toString());
        assertEquals(1, ib.get("events").size());
        JsonNode saturated = ib.get("events").get(0);
        assertEquals(START + 3000, saturated.get("timestampMillis").asLong());
        assertEquals(5, saturated.get("flaps").asLong());
        assertEquals("{\"counter\":\"link_downed\",\"from\":250,\"to\":255,\"increase\":5,\"saturated\":true}",
                saturated.get("changes").get(0).toString());

        JsonNode roce = ports.get(1);
        assertEquals("rocep1s0f0", roce.get("device").asText());
        assertEquals(List.of(START + 3000, START + 4000),
                List.of(roce.get("events").get(0).get("timestampMillis").asLong(),
                        roce.get("events").get(1).get("timestampMillis").asLong()));
        for (JsonNode event : roce.get("events")) {
            assertEquals("enp1s0f0np0", event.get("netdev").asText());
            assertEquals(1, event.get("flaps").asLong());
        }
        assertEquals("{\"counter\":\"carrier_down_count\",\"from\":5,\"to\":6,\"increase\":1,\"saturated\":false}",
                roce.get("events").get(1).get("changes").get(0).toString());
    }

    /** The same flaps and verdict change are entries of the fleet's change log, newest first (with the diagnoses). */
    @Test
    void theFleetTimelineHoldsTheSameFlapsAndVerdictChange() throws Exception {
        HttpResponse<String> response = get("/api/events?node=gpu-07");
        assertEquals(200, response.statusCode(), response.body());
        List<String> entries = new ArrayList<>();
        for (JsonNode event : JSON.readTree(response.body()).get("events")) {
            if (event.get("kind").asText().startsWith("diagnosis_")) {
                continue;
            }
            entries.add(event.get("kind").asText() + " " + event.get("device").asText() + " "
                    + (event.get("timeMillis").asLong() - START));
        }
        assertEquals(List.of("link_flap rocep1s0f0 4000", "link_flap rocep1s0f0 3000", "link_flap mlx5_4 3000",
                "topology_verdict rocep1s0f0 3000"), entries);
    }

    @Test
    void theNodeDetailCarriesTheNetdevCountersAndThePciFunction() throws Exception {
        JsonNode ib = detailDevice(0);
        JsonNode roce = detailDevice(1);

        assertTrue(ib.get("pci").isNull());
        assertEquals("{}", ib.get("ports").get(0).get("netdevCounters").toString());
        assertEquals(6, roce.get("ports").get(0).get("netdevCounters").get("carrier_down_count").asLong());
        JsonNode pci = roce.get("pci");
        assertEquals("0000:01:00.0", pci.get("address").asText());
        assertTrue(pci.get("degraded").asBoolean(), pci.toString());
        assertEquals(8_000_000_000L, pci.get("currentLinkSpeedTransfersPerSecond").asLong());
        assertEquals("{\"correctable\":2}", pci.get("aerErrors").toString());
    }

    @Test
    void theNodeDetailCarriesEachDevicesResourcesAndQpsAndWhereThePortsHwCountersCameFrom() throws Exception {
        JsonNode ib = detailDevice(0);
        JsonNode roce = detailDevice(1);

        assertTrue(ib.get("resources").isNull());
        assertTrue(ib.get("ports").get(0).get("hwCountersSource").isNull());
        assertEquals("netlink", roce.get("ports").get(0).get("hwCountersSource").asText());
        assertEquals("{\"summary\":{\"qp\":2},\"qps\":[{\"lqpn\":1,\"rqpn\":null,\"port\":1,\"type\":\"GSI\","
                + "\"state\":\"RTS\",\"pid\":null,\"kernName\":\"ib_core\"},{\"lqpn\":17,\"rqpn\":18,\"port\":1,"
                + "\"type\":\"RC\",\"state\":\"RTS\",\"pid\":4321,\"kernName\":null}],\"qpsDropped\":0}",
                roce.get("resources").toString());
    }

    /** A NIC without DCB is neither an error nor hidden: its own status, success kept, the reason beside it. */
    @Test
    void theNodeDetailShowsAnUnsupportedSourceAsUnsupportedNotFailed() throws Exception {
        JsonNode sources = JSON.readTree(get("/api/nodes/gpu-07").body()).get("sources");

        assertEquals("{\"source\":\"sysfs\",\"subject\":\"mlx5_4\",\"success\":true,\"status\":\"ok\","
                + "\"error\":null,\"unsupported\":null}", sources.get(0).toString());
        assertEquals("{\"source\":\"qos\",\"subject\":\"enp1s0f0np0\",\"success\":true,\"status\":\"unsupported\","
                + "\"error\":null,\"unsupported\":\"no DCB support on enp1s0f0np0 (EOPNOTSUPP)\"}",
                sources.get(2).toString());
    }

    /** Device {@code index} of the node detail: mlx5_4 (InfiniBand) then rocep1s0f0. */
    private JsonNode detailDevice(int index) throws Exception {
        return JSON.readTree(get("/api/nodes/gpu-07").body()).get("devices").get(index);
    }

    @Test
    void theNodeDetailAndTheMetricsCarryThePortsLldpNeighbour() throws Exception {
        assertEquals("{\"chassisId\":\"1c:34:da:07:00:00\",\"chassisIdType\":\"mac\",\"systemName\":\"leaf-07\","
                + "\"portId\":\"Ethernet8\",\"portIdType\":\"ifname\",\"portDescription\":null}",
                detailOf("rocep1s0f0").get("neighbor").toString());
        assertTrue(detailOf("mlx5_4").get("neighbor").isNull(), "none known");
        assertTrue(get("/metrics").body().contains("rdma_port_neighbor_info{chassis_id=\"1c:34:da:07:00:00\","
                + "device=\"rocep1s0f0\",node=\"gpu-07\",port=\"1\",port_id=\"Ethernet8\",system_name=\"leaf-07\"} 1"));
    }

    @Test
    void anUnknownNodeIsA404NamingIt() throws Exception {
        HttpResponse<String> response = get("/api/nodes/gpu-99/events");

        assertEquals(404, response.statusCode());
        assertEquals("{\"error\":\"unknown node 'gpu-99'\"}", response.body());
    }

    /** A QSFP-DD whose lane 2 receives 0.05 mW, under its low warning 0.0891 mW (-10.50 dBm). */
    private static final TransceiverModule OPTIC = new TransceiverModule("CMIS", 0x18, "QSFP-DD", "Eoptolink",
            "EOLD-168HG-10-1", "01", "DR4R030015", "250428", 49.75, 3.3173,
            List.of(new TransceiverModule.Lane(1, 0.5e-3, 1.5e-3, 0.11), new TransceiverModule.Lane(2, 0.05e-3, 1.5e-3, 0.11)),
            new TransceiverModule.Thresholds(null, null, new TransceiverModule.Limits(5.7544e-3, 0.0708e-3, 4.5709e-3,
                    0.0891e-3), null, null), List.of());

    @Test
    void theNodeDetailCarriesThePhysicalLayerComputedForThePortPage() throws Exception {
        JsonNode port = JSON.readTree(get("/api/nodes/gpu-07").body()).get("devices").get(1).get("ports").get(0);

        assertEquals("{\"active\":\"RS\",\"configured\":[\"Auto\",\"RS\"]}", port.get("fec").toString());
        assertEquals(5e-6, port.get("preFecBer").asDouble(), 1e-12);
        assertTrue(port.get("preFecBerEstimated").asBoolean());
        JsonNode module = port.get("module");
        assertEquals("DR4R030015", module.get("serial").asText());
        assertEquals(-2.51, module.get("worstRxMarginDb").asDouble(), 0.005);
        JsonNode lane2 = module.get("lanes").get(1);
        assertEquals(-13.01, lane2.get("rxPowerDbm").asDouble(), 0.005);
        assertEquals(-2.51, lane2.get("rxMarginDb").asDouble(), 0.005);
        assertEquals(7.49, module.get("lanes").get(0).get("rxMarginDb").asDouble(), 0.005);
        assertEquals(-10.50, module.get("thresholds").get("rxPowerWatts").get("lowWarningDbm").asDouble(), 0.005);
        assertTrue(detailOf("mlx5_4").get("module").isNull(), "an IB port without a transceiver");
    }

    private JsonNode detailOf(String device) throws Exception {
        for (JsonNode d : JSON.readTree(get("/api/nodes/gpu-07").body()).get("devices")) {
            if (d.get("name").asText().equals(device)) {
                return d.get("ports").get(0);
            }
        }
        throw new AssertionError("no device " + device);
    }

    private static HostSample sample(long timestamp, long carrierDowns, long linkDowned) {
        // 200 Gb/s, 1 s apart: 1e6 more corrected bits per sample is a pre-FEC BER of 5e-6 (estimated: no rx_bits_phy)
        long sampleIndex = (timestamp - START) / 1000;
        IbPort roce = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .rate("200 Gb/sec (4X HDR)").rateBytesPerSecond(25_000_000_000L).linkLayer("Ethernet").lid("0x0")
                .netdev("enp1s0f0np0").ethtool(EthtoolStats.of("enp1s0f0np0", Map.of("rx_corrected_bits_phy",
                        sampleIndex * 1_000_000L, "rx_pcs_symbol_err_phy", 0L)))
                .netdevCounters(Map.of("carrier_down_count", carrierDowns, "carrier_up_count", carrierDowns))
                .module(OPTIC).fec(new FecMode("RS", List.of("Auto", "RS"))).hwCountersSource(IbPort.HW_COUNTERS_NETLINK)
                .neighbor(new LldpNeighbor("1c:34:da:07:00:00", "mac", "leaf-07", "Ethernet8", "ifname", null)).build();
        IbPort ib = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("InfiniBand").lid("0x12").counters(Map.of("link_downed", linkDowned)).build();
        return new HostSample("gpu-07", timestamp, List.of(
                new IbDevice("mlx5_4", 1, "CA", null, null, "28.39", "MT4129", null, List.of(ib)),
                new IbDevice("rocep1s0f0", 1, "CA", null, null, "22.31", "MT4125", null, List.of(roce),
                        new PciFunction("0000:01:00.0", null, "0000:01:00.0", "8.0 GT/s PCIe", "16.0 GT/s PCIe",
                                8_000_000_000L, 16_000_000_000L, 16, 16, Map.of("correctable", 2L), List.of()),
                        new RdmaResources(Map.of("qp", 2L), List.of(new QueuePair(1, null, 1, "GSI", "RTS", null,
                                "ib_core"), new QueuePair(17, 18L, 1, "RC", "RTS", 4321L, null)), 0)
                                .withWorkloads(workloads()))),
                List.of(SourceStatus.ok("sysfs", "mlx5_4"), SourceStatus.ok("sysfs", "rocep1s0f0"),
                        SourceStatus.unsupported("qos", "enp1s0f0np0", "no DCB support on enp1s0f0np0 (EOPNOTSUPP)")),
                null, sampleIndex <= 2 ? topology("ready", List.of()) : topology("degraded", List.of(ACS)));
    }

    private static final String ACS = "ACS P2P Request Redirect on bridge 0000:00:01.0: P2P goes up through the root "
            + "complex";

    /** GPU0 under the RoCE NIC's root port: ready, until a reboot turns ACS redirect on (sample 3). */
    private static GpuTopology topology(String verdict, List<String> reasons) {
        return new GpuTopology(List.of(
                new GpuTopology.Endpoint("GPU0", "GPU0", GpuTopology.Endpoint.GPU, "0000:02:00.0", 0, "0-31", true),
                new GpuTopology.Endpoint("rocep1s0f0", "NIC0", GpuTopology.Endpoint.NIC, "0000:01:00.0", 0, "0-31", true)),
                List.of(List.of("X", "PIX"), List.of("PIX", "X")), List.of(new GpuTopology.Pair("GPU0", "rocep1s0f0", "PIX", verdict,
                true, reasons.isEmpty() ? List.of() : List.of("0000:00:01.0"), reasons)), true, List.of());
    }

    @Test
    void theEventsListEachChangeOfTheGpuDirectVerdictsAfterTheFirstReading() throws Exception {
        JsonNode topology = JSON.readTree(get("/api/nodes/gpu-07/events").body()).get("topology");

        assertEquals(1, topology.size(), topology.toString());
        assertEquals("{\"timestampMillis\":" + (START + 3000) + ",\"gpu\":\"GPU0\",\"nic\":\"rocep1s0f0\","
                + "\"from\":\"ready\",\"to\":\"degraded\",\"raised\":[\"" + ACS + "\"],\"cleared\":[]}",
                topology.get(0).toString());
    }

    /** One training pod with 12 QPs and nine pods with 2 each on port 1: bounded to 8 rows and the rest summed. */
    private static List<PortWorkload> workloads() {
        List<PortWorkload> all = new ArrayList<>();
        all.add(new PortWorkload(1, "ml", "train-llama-0", "worker", "python3", PortWorkload.PROCESS, null, 12));
        for (int i = 1; i <= 9; i++) {
            all.add(new PortWorkload(1, "batch", "job-" + i, "main", "ib_write_bw", PortWorkload.PROCESS, null, 2));
        }
        return PortWorkload.bounded(all);
    }

    @Test
    void theMetricsCarryEachPortsWorkloadsBoundedAndTheNodeDetailListsThemPerPort() throws Exception {
        List<String> infos = get("/metrics").body().lines()
                .filter(l -> l.startsWith("rdma_port_workload_info{")).toList();
        assertEquals(PortWorkload.MAX_ROWS_PER_PORT, infos.size(), infos.toString());
        assertTrue(infos.contains("rdma_port_workload_info{attribution=\"process\",comm=\"python3\",container=\"worker\","
                + "device=\"rocep1s0f0\",namespace=\"ml\",node=\"gpu-07\",pod=\"train-llama-0\",port=\"1\",reason=\"\"} 1"),
                infos.toString());
        assertTrue(get("/metrics").body().contains("rdma_port_workload_qps{attribution=\"none\",comm=\"\",container=\"\","
                + "device=\"rocep1s0f0\",namespace=\"\",node=\"gpu-07\",pod=\"\",port=\"1\",reason=\""
                + PortWorkload.OTHER + "\"} 4"));

        JsonNode ports = detailDevice(1).get("ports");
        JsonNode workloads = ports.get(0).get("workloads");
        assertEquals(PortWorkload.MAX_ROWS_PER_PORT, workloads.size(), workloads.toString());
        assertEquals("{\"namespace\":\"ml\",\"pod\":\"train-llama-0\",\"container\":\"worker\",\"comm\":\"python3\","
                + "\"attribution\":\"process\",\"reason\":null,\"qps\":12}", workloads.get(0).toString());
        assertEquals(PortWorkload.OTHER, workloads.get(PortWorkload.TOP_PER_PORT).get("reason").asText());
        assertTrue(detailDevice(0).get("ports").get(0).get("workloads").isNull(), "resources not read: no list");
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + collector.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
