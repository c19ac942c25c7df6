package io.rdmamon.collector.http;

import io.rdmamon.collector.changes.Change;
import io.rdmamon.collector.changes.ChangeKind;
import io.rdmamon.collector.changes.ChangeLog;
import io.rdmamon.collector.changes.ChangeSeverity;
import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.web.ApiAnswer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code GET /api/nodes/{node}/events} is a view of the fleet's change log: its {@code changes} are exactly what
 * {@code GET /api/events?node={node}} lists (order, shape, default limit), beside the flap and topology ledgers.
 */
class EventsApiChangesTest {
    private final NodeStore store = new NodeStore(System::currentTimeMillis, 3, 60_000, 10, 100);
    private final ChangeLog log = new ChangeLog();
    private final TimelineApi timeline = new TimelineApi(log);
    private final EventsApi events = new EventsApi(store,
            new DiagnosisEngine(DiagnosisConfig.defaults(), store, System::currentTimeMillis), timeline);

    EventsApiChangesTest() {
        store.connect("gpu-01", "1.0", 1000);
        store.connect("gpu-02", "1.0", 1000);
    }

    @Test
    void theNodesChangesAreTheTimelinesOfTheNodeAndNoOtherNodes() {
        log.record(new Change(1000, "gpu-01", "mlx5_0", 1, ChangeKind.LINK_FLAP, ChangeSeverity.WARNING, "1 flap(s)"));
        log.record(new Change(2000, "gpu-02", "mlx5_0", 1, ChangeKind.MODULE_SWAPPED, ChangeSeverity.INFO, "swapped"));
        log.record(new Change(3000, "gpu-01", null, 0, ChangeKind.AGENT_RESTART, ChangeSeverity.INFO, "restarted"));

        JsonObject node = body(events.events("gpu-01"));
        JsonArray changes = node.getJsonArray("changes");

        assertEquals(body(timeline.list("gpu-01", null, null, null, null, null)).getJsonArray("events"), changes);
        assertEquals(List.of(3000L, 1000L), changes.stream().map(c -> ((JsonObject) c).getLong("timeMillis")).toList());
        assertEquals("/#/port/gpu-01/mlx5_0/1", changes.getJsonObject(1).getString("link"));
        // the ledgers keep their documented shape
        assertEquals(new JsonArray(), node.getJsonArray("ports"));
        assertEquals(new JsonArray(), node.getJsonArray("topology"));
        assertEquals(List.of(2000L), body(events.events("gpu-02")).getJsonArray("changes").stream()
                .map(c -> ((JsonObject) c).getLong("timeMillis")).toList());
    }

    @Test
    void theDefaultLimitIsTheTimelines() {
        for (int i = 0; i <= TimelineApi.DEFAULT_LIMIT; i++) {
            log.record(new Change(i, "gpu-01", "mlx5_0", 1, ChangeKind.LINK_FLAP, ChangeSeverity.WARNING, "flap " + i));
        }
        JsonArray changes = body(events.events("gpu-01")).getJsonArray("changes");
        assertEquals(TimelineApi.DEFAULT_LIMIT, changes.size());
        assertEquals(body(timeline.list("gpu-01", null, null, null, null, null)).getJsonArray("events"), changes);
    }

    private static JsonObject body(ApiAnswer answer) {
        assertEquals(200, answer.status(), answer.json());
        return new JsonObject(answer.json());
    }
}
