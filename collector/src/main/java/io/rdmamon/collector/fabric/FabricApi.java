package io.rdmamon.collector.fabric;

import io.rdmamon.collector.web.ApiAnswer;
import io.rdmamon.collector.web.Routes;
import io.rdmamon.protocol.fabric.FabricLink;
import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricPort;
import io.rdmamon.protocol.fabric.LinkSpeed;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/**
 * {@code GET /api/fabric} (every fabric, or {@code ?subnet=}: its sweepers, nodes with their level and ports, links
 * with their verdicts, and the verdicts with their evidence) and {@code GET /api/fabric/link?subnet=&guid=&port=}
 * (both ends' counters over the last sweeps), docs/collector.md. Answered on a worker: a 40,000-port fabric is tens
 * of megabytes of JSON. 400 for a malformed parameter, 404 for an unknown fabric or link.
 */
public final class FabricApi implements Routes {
    public static final String PATH = "/api/fabric";
    private static final Pattern GUID = Pattern.compile("0x[0-9a-f]{16}");
    /** A subnet name: the prefix, a slash, the SM ({@link FabricStore#subnetOf}). */
    private static final Pattern SUBNET = Pattern.compile("0x[0-9a-f]{1,16}/(0x[0-9a-f]{16}|lid[0-9]{1,5}|no-sm)");

    private final Vertx vertx;
    private final FabricStore store;

    public FabricApi(Vertx vertx, FabricStore store) {
        this.vertx = vertx;
        this.store = store;
    }

    @Override
    public void mount(Router router) {
        router.get(PATH).handler(ctx -> answer(ctx, () -> fabrics(ctx.queryParams())));
        router.get(PATH + "/link").handler(ctx -> answer(ctx, () -> link(ctx.queryParams())));
    }

    private void answer(RoutingContext ctx, Callable<ApiAnswer> build) {
        vertx.executeBlocking(build, false).onComplete(done -> {
            if (done.succeeded()) {
                done.result().send(ctx);
            } else {
                ctx.fail(done.cause()); // the router's 500: logged, no exception text to the client
            }
        });
    }

    /** Every fabric, or the one {@code subnet} names. */
    ApiAnswer fabrics(MultiMap params) {
        String subnet = params.get("subnet");
        if (subnet != null && !SUBNET.matcher(subnet).matches()) {
            return ApiAnswer.error(400, "subnet: expected a fabric name like 0xfe80000000000000/0x0002c90300a1b2c3 "
                    + "(GET /api/fabric lists them)");
        }
        JsonArray fabrics = new JsonArray();
        for (FabricState fabric : store.fabrics()) {
            if (subnet == null || fabric.subnet().equals(subnet)) {
                fabrics.add(json(fabric));
            }
        }
        if (subnet != null && fabrics.isEmpty()) {
            return ApiAnswer.error(404, "subnet: unknown fabric '" + subnet + "'");
        }
        return ApiAnswer.ok(new JsonObject().put("fabrics", fabrics).encode());
    }

    /** One link's counters over time, named by one of its ends. */
    ApiAnswer link(MultiMap params) {
        String subnet = params.get("subnet");
        String guid = params.get("guid");
        String port = params.get("port");
        if (subnet == null || !SUBNET.matcher(subnet).matches()) {
            return ApiAnswer.error(400, "subnet: required, a fabric name like 0xfe80000000000000/0x0002c90300a1b2c3");
        }
        if (guid == null || !GUID.matcher(guid).matches()) {
            return ApiAnswer.error(400, "guid: required, a node GUID like 0x0002c90300a1b2c3");
        }
        int number;
        try {
            number = Integer.parseInt(port == null ? "" : port);
        } catch (NumberFormatException e) {
            return ApiAnswer.error(400, "port: required, a port number 0.." + FabricPort.MAX_PORT);
        }
        if (number < 0 || number > FabricPort.MAX_PORT) {
            return ApiAnswer.error(400, "port: " + number + " is outside 0.." + FabricPort.MAX_PORT);
        }
        return store.history(subnet, guid, number).map(h -> ApiAnswer.ok(json(h).encode()))
                .orElseGet(() -> ApiAnswer.error(404, "no link at " + guid + " port " + number + " in fabric "
                        + subnet));
    }

    static JsonObject json(FabricStore.LinkHistory history) {
        JsonObject ends = new JsonObject();
        history.series().forEach((end, counters) -> {
            JsonObject series = new JsonObject();
            counters.forEach((name, values) -> {
                JsonArray array = new JsonArray();
                values.forEach(v -> array.add(v == null ? null : unsigned(v)));
                series.put(name, array);
            });
            ends.put(end, series);
        });
        return new JsonObject().put("subnet", history.subnet()).put("link", link(history.link()))
                .put("times", new JsonArray(history.times())).put("ends", ends);
    }

