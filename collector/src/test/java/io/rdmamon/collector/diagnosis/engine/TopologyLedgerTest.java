package io.rdmamon.collector.diagnosis.engine;

import io.rdmamon.protocol.model.GpuTopology;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a node's GPUDirect RDMA history records between readings. */
class TopologyLedgerTest {
    private static final String ACS = "ACS P2P Request Redirect on bridge 0000:3a:00.0";
    private static final String PEERMEM = "no nvidia_peermem and no DMA-BUF";

    private static GpuTopology topology(GpuTopology.Pair... pairs) {
        return new GpuTopology(List.of(), List.of(), List.of(pairs), true, List.of());
    }

    private static GpuTopology.Pair pair(String gpu, String nic, String verdict, String... reasons) {
        return new GpuTopology.Pair(gpu, nic, "PIX", verdict, true, List.of(), List.of(reasons));
    }

    @Test
    void theFirstReadingIsTheBaselineAndAnUnchangedOneRecordsNothing() {
        TopologyLedger ledger = new TopologyLedger();
        ledger.observe(topology(pair("GPU0", "mlx5_0", "not_ready", PEERMEM)), 1000);
        ledger.observe(topology(pair("GPU0", "mlx5_0", "not_ready", PEERMEM)), 2000);
        ledger.observe(null, 3000);
        ledger.observe(null, 4000);

        assertEquals(List.of(new TopologyLedger.Change(3000, "GPU0", "mlx5_0", "not_ready", null, List.of(),
                List.of(PEERMEM))), ledger.changes(), "only the node's GPU topology going away");
    }

    @Test
    void aChangedVerdictOrReasonANewPairAndAVanishedOneAreEachAChange() {
        GpuTopology before = topology(pair("GPU0", "mlx5_0", "ready"), pair("GPU1", "mlx5_1", "degraded", ACS),
                pair("GPU2", "mlx5_2", "ready"));
        GpuTopology after = topology(pair("GPU0", "mlx5_0", "degraded", ACS), pair("GPU1", "mlx5_1", "degraded", ACS,
                PEERMEM), pair("GPU3", "mlx5_3", "ready"));

        assertEquals(List.of(
                new TopologyLedger.Change(5, "GPU0", "mlx5_0", "ready", "degraded", List.of(ACS), List.of()),
                new TopologyLedger.Change(5, "GPU1", "mlx5_1", "degraded", "degraded", List.of(PEERMEM), List.of()),
                new TopologyLedger.Change(5, "GPU3", "mlx5_3", null, "ready", List.of(), List.of()),
                new TopologyLedger.Change(5, "GPU2", "mlx5_2", "ready", null, List.of(), List.of())),
                TopologyLedger.changes(before, after, 5));
    }

    @Test
    void theLedgerKeepsTheNewestChangesOnly() {
        TopologyLedger ledger = new TopologyLedger();
        for (int i = 0; i <= TopologyLedger.MAX_CHANGES + 10; i++) {
            ledger.observe(topology(pair("GPU0", "mlx5_0", i % 2 == 0 ? "ready" : "degraded")), i);
        }
        List<TopologyLedger.Change> changes = ledger.changes();
        assertEquals(TopologyLedger.MAX_CHANGES, changes.size());
        assertEquals(TopologyLedger.MAX_CHANGES + 10, changes.get(changes.size() - 1).timestampMillis());
    }
}
