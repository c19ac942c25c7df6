package io.rdmamon.collector.http;

import io.rdmamon.collector.changes.Change;
import io.rdmamon.collector.changes.ChangeKind;
import io.rdmamon.collector.changes.ChangeLog;
import io.rdmamon.collector.changes.ChangeSeverity;
import io.rdmamon.collector.web.ApiAnswer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code GET /api/events}: filters, order, links, and a 400 for each parameter that does not parse. */
class TimelineApiTest {
    private final ChangeLog log = new ChangeLog();
    private final TimelineApi api = new TimelineApi(log);

    TimelineApiTest() {
        log.record(new Change(1000, "gpu-01", "mlx5_0", 1, ChangeKind.LINK_FLAP, ChangeSeverity.WARNING, "1 flap(s)"));
        log.record(new Change(2000, "gpu-02", "mlx5 0", 1, ChangeKind.MODULE_SWAPPED, ChangeSeverity.INFO, "swapped"));
        log.record(new Change(3000, "gpu-01", null, 0, ChangeKind.AGENT_RESTART, ChangeSeverity.INFO, "restarted"));
        log.record(new Change(4000, "gpu-01", "mlx5_0", 1, ChangeKind.DIAGNOSIS_RAISED, ChangeSeverity.CRITICAL,
                "pfc_storm raised"));
    }

    @Test
    void theWholeLogComesNewestFirstWithALinkToEachPortPage() {
        JsonArray events = events(api.list(null, null, null, null, null, null));
        assertEquals(List.of(4000L, 3000L, 2000L, 1000L), times(events));
        assertEquals(new JsonObject().put("id", 4).put("timeMillis", 4000).put("node", "gpu-01").put("device", "mlx5_0")
                .put("port", 1).put("kind", "diagnosis_raised").put("severity", "critical").put("text", "pfc_storm raised")
                .put("link", "/#/port/gpu-01/mlx5_0/1"), events.getJsonObject(0));
        assertEquals("/#/?q=gpu-01", events.getJsonObject(1).getString("link"), "a node-level change: the node");
        assertEquals("/#/port/gpu-02/mlx5%200/1", events.getJsonObject(2).getString("link"));
    }

    @ParameterizedTest(name = "node={0} kind={1} severity={2} since={3} after={4} limit={5}")
    @CsvSource(nullValues = "-", value = {
            "gpu-01, -,             -,        -,    -, -, 4000 3000 1000",
            "-,      link_flap,     -,        -,    -, -, 1000",
            "-,      -,             warning,  -,    -, -, 4000 1000",
            "-,      -,             critical, -,    -, -, 4000",
            "-,      -,             -,        2000, -, -, 4000 3000 2000",
            "-,      -,             -,        -,    2, -, 4000 3000",
            "-,      -,             -,        -,    -, 1, 4000",
            "gpu-09, -,             -,        -,    -, -, ''"})
    void filters(String node, String kind, String severity, String since, String after, String limit, String expected) {
        assertEquals(expected, String.join(" ", times(events(api.list(node, kind, severity, since, after, limit)))
                .stream().map(String::valueOf).toList()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(nullValues = "-", delimiter = '|', value = {
            "bad kind     | -        | flap | -     | -   | -    | -    | unknown kind 'flap'",
            "bad severity | -        | -    | fatal | -   | -    | -    | unknown severity 'fatal'; valid: info, warning, critical",
            "bad since    | -        | -    | -     | 1h  | -    | -    | since must be an integer in 0..9223372036854775807",
            "bad after    | -        | -    | -     | -   | -1   | -    | after must be an integer in 0..9223372036854775807",
            "zero limit   | -        | -    | -     | -   | -    | 0    | limit must be an integer in 1..2000",
            "huge limit   | -        | -    | -     | -   | -    | 2001 | limit must be an integer in 1..2000"})
    void aParameterThatDoesNotParseIsA400(String name, String node, String kind, String severity, String since,
                                          String after, String limit, String error) {
        ApiAnswer answer = api.list(node, kind, severity, since, after, limit);
        assertEquals(400, answer.status());
        assertEquals(error, new JsonObject(answer.json()).getString("error"));
    }

    @Test
    void anInvalidNodeNameIsA400() {
        assertEquals(400, api.list("a b", null, null, null, null, null).status());
    }

    private static JsonArray events(ApiAnswer answer) {
        assertEquals(200, answer.status(), answer.json());
        return new JsonObject(answer.json()).getJsonArray("events");
    }

    private static List<Long> times(JsonArray events) {
        return events.stream().map(e -> ((JsonObject) e).getLong("timeMillis")).toList();
    }
}