    static JsonObject json(FabricState fabric) {
        Map<String, Integer> tiers = FabricTiers.of(fabric.sweep());
        Map<String, List<String>> verdictsByLink = new HashMap<>();
        JsonArray verdicts = new JsonArray();
        for (FabricVerdict v : fabric.verdicts()) {
            verdictsByLink.computeIfAbsent(v.link().id(), k -> new ArrayList<>()).add(v.rule().id());
            JsonObject values = new JsonObject();
            v.values().forEach(values::put);
            verdicts.add(new JsonObject().put("rule", v.rule().id()).put("severity", v.severity().id())
                    .put("link", link(v.link())).put("evidence", v.evidence()).put("values", values)
                    .put("sinceMillis", v.sinceMillis()).put("lastMillis", v.lastMillis())
                    .put("runbook", v.rule().runbookUrl()));
        }
        JsonArray sweepers = new JsonArray();
        fabric.sweepers().forEach(s -> sweepers.add(new JsonObject().put("sweeper", s.sweeper())
                .put("connected", s.connected()).put("receivedMillis", s.receivedMillis())
                .put("durationMillis", s.durationMillis()).put("success", s.success())
                .put("problems", new JsonArray(s.problems()))));
        JsonArray nodes = new JsonArray();
        for (FabricNode node : fabric.sweep().nodes()) {
            JsonArray ports = new JsonArray();
            node.ports().forEach(p -> ports.add(port(p)));
            nodes.add(new JsonObject().put("guid", node.guid()).put("type", node.type().name())
                    .put("description", node.description()).put("tier", tiers.get(node.guid())).put("ports", ports));
        }
        JsonArray links = new JsonArray();
        for (FabricLink link : fabric.sweep().links()) {
            LinkEnds ends = LinkEnds.of(link);
            FabricPort a = link.a().port();
            FabricPort b = link.b().port();
            links.add(link(ends).put("up", a.up() && b.up())
                    .put("width", a.width() == null || b.width() == null ? null : Math.min(a.width(), b.width()))
                    .put("speed", a.speed() == null || b.speed() == null ? null
                            : (a.speed().ordinal() <= b.speed().ordinal() ? a.speed() : b.speed()).name())
                    .put("verdicts", new JsonArray(verdictsByLink.getOrDefault(ends.id(), List.of()))));
        }
        return new JsonObject().put("subnet", fabric.subnet()).put("subnetPrefix", fabric.sweep().subnetPrefix())
                .put("smLid", fabric.sweep().smLid()).put("smGuid", fabric.sweep().smGuid())
                .put("stale", fabric.stale()).put("lastSweepMillis", fabric.lastSweepMillis())
                .put("sweepStartedMillis", fabric.sweep().timeMillis()).put("sweepers", sweepers).put("nodes", nodes)
                .put("links", links).put("verdicts", verdicts);
    }

    private static JsonObject link(LinkEnds link) {
        return new JsonObject().put("id", link.id()).put("a", end(link.a())).put("b", end(link.b()));
    }

    private static JsonObject end(LinkEnds.End end) {
        return new JsonObject().put("guid", end.guid()).put("type", end.type().name())
                .put("description", end.description()).put("port", end.port());
    }

    private static JsonObject port(FabricPort p) {
        JsonObject counters = new JsonObject();
        p.counters().forEach((name, value) -> counters.put(name, unsigned(value)));
        return new JsonObject().put("port", p.number()).put("lid", p.lid()).put("state", p.state())
                .put("physState", p.physState()).put("up", p.up()).put("width", p.width())
                .put("speed", p.speed() == null ? null : p.speed().name())
                .put("widthsSupported", new JsonArray(p.widthsSupported()))
                .put("speedsSupported", new JsonArray(p.speedsSupported().stream().map(LinkSpeed::name).toList()))
                .put("widthsEnabled", new JsonArray(p.widthsEnabled()))
                .put("speedsEnabled", new JsonArray(p.speedsEnabled().stream().map(LinkSpeed::name).toList()))
                .put("remoteGuid", p.remoteGuid()).put("remotePort", p.remotePort()).put("counters", counters);
    }

    /** A u64 counter: a negative long is above 2^63. */
    private static Number unsigned(long value) {
        return value >= 0 ? value : new BigInteger(Long.toUnsignedString(value));
    }
}
