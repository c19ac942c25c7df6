package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.PortKey;
import io.rdmamon.collector.web.ApiAnswer;
import io.rdmamon.collector.web.JsonReplies;
import io.rdmamon.collector.web.Routes;
import io.rdmamon.protocol.model.Names;
import io.rdmamon.protocol.probe.PerftestSpec;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * {@code GET /api/pingmesh[?group=G]} (the matrix) and {@code GET /api/pingmesh/pair?srcNode=…} (one pair's history
 * and both ends' counters), viewer role like every GET of {@code /api/*}; shapes in docs/pingmesh.md "API". The
 * answers are built on a worker: at fleet scale the window holds hundreds of thousands of pairs.
 */
public final class PingmeshApi implements Routes {
    public static final String PATH = "/api/pingmesh";
    /** Ports listed group by group, as the dashboard draws them. */
    private static final Comparator<Listed> PORT_ORDER = Comparator.comparing(Listed::group)
            .thenComparing(p -> p.key().node()).thenComparing(p -> p.key().device()).thenComparingInt(p -> p.key().port());
    private final Vertx vertx;
    private final Pingmesh pingmesh;
    private final Supplier<JsonArray> verdicts;

    /** {@code verdicts}: the path verdicts ({@code "verdicts"} of the matrix); thread-safe. */
    public PingmeshApi(Vertx vertx, Pingmesh pingmesh, Supplier<JsonArray> verdicts) {
        this.vertx = vertx;
        this.pingmesh = pingmesh;
        this.verdicts = verdicts;
    }

    @Override
    public void mount(Router router) {
        router.get(PATH).handler(ctx -> answer(ctx, () -> matrix(ctx.queryParams().get("group"),
                System.currentTimeMillis())));
        router.get(PATH + "/pair").handler(ctx -> answer(ctx, () -> pair(ctx.queryParams(), System.currentTimeMillis())));
    }

    private void answer(RoutingContext ctx, java.util.concurrent.Callable<ApiAnswer> build) {
        vertx.executeBlocking(build, false).onComplete(done -> {
            if (done.succeeded()) {
                done.result().send(ctx);
            } else {
                JsonReplies.error(ctx, 500, String.valueOf(done.cause()));
            }
        });
    }

    /** A port of the matrix: one of the mesh now, or one gone from it whose probes are still in the window. */
    private record Listed(PortKey key, String group) {
    }

    /** The matrix; with {@code group}, the ports of that group (then the peers its cells reach) and those cells. */
    ApiAnswer matrix(String group, long nowMillis) {
        List<PairStats> stats = pingmesh.results().pairStats(nowMillis);
        Map<PingmeshResults.Pair, Long> lastProbe = pingmesh.results().lastProbeMillis(nowMillis);
        Pingmesh.Mesh mesh = pingmesh.mesh();
        Map<PortKey, Listed> ports = new LinkedHashMap<>();
        mesh.ports().forEach(p -> ports.put(p.key(), new Listed(p.key(), p.group())));
        for (PairStats s : stats) {
            ports.putIfAbsent(s.src(), new Listed(s.src(), s.srcGroup()));
            ports.putIfAbsent(s.dst(), new Listed(s.dst(), s.dstGroup()));
        }
        Map<String, Integer> groupSizes = new TreeMap<>();
        ports.values().forEach(p -> groupSizes.merge(p.group(), 1, Integer::sum));
        if (group != null && !groupSizes.containsKey(group)) {
            return ApiAnswer.error(404, "group: unknown group '" + group + "'");
        }
        List<PairStats> cells = group == null ? stats
                : stats.stream().filter(s -> s.srcGroup().equals(group) || s.dstGroup().equals(group)).toList();
        List<Listed> listed = new ArrayList<>(ports.values().stream()
                .filter(p -> group == null || p.group().equals(group)).sorted(PORT_ORDER).toList());
        if (group != null) {
            java.util.Set<Listed> peers = new java.util.TreeSet<>(PORT_ORDER);
            for (PairStats s : cells) {
                for (PortKey end : List.of(s.src(), s.dst())) {
                    Listed port = ports.get(end);
                    if (!port.group().equals(group)) {
                        peers.add(port);
                    }
                }
            }
            listed.addAll(peers);
        }
        Map<PortKey, Integer> index = new HashMap<>();
        Map<PortKey, PortState> states = PortState.of(stats);
        JsonArray portsJson = new JsonArray();
        for (Listed port : listed) {
            index.put(port.key(), index.size());
            portsJson.add(new JsonObject().put("node", port.key().node()).put("device", port.key().device())
                    .put("port", port.key().port()).put("group", port.group())
                    .put("state", states.getOrDefault(port.key(), PortState.UNPROBED).jsonName()));
        }
        JsonArray groupsJson = new JsonArray();
        groupSizes.forEach((name, count) -> groupsJson.add(new JsonObject().put("name", name)
                .put("source", mesh.groupSources().getOrDefault(name, PortGroups.Source.FLEET).jsonName())
                .put("ports", count)));
        PingmeshConfig config = pingmesh.config();
        String head = new JsonObject().put("enabled", config.enabled()).put("roundSeconds", config.roundSeconds())
                .put("windowSeconds", config.windowSeconds()).put("lossRttSeconds", config.lossRttSeconds())
                .put("groups", groupsJson).put("ports", portsJson).encode();
        // the cells are the bulk (a few hundred thousand at fleet scale): compact arrays, written by hand
        StringBuilder json = new StringBuilder(head.length() + cells.size() * 40 + 64);
        json.append(head, 0, head.length() - 1).append(",\"cells\":[");
        boolean first = true;
        for (PairStats s : cells) {
            Long last = lastProbe.get(new PingmeshResults.Pair(s.src(), s.dst()));
            json.append(first ? "[" : ",[").append(index.get(s.src())).append(',').append(index.get(s.dst()))
                    .append(',').append(s.sent()).append(',').append(s.lost()).append(',')
                    .append(seconds(s.p50Seconds())).append(',').append(seconds(s.p99Seconds())).append(',')
                    .append(last == null ? 0 : Math.max(0, (nowMillis - last) / 1000)).append(']');
            first = false;
        }
        json.append("],\"verdicts\":").append(verdicts.get().encode()).append('}');
        return ApiAnswer.ok(json.toString());
    }

    /** A round trip in seconds with 3 significant digits (microsecond resolution is all a round trip needs); null for none. */
    private static String seconds(double value) {
        return Double.isNaN(value) ? "null" : String.format(Locale.ROOT, "%.3g", value).replace("e-0", "e-");
    }

    /** One pair: both ports, the pair's history, and how the ends' path counters moved over the window. */
    ApiAnswer pair(MultiMap params, long nowMillis) {
        PortKey src;
        PortKey dst;
        try {
            src = port(params, "src");
            dst = port(params, "dst");
        } catch (IllegalArgumentException e) {
            return ApiAnswer.error(400, e.getMessage());
        }
        Map<PortKey, MeshPort> mesh = new HashMap<>();
        pingmesh.mesh().ports().forEach(p -> mesh.put(p.key(), p));
        List<ProbePoint> points = pingmesh.results().history(new PingmeshResults.Pair(src, dst));
        for (PortKey key : List.of(src, dst)) {
            if (!mesh.containsKey(key) && points.isEmpty()) {
                return ApiAnswer.error(404, "unknown port " + key + ": not in the pingmesh");
            }
        }
        JsonArray pointsJson = new JsonArray();
        for (ProbePoint point : points) {
            pointsJson.add(new JsonObject().put("timestampMillis", point.timestampMillis()).put("sent", point.sent())
                    .put("lost", point.lost()).put("p50Seconds", nanToNull(point.p50Seconds()))
                    .put("p99Seconds", nanToNull(point.p99Seconds())).put("failed", point.failed())
                    .put("timedOut", point.timedOut()).put("skipped", point.skipped()).put("error", point.error()));
        }
        JsonObject counters = new JsonObject().put("src", new JsonObject(new LinkedHashMap<>(pingmesh.counterDeltas(src))))
                .put("dst", new JsonObject(new LinkedHashMap<>(pingmesh.counterDeltas(dst))));
        return ApiAnswer.ok(new JsonObject().put("src", endpoint(src, mesh.get(src)))
                .put("dst", endpoint(dst, mesh.get(dst))).put("windowSeconds", pingmesh.config().windowSeconds())
                .put("points", pointsJson).put("counters", counters).encode());
    }

    private static JsonObject endpoint(PortKey key, MeshPort port) {
        return new JsonObject().put("node", key.node()).put("device", key.device()).put("port", key.port())
                .put("group", port == null ? null : port.group());
    }

    private static Double nanToNull(double value) {
        return Double.isNaN(value) ? null : value;
    }

    /** {@code srcNode}, {@code srcDevice}, {@code srcPort} (or {@code dst…}); the message names the parameter at fault. */
    private static PortKey port(MultiMap params, String end) {
        String node = required(params, end + "Node");
        if (!Names.isNodeName(node)) {
            throw new IllegalArgumentException(end + "Node: must be a node name (" + Names.nodeNameRule() + ")");
        }
        String device = required(params, end + "Device");
        if (!PerftestSpec.DEVICE_NAME.matcher(device).matches()) {
            throw new IllegalArgumentException(end + "Device: '" + device + "' is not an RDMA device name");
        }
        String portText = required(params, end + "Port");
        int port;
        try {
            port = Integer.parseInt(portText);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(end + "Port: '" + portText + "' is not a number");
        }
        if (port < 1 || port > 255) {
            throw new IllegalArgumentException(end + "Port: " + port + " is outside 1..255");
        }
        return new PortKey(node, device, port);
    }

    private static String required(MultiMap params, String name) {
        String value = params.get(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(name + ": required");
        }
        return value;
    }
}
