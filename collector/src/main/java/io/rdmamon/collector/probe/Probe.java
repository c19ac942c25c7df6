package io.rdmamon.collector.probe;

import io.rdmamon.protocol.probe.LatencyResult;
import io.rdmamon.protocol.probe.PerftestResult;
import io.rdmamon.protocol.probe.PerftestSpec;
import io.rdmamon.protocol.probe.PerftestTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One probe's record. Mutable, confined to the collector's event loop; {@link #json(long)} renders the
 * contract shape of docs/probes.md.
 */
final class Probe {
    final String id;
    final ProbeRequest request;
    final String requestedBy;
    final long createdMillis;
    final Double linkRateBitsPerSecond;
    final double passRatio;
    /** Where the client connects: the destination's RoCE v2 GID IPv4, or its agent's address. */
    final String serverAddress;
    /** The specs of a system probe's sides (the pingmesh's latency probes); null for an operator's probe. */
    final Map<Endpoint, PerftestSpec> systemSpecs;
    /** Told how a system probe ended; null for an operator's probe. */
    final Consumer<SystemProbeEnd> systemEnd;
    ProbeState state = ProbeState.QUEUED;
    int serverTcpPort;
    Long startedMillis;
    Long finishedMillis;
    PerftestResult result;
    LatencyResult latency;
    /** The failure was no failure of perftest: an agent refused a side or was gone ({@link SystemProbeEnd#refused}). */
    boolean refused;
    /** It outlived its timeout with a side still running ({@link SystemProbeEnd#timedOut}). */
    boolean timedOut;
    Double linkRatio;
    Boolean passed;
    String error;
    Integer exitCode;
    List<String> output = List.of();
    /** A side whose agent was sent a start and has not reported an end: it needs a cancel when the probe ends. */
    boolean serverLive;
    boolean clientLive;
    long readyTimer = -1;
    long hardTimer = -1;

    Probe(String id, ProbeRequest request, String requestedBy, long createdMillis, Double linkRateBitsPerSecond,
          double passRatio, String serverAddress) {
        this(id, request, requestedBy, createdMillis, linkRateBitsPerSecond, passRatio, serverAddress, null, null);
    }

    /** A system probe: {@code specs} per side, {@code end} told when it ends. */
    Probe(String id, ProbeRequest request, String requestedBy, long createdMillis, Double linkRateBitsPerSecond,
          double passRatio, String serverAddress, Map<Endpoint, PerftestSpec> specs, Consumer<SystemProbeEnd> end) {
        this.systemSpecs = specs;
        this.systemEnd = end;
        this.id = id;
        this.request = request;
        this.requestedBy = requestedBy;
        this.createdMillis = createdMillis;
        this.linkRateBitsPerSecond = linkRateBitsPerSecond;
        this.passRatio = passRatio;
        this.serverAddress = serverAddress;
    }

    boolean system() {
        return systemSpecs != null;
    }

    /** The perftest options of {@code side}. */
    PerftestSpec spec(Endpoint side) {
        return system() ? systemSpecs.get(side) : request.spec(side);
    }

    boolean uses(Endpoint port) {
        return request.source().equals(port) || request.destination().equals(port);
    }

    boolean involves(String node) {
        return request.source().node().equals(node) || request.destination().node().equals(node);
    }

    /** Share of the duration run so far: 0 before the client runs, 1 when done. */
    double progress(long nowMillis) {
        if (state == ProbeState.DONE) {
            return 1;
        }
        if (startedMillis == null) {
            return 0;
        }
        long until = finishedMillis == null ? nowMillis : finishedMillis;
        return Math.max(0, Math.min(1, (until - startedMillis) / (request.durationSeconds() * 1000.0)));
    }

    JsonObject json(long nowMillis) {
        Endpoint src = request.source();
        Endpoint dst = request.destination();
        JsonObject resultJson = null;
        if (result != null) {
            resultJson = new JsonObject().put("bandwidthBitsPerSecond", result.averageBitsPerSecond())
                    .put("peakBitsPerSecond", result.peakBitsPerSecond())
                    .put("messageRatePerSecond", result.messageRatePerSecond())
                    .put("sizeBytes", result.sizeBytes()).put("iterations", result.iterations())
                    .put("linkRatio", linkRatio).put("passed", passed);
        }
        return new JsonObject().put("id", id).put("state", state.jsonName()).put("terminal", state.terminal())
                .put("step", state.step())
                .put("source", new JsonObject().put("node", src.node()).put("device", src.device()).put("port", src.port()))
                .put("destination", new JsonObject().put("node", dst.node()).put("device", dst.device())
                        .put("port", dst.port()).put("address", serverAddress)
                        .put("tcpPort", serverTcpPort == 0 ? null : serverTcpPort))
                .put("sizeBytes", request.sizeBytes()).put("durationSeconds", request.durationSeconds())
                .put("qps", request.qps()).put("gidIndex", request.gidIndex())
                .put("bidirectional", request.bidirectional()).put("requestedBy", requestedBy)
                .put("createdMillis", createdMillis).put("startedMillis", startedMillis)
                .put("finishedMillis", finishedMillis).put("progress", progress(nowMillis))
                .put("linkRateBitsPerSecond", linkRateBitsPerSecond).put("passRatio", passRatio)
                .put("test", (system() ? PerftestTest.SEND_LAT : PerftestTest.WRITE_BW).wireName())
                .put("system", system())
                .put("latency", latency == null ? null : new JsonObject().put("sizeBytes", latency.sizeBytes())
                        .put("iterations", latency.iterations()).put("rttNanos", new JsonArray(latency.rttNanos()))
                        .put("untimed", latency.untimed()))
                .put("result", resultJson).put("error", error).put("exitCode", exitCode)
                .put("output", new JsonArray(output));
    }
}
