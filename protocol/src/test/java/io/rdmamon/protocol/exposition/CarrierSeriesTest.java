package io.rdmamon.protocol.exposition;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The netdev carrier counters as {@code rdma_port_carrier*_changes_total}; absent counters are absent series. */
class CarrierSeriesTest {

    @Test
    void eachCarrierCounterIsACounterSeriesOfItsPortAndAnAbsentOneIsMissing() throws IOException {
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("carrier_changes", 13L);
        counters.put("carrier_up_count", null);
        counters.put("carrier_down_count", 7L);
        String text = render(port(2, counters));

        assertTrue(text.contains("# TYPE rdma_port_carrier_changes_total counter\n"), text);
        assertTrue(text.contains("rdma_port_carrier_changes_total{device=\"rocep65s0f1\",node=\"h9\",port=\"2\"} 13.0\n"), text);
        assertTrue(text.contains("rdma_port_carrier_down_changes_total{device=\"rocep65s0f1\",node=\"h9\",port=\"2\"} 7.0\n"), text);
        assertFalse(text.contains("rdma_port_carrier_up_changes_total{"), text);
    }

    @Test
    void aPortWithoutNetdevCountersHasNoCarrierSeries() throws IOException {
        String text = render(port(1, Map.of()));

        assertFalse(text.contains("carrier"), text);
        assertEquals(1, text.lines().filter(l -> l.startsWith("rdma_port_state_id{")).count());
    }

    private static IbPort port(int number, Map<String, Long> netdevCounters) {
        return IbPort.builder().port(number).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("Ethernet").netdev("ens9f1np1").netdevCounters(netdevCounters).build();
    }

    private static String render(IbPort port) throws IOException {
        HostSample sample = new HostSample("h9", 1000, List.of(new IbDevice("rocep65s0f1", 1, "CA", null, null, "x",
                null, null, List.of(port))), List.of());
        ExpositionAssembler assembler = new ExpositionAssembler();
        assembler.add(new NodeRenderer().render("h9", sample));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assembler.write(out, ExpositionFormat.PROMETHEUS_TEXT);
        return out.toString(StandardCharsets.UTF_8);
    }
}
