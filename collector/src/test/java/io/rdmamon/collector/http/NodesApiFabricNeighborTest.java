package io.rdmamon.collector.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.collector.fabric.FabricStore;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.LldpNeighbor;
import io.rdmamon.protocol.testing.FabricSweeps;
import io.rdmamon.protocol.testing.Samples;
import io.rdmamon.protocol.wire.FabricWire;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code GET /api/nodes/{node}}: an InfiniBand host port names the switch port the fabric sweep found it cabled to
 * ({@code fabricNeighbor}, what the port page shows), as an Ethernet port names its LLDP neighbour; a port the agent's
 * LLDP already names, or one no fabric holds, has none.
 */
@ExtendWith(VertxExtension.class)
class NodesApiFabricNeighborTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aHostPortInTheFabricNamesItsSwitchPortAndAPortWithLldpKeepsItsOwn(Vertx vertx) throws Exception {
        FabricSweep sweep = FabricSweeps.leafAndTwoHosts("s1");
        FabricStore fabrics = new FabricStore(System::currentTimeMillis);
        FabricWire.parts(sweep, 2).forEach(part -> fabrics.accept(sweep.sweeper(), part));
        NodeStore nodes = new NodeStore(System::currentTimeMillis, 3, 60_000, 10, 100);
        nodes.connect("gpu-02", "1.0", 1000);
        // h2 of the fabric (node GUID 0x0000000000100002) in sysfs spelling; h1 reports an LLDP neighbour of its own
        IbDevice h2 = new IbDevice("mlx5_0", IbDevice.NODE_TYPE_CA, "CA", "0000:0000:0010:0002", null, null, null, null,
                List.of(Samples.unreadablePort(1)));
        IbDevice h1 = new IbDevice("mlx5_1", IbDevice.NODE_TYPE_CA, "CA", "0000:0000:0010:0000", null, null, null, null,
                List.of(Samples.unreadablePort(1).withNeighbor(new LldpNeighbor("1c:34:da:00:00:01", "mac", "tor-7",
                        "Ethernet12", "ifname", null))));
        nodes.accept(new HostSample("gpu-02", System.currentTimeMillis(), List.of(h2, h1), List.of()));
        Router router = Router.router(vertx);
        new NodesApi(nodes, "r1", fabrics).mount(router);
        HttpServer server = await(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));

        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://127.0.0.1:" + server.actualPort() + "/api/nodes/gpu-02")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals(200, answer.statusCode(), answer.body());
        JsonNode devices = JSON.readTree(answer.body()).get("devices");
        JsonNode cabled = devices.get(0).get("ports").get(0).get("fabricNeighbor");
        assertEquals("0x0000000000200000", cabled.get("guid").asText(), answer.body());
        assertEquals("leaf1", cabled.get("description").asText());
        assertEquals(2, cabled.get("port").asInt());
        JsonNode lldp = devices.get(1).get("ports").get(0);
        assertTrue(lldp.get("fabricNeighbor").isNull(), "LLDP names it already: " + lldp);
        assertEquals("tor-7", lldp.get("neighbor").get("systemName").asText());
    }
}
