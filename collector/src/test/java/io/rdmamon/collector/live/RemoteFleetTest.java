package io.rdmamon.collector.live;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How a replica folds the other replicas' fleet updates into what its browsers see. */
class RemoteFleetTest {
    private final RemoteFleet fleet = new RemoteFleet("self");

    private static String row(String node, String replica) {
        return new JsonObject().put("node", node).put("replica", replica).put("ports", new JsonArray()).encode();
    }

    private static JsonObject message(String replica, boolean full, List<String> rows, List<String> removed) {
        return new JsonObject().put("replica", replica).put("full", full).put("rows", new JsonArray(rows))
                .put("removed", new JsonArray(removed));
    }

    @Test
    void anotherReplicasChangedRowsAreForwardedAsTheyCame() {
        fleet.apply(message("b", false, List.of(row("n1", "b"), row("n2", "b")), List.of()));
        RemoteFleet.Changes changes = fleet.drain();
        assertEquals(Map.of("n1", row("n1", "b"), "n2", row("n2", "b")), changes.rows());
        assertEquals(Set.of(), changes.removed());
        assertTrue(fleet.drain().isEmpty(), "drained once");
        assertEquals(Set.of("n1", "n2"), fleet.nodes());
        assertEquals(List.of(row("n1", "b")), List.copyOf(fleet.rows(Set.of("n2"))), "rows but those shown here");
    }

    @Test
    void ownPublicationsAreIgnoredAndMalformedOnesRefused() {
        fleet.apply(message("self", true, List.of(row("mine", "self")), List.of()));
        assertTrue(fleet.nodes().isEmpty());
        assertThrows(IllegalArgumentException.class, () -> fleet.apply(new JsonObject().put("rows", new JsonArray())));
        assertThrows(RuntimeException.class, () -> fleet.apply(message("b", false, List.of("{not json"), List.of())));
        assertTrue(fleet.nodes().isEmpty(), "a bad message changes nothing");
    }

    @Test
    void aFullUpdateDropsWhatTheReplicaNoLongerHolds() {
        fleet.apply(message("b", true, List.of(row("n1", "b"), row("n2", "b")), List.of()));
        fleet.drain();
        fleet.apply(message("b", true, List.of(row("n2", "b")), List.of()));
        RemoteFleet.Changes changes = fleet.drain();
        assertEquals(Set.of("n1"), changes.removed());
        assertEquals(Set.of("n2"), fleet.nodes());
    }

    @Test
    void aNodeMovingBetweenReplicasIsNeverRemovedFromTheView() {
        fleet.apply(message("b", false, List.of(row("mover", "b")), List.of()));
        fleet.drain();
        fleet.apply(message("c", false, List.of(row("mover", "c")), List.of()));
        fleet.apply(message("b", false, List.of(), List.of("mover")));
        RemoteFleet.Changes changes = fleet.drain();
        assertEquals(Set.of(), changes.removed(), "replica c shows it");
        assertEquals(Set.of("mover"), fleet.nodes());
    }

    @Test
    void aDepartedReplicasNodesAndDiagnosesGo() {
        fleet.apply(message("b", false, List.of(row("n1", "b")), List.of())
                .put("diagnoses", new JsonArray().add(new JsonObject().put("rule", "link_down").put("node", "n1"))));
        fleet.drain();
        long version = fleet.diagnosesVersion();
        assertEquals(1, fleet.diagnoses().size());
        fleet.replicaLeft("b");
        assertEquals(Set.of("n1"), fleet.drain().removed());
        assertTrue(fleet.diagnoses().isEmpty());
        assertTrue(fleet.diagnosesVersion() > version, "browsers get the shorter list");
    }
}
