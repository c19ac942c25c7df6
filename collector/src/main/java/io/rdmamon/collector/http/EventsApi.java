package io.rdmamon.collector.http;

import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.diagnosis.engine.TopologyLedger;
import io.rdmamon.collector.flaps.FlapLedger;
import io.rdmamon.collector.flaps.PortFlaps;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.web.ApiAnswer;
import io.rdmamon.collector.web.Routes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

import java.util.List;

/**
 * {@code GET /api/nodes/{node}/events}: the flap ledger of every port of the node (docs/collector.md): each sample
 * in which a link counter increased, with its time and the counters, oldest first; and the changes of the node's
 * GPUDirect RDMA verdicts ({@link TopologyLedger}); and {@code changes}, the node's slice of the fleet's change log
 * exactly as {@code GET /api/events?node={node}} answers it ({@link TimelineApi}: same query, newest first, same
 * default limit), so the per-node endpoint is a view of the fleet timeline. 404 for a node the store does not hold.
 */
public final class EventsApi implements Routes {
    private final NodeStore store;
    private final DiagnosisEngine engine;
    private final TimelineApi timeline;

    public EventsApi(NodeStore store, DiagnosisEngine engine, TimelineApi timeline) {
        this.store = store;
        this.engine = engine;
        this.timeline = timeline;
    }

    @Override
    public void mount(Router router) {
        router.get("/api/nodes/:node/events").handler(ctx -> events(ctx.pathParam("node")).send(ctx));
    }

    public ApiAnswer events(String node) {
        if (store.node(node).isEmpty()) {
            return ApiAnswer.error(404, "unknown node '" + node + "'");
        }
        JsonArray changes = timeline.events(TimelineApi.Query.parse(node, null, null, null, null, null));
        return ApiAnswer.ok(json(node, engine.flapLedger(node), engine.topologyLedger(node)).put("changes", changes)
                .encode());
    }

    static JsonObject json(String node, List<PortFlaps> ports, List<TopologyLedger.Change> topology) {
        JsonArray portsJson = new JsonArray();
        for (PortFlaps port : ports) {
            JsonArray events = new JsonArray();
            for (FlapLedger.Entry entry : port.entries()) {
                JsonArray changes = new JsonArray();
                for (FlapLedger.CounterChange change : entry.changes()) {
                    changes.add(new JsonObject().put("counter", change.counter()).put("from", change.from())
                            .put("to", change.to()).put("increase", change.increase()).put("saturated", change.saturated()));
                }
                events.add(new JsonObject().put("timestampMillis", entry.timestampMillis()).put("netdev", entry.netdev())
                        .put("flaps", entry.flaps()).put("changes", changes));
            }
            portsJson.add(new JsonObject().put("device", port.device()).put("port", port.port())
                    .put("saturatedCounters", new JsonArray(port.saturatedCounters().stream().sorted().toList()))
                    .put("events", events));
        }
        JsonArray topologyJson = new JsonArray();
        for (TopologyLedger.Change change : topology) {
            topologyJson.add(new JsonObject().put("timestampMillis", change.timestampMillis()).put("gpu", change.gpu())
                    .put("nic", change.nic()).put("from", change.from()).put("to", change.to())
                    .put("raised", new JsonArray(change.raised())).put("cleared", new JsonArray(change.cleared())));
        }
        return new JsonObject().put("node", node).put("ports", portsJson).put("topology", topologyJson);
    }
}
