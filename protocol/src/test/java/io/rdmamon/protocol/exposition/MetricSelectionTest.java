package io.rdmamon.protocol.exposition;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --metrics SPEC}: profiles, {@code +family} / {@code -family} items, globs and refusals. */
class MetricSelectionTest {

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            // spec                                  | family                                  | included
            "full                                    | rdma_gid_info                           | true",
            "full                                    | rdma_hw_anything_total                  | true",
            "full,-rdma_gid_info                     | rdma_gid_info                           | false",
            "full,-rdma_gid_info                     | rdma_port_info                          | true",
            "standard                                | rdma_gid_info                           | true",
            "standard                                | rdma_prio_bytes_total                   | true",
            "standard                                | rdma_qos_tc_bandwidth_percent           | false",
            "standard                                | rdma_module_tx_bias_amperes             | false",
            "standard                                | rdma_hw_rp_cnp_handled_total            | true",
            "standard                                | rdma_hw_req_cqe_error_total             | false",
            "standard                                | rdma_hw_hw_rx_pps_limit_drop_cnt_total  | true",
            "standard                                | rdmamon_collector_nodes                 | true",
            "standard,-rdma_gid_info                 | rdma_gid_info                           | false",
            "standard,+rdma_module_tx_bias_amperes   | rdma_module_tx_bias_amperes             | true",
            "minimal                                 | rdma_port_data_received_bytes_total     | true",
            "minimal                                 | rdma_prio_bytes_total                   | true",
            "minimal                                 | rdma_prio_packets_total                 | false",
            "minimal                                 | rdma_port_symbol_error_total            | true",
            "minimal                                 | rdma_hw_out_of_sequence_total           | true",
            "minimal                                 | rdma_port_state_id                      | true",
            "minimal                                 | rdma_port_info                          | true",
            "minimal                                 | rdma_agent_up                           | true",
            "minimal                                 | rdma_diagnosis_active                   | true",
            "minimal                                 | rdma_gid_info                           | false",
            "minimal                                 | rdma_probe_success                      | false",
            "minimal                                 | rdmamon_collector_samples_ingested_total| true",
            "minimal,+rdma_hw_*                      | rdma_hw_np_cnp_sent_total               | true",
            "minimal,+rdma_hw_*                      | rdma_hw_out_of_sequence_total           | true",
            "full,-rdma_hw_*                         | rdma_hw_out_of_sequence_total           | false",
            "full,-rdma_hw_*                         | rdma_port_xmit_wait_total               | true",
            "full,-rdma_hw_*,+rdma_hw_np_*           | rdma_hw_np_cnp_sent_total               | true",
            "full,-rdma_hw_*,+rdma_hw_np_*           | rdma_hw_rp_cnp_handled_total            | false",
            "full,-rdma_module_*                     | rdma_module_info                        | false",
            "full,-rdma_module_*                     | rdma_port_info                          | true",
            "' standard , -rdma_gid_info '           | rdma_gid_info                           | false",
            "''                                      | rdma_gid_info                           | true",
            // the process's own families (docs/metrics.md "Process health")
            "minimal                                 | process_resident_memory_bytes           | true",
            "minimal                                 | rdmamon_build_info                      | true",
            "minimal                                 | jvm_memory_used_bytes                   | false",
            "minimal                                 | vertx_http_server_requests_total        | false",
            "standard                                | jvm_memory_used_bytes                   | true",
            "standard                                | jvm_buffer_count_buffers                | false",
            "minimal,+jvm_*                          | jvm_buffer_count_buffers                | true",
            "full,-vertx_*                           | vertx_pool_queue_pending                | false",
    })
    void decides(String spec, String family, boolean included) {
        assertEquals(included, MetricSelection.parse(spec).includes(family));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "everything          | unknown metrics profile 'everything' (known: full, standard, minimal",
            "Standard            | unknown metrics profile 'Standard'",
            "standard,rdma_gid_info | must be +family or -family",
            "standard,-          | must be +family or -family",
            "standard,-rdma_gid  | unknown metric family 'rdma_gid' (docs/metrics.md); known: jvm_gc_pause_seconds",
            "standard,-rdma_prio_bytes | unknown metric family 'rdma_prio_bytes'",
            "standard,+rdma_hw_x | unknown metric family 'rdma_hw_x'",
            "standard,+node_*    | unknown metric family 'node_*'",
            "standard,-rdma_gid_info.* | a family name is [a-z0-9_]",
            "standard,,          | must be +family or -family",
    })
    void refuses(String spec, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MetricSelection.parse(spec));
        assertTrue(e.getMessage().startsWith(message) || e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void theUnknownFamilyMessageListsTheKnownOnes() {
        String message = assertThrows(IllegalArgumentException.class,
                () -> MetricSelection.parse("full,-rdma_gids_info")).getMessage();
        for (String family : Set.of("rdma_gid_info", "rdma_prio_bytes_total", "rdma_diagnosis_active",
                "rdmamon_collector_nodes", "rdma_hw_<counter>_total")) {
            assertTrue(message.contains(family), message);
        }
    }

    @Test
    void profilesNestAndNameOnlyKnownFamilies() {
        Set<String> minimal = MetricSelection.families(MetricSelection.Profile.MINIMAL);
        Set<String> standard = MetricSelection.families(MetricSelection.Profile.STANDARD);
        assertTrue(standard.containsAll(minimal));
        for (String family : standard) {
            // each is a fixed family or a counter file's: parse refuses anything else
            MetricSelection.parse("minimal,+" + family);
        }
    }

    @Test
    void theSpecReadsBackCanonicalAndFullIsTheDefault() {
        assertEquals("standard,-rdma_gid_info,+rdma_hw_*",
                MetricSelection.parse(" standard, -rdma_gid_info ,+rdma_hw_*").toString());
        assertSame(MetricSelection.FULL, MetricSelection.parse(null));
        assertTrue(MetricSelection.parse("full").isFull());
        assertEquals(MetricSelection.parse("minimal"), MetricSelection.parse("minimal"));
    }

    @Test
    void theRegistryIsAskedWithoutTheSuffix() {
        MetricSelection minimal = MetricSelection.parse("minimal,-rdmamon_collector_nodes_expired_total");
        assertTrue(minimal.includesRegistryName("rdmamon_collector_frames_received"));
        assertTrue(minimal.includesRegistryName("rdmamon_collector_replica"));
        assertEquals(false, minimal.includesRegistryName("rdmamon_collector_nodes_expired"));
    }

    @Test
    void theRendererAndTheAssemblerSkipWhatIsNotSelected() throws IOException {
        IbPort port = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .linkLayer("Ethernet").netdev("eth1")
                .counters(Map.of("port_rcv_data", 10L, "symbol_error", 1L, "port_xmit_wait", 5L))
                .hwCounters(Map.of("out_of_sequence", 2L, "np_cnp_sent", 3L))
                .netdevCounters(Map.of("carrier_changes", 4L)).build();
        HostSample sample = new HostSample("h1", 1000, List.of(new IbDevice("mlx5_0", 1, "CA", null, null, "x",
                null, null, List.of(port))), List.of());
        String full = render(MetricSelection.FULL, sample);
        String minimal = render(MetricSelection.parse("minimal"), sample);
        String custom = render(MetricSelection.parse("minimal,-rdma_agent_up,+rdma_hw_*"), sample);
        for (String family : List.of("rdma_port_xmit_wait_total", "rdma_hw_np_cnp_sent_total",
                "rdma_port_carrier_changes_total", "rdma_device_info")) {
            assertTrue(full.contains(family + "{"), family);
            assertFalse(minimal.contains(family), family + " in minimal:\n" + minimal);
        }
        for (String family : List.of("rdma_port_data_received_bytes_total", "rdma_port_symbol_error_total",
                "rdma_hw_out_of_sequence_total", "rdma_port_state_id", "rdma_port_info", "rdma_agent_up")) {
            assertTrue(minimal.contains("\n" + family + "{"), family + " missing from minimal:\n" + minimal);
        }
        assertFalse(custom.contains("rdma_agent_up"), custom);
        assertTrue(custom.contains("\nrdma_hw_np_cnp_sent_total{"), custom);
    }

    private static String render(MetricSelection selection, HostSample sample) throws IOException {
        ExpositionAssembler assembler = new ExpositionAssembler(selection);
        NodeRenderer renderer = new NodeRenderer(selection);
        assembler.add(renderer.render("h1", sample));
        ExpositionBytes up = new ExpositionBytes(64);
        renderer.agentUp(up, "h1", true);
        assembler.add(MetricFamilies.AGENT_UP, up);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assembler.write(out, ExpositionFormat.PROMETHEUS_TEXT);
        return out.toString(StandardCharsets.UTF_8);
    }
}
