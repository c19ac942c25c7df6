package io.rdmamon.protocol.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The per-port bound of workload rows: the top 8 by QPs, the rest summed into one row. */
class PortWorkloadTest {

    private static PortWorkload pod(int port, String name, int qps) {
        return new PortWorkload(port, "ml", name, "worker", "python3", PortWorkload.PROCESS, null, qps);
    }

    @Test
    void eachPortKeepsItsTopEightAndSumsTheRest() {
        List<PortWorkload> all = new ArrayList<>();
        for (int i = 1; i <= 11; i++) {
            all.add(pod(1, "p" + i, i));
        }
        all.add(pod(2, "q", 3));
        List<PortWorkload> bounded = PortWorkload.bounded(all);
        List<PortWorkload> expected = new ArrayList<>();
        for (int i = 11; i >= 4; i--) {
            expected.add(pod(1, "p" + i, i));
        }
        expected.add(new PortWorkload(1, null, null, null, null, PortWorkload.NONE, PortWorkload.OTHER, 1 + 2 + 3));
        expected.add(pod(2, "q", 3));
        assertEquals(expected, bounded);
    }

    @Test
    void rowsOfOneWorkloadAreMergedAndTiesKeepLabelOrder() {
        assertEquals(List.of(pod(1, "a", 4), pod(1, "b", 4)),
                PortWorkload.bounded(List.of(pod(1, "b", 4), pod(1, "a", 1), pod(1, "a", 3))));
    }

    @Test
    void evidenceNamesThePodElseTheProcessElseTheReason() {
        assertEquals("ml/train-0 (12 QPs)", pod(1, "train-0", 12).describe());
        assertEquals("[ib_core] (1 QP)",
                new PortWorkload(1, null, null, null, "[ib_core]", PortWorkload.NONE, "kernel QP", 1).describe());
        assertEquals("process exited (2 QPs)",
                new PortWorkload(1, null, null, null, null, PortWorkload.NONE, "process exited", 2).describe());
    }
}
