package io.rdmamon.protocol.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmamon.protocol.json.StrictJson;
import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.text.WireLimits;
import io.rdmamon.protocol.text.WireText;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The layout's optional host-wide {@code topology} (protocol 3): {@link GpuTopology} as
 * {@code {"endpoints": [{"name", "label", "kind", "address", "numaNode", "cpus", "relaxedOrdering"}],
 * "matrix": [["X", "PIX", ...], ...], "pairs": [{"gpu", "nic", "path", "verdict", "chosen", "acsRedirect": [...],
 * "reasons": [...]}], "peermem": true, "notes": [...]}}. Absent fields are left out. Bounded: at most
 * {@link #MAX_ENDPOINTS} endpoints, a square matrix of them, one pair per GPU and NIC, {@link #MAX_LINES} reasons
 * or notes each of at most {@link #MAX_CHARS} characters. The limits are public so that the agent bounds what it
 * sends by the same numbers the collector refuses a frame by.
 */
public final class TopologyWire {
    /** Most endpoints (GPUs and NICs) a topology lists. */
    public static final int MAX_ENDPOINTS = 64;
    /** Most notes a topology, or reasons a pair, lists. */
    public static final int MAX_LINES = WireLimits.MAX_LINES;
    /** Longest text (a name, an address, a CPU list, a note, a reason), in characters. */
    public static final int MAX_CHARS = WireLimits.MAX_LINE_CHARS;
    private static final Set<String> PAIR_PATHS = Set.of("PIX", "PXB", "PHB", "NODE", "SYS");

    private TopologyWire() {
    }

    static ObjectNode encode(GpuTopology topology) {
        ObjectNode json = FrameCodec.MAPPER.createObjectNode();
        ArrayNode endpoints = json.putArray("endpoints");
        for (GpuTopology.Endpoint e : topology.endpoints()) {
            ObjectNode o = endpoints.addObject().put("name", e.name()).put("label", e.label()).put("kind", e.kind())
                    .put("address", e.address());
            if (e.numaNode() != null) {
                o.put("numaNode", e.numaNode());
            }
            if (e.cpus() != null) {
                o.put("cpus", e.cpus());
            }
            if (e.relaxedOrdering() != null) {
                o.put("relaxedOrdering", e.relaxedOrdering());
            }
        }
        ArrayNode matrix = json.putArray("matrix");
        topology.matrix().forEach(row -> row.forEach(matrix.addArray()::add));
        ArrayNode pairs = json.putArray("pairs");
        for (GpuTopology.Pair p : topology.pairs()) {
            ObjectNode o = pairs.addObject().put("gpu", p.gpu()).put("nic", p.nic()).put("path", p.path())
                    .put("verdict", p.verdict()).put("chosen", p.chosen());
            p.acsRedirect().forEach(o.putArray("acsRedirect")::add);
            p.reasons().forEach(o.putArray("reasons")::add);
        }
        json.put("peermem", topology.peermem());
        topology.notes().forEach(json.putArray("notes")::add);
        return json;
    }

    static GpuTopology decode(StrictJson json) throws FrameException {
        List<StrictJson> endpointsJson = json.objects("endpoints");
        if (endpointsJson.size() > MAX_ENDPOINTS) {
            throw new FrameException(json.path("endpoints") + " lists " + endpointsJson.size() + " endpoints; at most "
                    + MAX_ENDPOINTS);
        }
        List<GpuTopology.Endpoint> endpoints = new ArrayList<>();
        List<String> gpus = new ArrayList<>();
        List<String> nics = new ArrayList<>();
        for (StrictJson e : endpointsJson) {
            String kind = e.string("kind");
            if (!kind.equals(GpuTopology.Endpoint.GPU) && !kind.equals(GpuTopology.Endpoint.NIC)) {
                throw new FrameException(e.path("kind") + ": expected \"gpu\" or \"nic\", got " + WireText.quote(kind));
            }
            Integer numa = e.optInteger("numaNode");
            if (numa != null && numa < 0) {
                throw new FrameException(e.path("numaNode") + ": negative");
            }
            GpuTopology.Endpoint endpoint = new GpuTopology.Endpoint(text(e, "name"), text(e, "label"), kind,
                    text(e, "address"), numa, e.has("cpus") ? text(e, "cpus") : null,
                    e.has("relaxedOrdering") ? e.bool("relaxedOrdering") : null);
            (kind.equals(GpuTopology.Endpoint.GPU) ? gpus : nics).add(endpoint.name());
            endpoints.add(endpoint);
        }
        JsonNode matrixJson = json.array("matrix");
        if (matrixJson.size() != endpoints.size()) {
            throw new FrameException(json.path("matrix") + ": " + matrixJson.size() + " rows for " + endpoints.size()
                    + " endpoints");
        }
        List<List<String>> matrix = new ArrayList<>();
        for (int i = 0; i < matrixJson.size(); i++) {
            JsonNode row = matrixJson.get(i);
            String at = json.path("matrix") + "[" + i + "]";
            if (!row.isArray() || row.size() != endpoints.size()) {
                throw new FrameException(at + ": expected " + endpoints.size() + " path classes");
            }
            List<String> cells = new ArrayList<>();
            for (JsonNode cell : row) {
                if (!cell.isTextual() || !GpuTopology.PATHS.contains(cell.asText())) {
                    throw new FrameException(at + ": expected one of " + GpuTopology.PATHS + ", got " + cell);
                }
                cells.add(cell.asText());
            }
            matrix.add(cells);
        }
        List<StrictJson> pairsJson = json.objects("pairs");
        if (pairsJson.size() > gpus.size() * nics.size()) {
            throw new FrameException(json.path("pairs") + " lists " + pairsJson.size() + " pairs for " + gpus.size()
                    + " GPUs and " + nics.size() + " NICs");
        }
        List<GpuTopology.Pair> pairs = new ArrayList<>();
        for (StrictJson p : pairsJson) {
            String gpu = p.string("gpu");
            String nic = p.string("nic");
            if (!gpus.contains(gpu) || !nics.contains(nic)) {
                throw new FrameException(p.path() + ": pair " + WireText.quote(gpu) + "/" + WireText.quote(nic)
                        + " names no listed GPU and NIC");
            }
            String path = p.string("path");
            if (!PAIR_PATHS.contains(path)) {
                throw new FrameException(p.path("path") + ": expected one of " + PAIR_PATHS + ", got "
                        + WireText.quote(path));
            }
            String verdict = p.string("verdict");
            if (!GpuTopology.VERDICTS.contains(verdict)) {
                throw new FrameException(p.path("verdict") + ": expected one of " + GpuTopology.VERDICTS + ", got "
                        + WireText.quote(verdict));
            }
            pairs.add(new GpuTopology.Pair(gpu, nic, path, verdict, p.bool("chosen"), lines(p, "acsRedirect"),
                    lines(p, "reasons")));
        }
        return new GpuTopology(endpoints, matrix, pairs, json.bool("peermem"), lines(json, "notes"));
    }

    private static String text(StrictJson json, String key) throws FrameException {
        String value = json.string(key);
        if (value.isEmpty() || value.length() > MAX_CHARS) {
            throw new FrameException(json.path(key) + ": empty or longer than " + MAX_CHARS + " characters");
        }
        return value;
    }

    private static List<String> lines(StrictJson json, String key) throws FrameException {
        if (!json.has(key)) {
            return List.of();
        }
        List<String> lines = json.strings(key);
        if (lines.size() > MAX_LINES) {
            throw new FrameException(json.path(key) + " lists " + lines.size() + " lines; at most " + MAX_LINES);
        }
        for (String line : lines) {
            if (line.length() > MAX_CHARS) {
                throw new FrameException(json.path(key) + ": a line longer than " + MAX_CHARS + " characters");
            }
        }
        return lines;
    }
}
