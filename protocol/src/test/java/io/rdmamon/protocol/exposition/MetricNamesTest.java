package io.rdmamon.protocol.exposition;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class MetricNamesTest {
    @Test
    void namesAsDesignSection5Gives() {
        String[][] table = {
                {"port_rcv_data", "rdma_port_data_received_bytes"},
                {"port_xmit_wait", "rdma_port_xmit_wait"},
                {"VL15_dropped", "rdma_port_vl15_dropped"},
                {"port_weird--name..x", "rdma_port_weird_name_x"},
                {"rx_total", "rdma_port_rx"},
                {"rx_created", "rdma_port_rx_created_value"},
                {"a b\u00e9c", "rdma_port_a_b_c"},
        };
        for (String[] row : table) {
            assertEquals(row[1], MetricNames.portCounter(row[0]), row[0]);
        }
        assertEquals("rdma_hw_np_cnp_sent", MetricNames.hwCounter("np_cnp_sent"));
        assertEquals("rdma_hw_out_of_buffer_bucket_value", MetricNames.hwCounter("out_of_buffer_bucket"));
    }

    @Test
    void counterFamiliesAreBuiltOncePerFileName() {
        Family family = MetricNames.hwCounterFamily("np_cnp_sent");
        assertSame(family, MetricNames.hwCounterFamily("np_cnp_sent"));
        assertEquals("rdma_hw_np_cnp_sent", family.name());
        assertEquals("sysfs counters/port_rcv_data x 4 (bytes), as read", MetricNames.portCounterFamily("port_rcv_data").help());
    }
}
