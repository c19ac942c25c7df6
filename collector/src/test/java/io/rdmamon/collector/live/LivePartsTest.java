package io.rdmamon.collector.live;

import io.rdmamon.collector.model.PortKey;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.testing.Samples;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LivePartsTest {
    @Test
    void portKeysParseFromTheEndSoNodeNamesMayHoldSlashes() {
        assertEquals(new PortKey("gpu-1", "mlx5_0", 1), PortKey.parse("gpu-1/mlx5_0/1"));
        assertEquals(new PortKey("rack7/gpu-1", "erdma_0", 2), PortKey.parse("rack7/gpu-1/erdma_0/2"));
        for (String[] bad : new String[][]{
                {"gpu-1/mlx5_0", "watch 'gpu-1/mlx5_0' is not node/device/port"},
                {"/mlx5_0/1", "watch '/mlx5_0/1' is not node/device/port"},
                {"gpu-1//1", "watch 'gpu-1//1' is not node/device/port"},
                {"gpu-1/mlx5_0/", "watch 'gpu-1/mlx5_0/' is not node/device/port"},
                {"gpu-1/mlx5_0/one", "watch 'gpu-1/mlx5_0/one': port is not a number"},
                {"gpu-1/mlx5_0/0", "watch 'gpu-1/mlx5_0/0': port must be 1..255"}}) {
            assertEquals(bad[1], assertThrows(IllegalArgumentException.class, () -> PortKey.parse(bad[0])).getMessage());
        }
    }

    @Test
    void historyRingKeepsTheNewestPointsAndSlicesAfterATimestamp() {
        PortHistory history = new PortHistory(3, 2);
        for (int i = 1; i <= 5; i++) {
            history.append(i * 1000L, new float[]{i, -i});
        }
        assertEquals(3, history.size());
        assertEquals(5000L, history.lastTimestamp());
        PortHistory.Slice all = history.since(Long.MIN_VALUE);
        assertArrayEquals(new long[]{3000, 4000, 5000}, all.timestamps());
        assertArrayEquals(new float[]{3, 4, 5}, all.values()[0]);
        assertArrayEquals(new float[]{-3, -4, -5}, all.values()[1]);
        assertArrayEquals(new long[]{5000}, history.since(4000).timestamps());
        assertEquals(0, history.since(5000).size());
    }

    @Test
    void losslessShareIsTheTransmittedPriorityBytesOnPfcPriorities() {
        // prio 0 +100 B, prio 3 +300 B in one second
        IbPort before = port(Map.of("tx_prio0_bytes", 1000L, "tx_prio3_bytes", 5000L), Set.of(3));
        IbPort after = port(Map.of("tx_prio0_bytes", 1100L, "tx_prio3_bytes", 5300L), Set.of(3));
        assertEquals(0.75, FleetState.losslessShare(before, after, 1000), 1e-9);
        // RDMA on a priority without PFC (wrong-priority): nothing on the lossless one
        IbPort wrongAfter = port(Map.of("tx_prio0_bytes", 1400L, "tx_prio3_bytes", 5000L), Set.of(3));
        assertEquals(0.0, FleetState.losslessShare(before, wrongAfter, 1000), 1e-9);
        assertEquals(0.0, FleetState.losslessShare(port(Map.of("tx_prio0_bytes", 1000L), Set.of()),
                port(Map.of("tx_prio0_bytes", 2000L), Set.of()), 1000), 1e-9);
        assertNull(FleetState.losslessShare(before, before, 1000), "no traffic: no share");
        assertNull(FleetState.losslessShare(null, after, 1000), "first sample: no share");
        IbPort ib = Samples.ibPort().build();
        assertNull(FleetState.losslessShare(ib, ib, 1000), "no ethtool: no share");
    }

    /** A port whose netdev has {@code raw}, and PFC enabled on {@code pfc} (mlx5 then lists their pause counters). */
    private static IbPort port(Map<String, Long> raw, Set<Integer> pfc) {
        Map<String, Long> stats = new LinkedHashMap<>(raw);
        pfc.forEach(priority -> stats.put("rx_prio" + priority + "_pause", 0L));
        return Samples.rocePort().ethtool(stats).build();
    }
}
