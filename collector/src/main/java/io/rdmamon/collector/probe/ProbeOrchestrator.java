package io.rdmamon.collector.probe;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rdmamon.collector.ingest.AgentLinks;
import io.rdmamon.collector.ingest.AgentRegistry;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.GidAdvice;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PortTransport;
import io.rdmamon.protocol.probe.PerftestSpec;
import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.wire.Frame;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * Runs active probes between two agents (docs/probes.md "Flow"): {@code queued} → the destination agent
 * starts its perftest server → it reports {@code LISTENING} with the TCP port → {@code server-ready} → the
 * source agent runs the client against the server's address → {@code running} → the client's report ends
 * the probe {@code done} (link ratio, pass/fail) or {@code failed}; a {@code DELETE} makes it
 * {@code cancelled}. Whatever ends a probe cancels the sides still running. Timers: the server must
 * listen within {@link ProbeConfig#serverReadyTimeout()}, the whole probe must end within its duration
 * plus {@link ProbeConfig#timeoutMargin()}.
 *
 * <p>System probes ({@link #startSystem}: the pingmesh's latency probes, ids {@code pm-…}) share the flow and
 * the timers (one: the whole probe within its timeout), not the operator's limits: no cooldown, no concurrency
 * limit, no audit line, no {@code rdma_probe_*} series, no live event; {@link #list} leaves them out unless asked.
 * An operator's probe ignores the system probes when it checks whether its ports are free.
 *
 * <p>Confined to the collector verticle's event loop (REST handlers, agent frames and timers all run
 * there), so nothing here locks or blocks; only {@link ProbeOutcomes} is read from scrape workers.
 */
public final class ProbeOrchestrator implements AgentRegistry.Listener {
    private static final System.Logger LOG = System.getLogger(ProbeOrchestrator.class.getName());

    private final Vertx vertx;
    private final ProbeConfig config;
    private final ProbeNodes nodes;
    private final AgentLinks agents;
    private final ProbeOutcomes outcomes;
    private final ProbeAudit audit;
    private final Map<String, Probe> probes = new LinkedHashMap<>();
    /**
     * The system probes, apart: at fleet scale thousands run at once, and an operator's start, the pingmesh's
     * port check and the history must not walk them.
     */
    private final Map<String, Probe> systemProbes = new LinkedHashMap<>();
    /** The ids of the finished system probes, oldest first: those beyond the history size are dropped. */
    private final ArrayDeque<String> finishedSystem = new ArrayDeque<>();
    /** Unordered pair → when its last probe finished, for the cooldown. */
    private final Map<String, Long> pairFinished = new HashMap<>();
    private Consumer<JsonObject> onChange = json -> { };

    /** Refused starts are counted in {@code registry} and their audit lines throttled per {@code refusalLogWindow}. */
    public ProbeOrchestrator(Vertx vertx, ProbeConfig config, NodeStore store, AgentRegistry agents,
                             ProbeOutcomes outcomes, PrometheusRegistry registry, Duration refusalLogWindow) {
        this(vertx, config, ProbeNodes.of(store), agents, outcomes, registry, refusalLogWindow);
        agents.listener(this);
    }

    /**
     * Over any {@code nodes} and {@code agents} (in a cluster: every replica's); the caller hands the agents' probe
     * reports and disconnects to {@link #probeReport} and {@link #disconnected}.
     */
    public ProbeOrchestrator(Vertx vertx, ProbeConfig config, ProbeNodes nodes, AgentLinks agents,
                             ProbeOutcomes outcomes, PrometheusRegistry registry, Duration refusalLogWindow) {
        this.vertx = vertx;
        this.config = config;
        this.nodes = nodes;
        this.agents = agents;
        this.outcomes = outcomes;
        this.audit = new ProbeAudit(vertx, config.auditLog(), registry, refusalLogWindow);
    }

    /** Opens the audit log; fails naming the file when it cannot be opened. */
    public Future<Void> open() {
        return audit.open();
    }

    public Future<Void> close() {
        return audit.close();
    }

    /** Called with the probe JSON on every change of a probe (the live feed's {@code probe} event). */
    public void onChange(Consumer<JsonObject> listener) {
        onChange = listener;
    }

    /**
     * Validates {@code request} against the fleet and the limits and starts it.
     *
     * @return the new probe's JSON (state {@code queued})
     * @throws ProbeRefused with the status to answer; the refusal is audited
     */
    public JsonObject start(ProbeRequest request, Requester who) {
        Probe probe;
        try {
            probe = admit(request, who);
        } catch (ProbeRefused e) {
            audit.refused(e.status(), request, who, e.getMessage());
            throw e;
        }
        probes.put(probe.id, probe);
        trimHistory();
        audit.record("start", probe.id, request, who, "server address " + probe.serverAddress);
        probe.hardTimer = vertx.setTimer(request.durationSeconds() * 1000L + config.timeoutMargin().toMillis(),
                t -> timedOut(probe));
        probe.readyTimer = vertx.setTimer(config.serverReadyTimeout().toMillis(), t -> serverNotReady(probe));
        Endpoint dst = request.destination();
        probe.serverLive = agents.send(dst.node(), new Frame.ProbeStart(probe.id, ProbeRole.SERVER, probe.spec(dst),
                null, 0, sideTimeoutMillis(request) + config.serverReadyTimeout().toMillis()));
        JsonObject json = changed(probe);
        if (!probe.serverLive) {
            fail(probe, "agent of " + dst.node() + " (destination) is not connected", null);
        }
        return json;
    }

    /**
     * Starts a system probe (the pingmesh's): the destination's server first, then the source's client. The agents
     * must have announced {@link Frame.Hello#CAPABILITY_PINGMESH}; the GID index of each RoCE side is the one
     * {@link GidAdvice#ncclGid} recommends. {@code end} is told once how it ended (never synchronously from here).
     *
     * @return the probe's id ({@code pm-…})
     * @throws ProbeRefused when it cannot start (unknown node or port, agent not connected or not allowing the
     *                      pingmesh, no RoCE v2 GID with an IPv4 address); nothing is sent then
     */
    public String startSystem(LatencyProbe request, Consumer<SystemProbeEnd> end) {
        String capability = Frame.Hello.CAPABILITY_PINGMESH;
        Endpoint src = request.source();
        Endpoint dst = request.destination();
        IbDevice srcDevice = device(src, "source", capability);
        IbPort srcPort = port(srcDevice, src, "source");
        IbDevice dstDevice = device(dst, "destination", capability);
        IbPort dstPort = port(dstDevice, dst, "destination");
        String address = serverAddress(request.asRequest(), srcDevice, srcPort, dstDevice, dstPort);
        Map<Endpoint, PerftestSpec> specs = Map.of(src, request.spec(src, gidIndex(srcDevice, srcPort)),
                dst, request.spec(dst, gidIndex(dstDevice, dstPort)));
        Probe probe = new Probe(newId("pm-"), request.asRequest(), "system:pingmesh", System.currentTimeMillis(), null,
                config.passRatio(), address, specs, end);
        systemProbes.put(probe.id, probe);
        long timeout = request.timeout().toMillis();
        probe.hardTimer = vertx.setTimer(timeout, t -> timedOut(probe));
        probe.serverLive = agents.send(dst.node(), new Frame.ProbeStart(probe.id, ProbeRole.SERVER, probe.spec(dst),
                null, 0, timeout));
        if (!probe.serverLive) {
            probe.refused = true;
            // told on the next turn of the loop, as every other end
            vertx.runOnContext(v -> fail(probe, "agent of " + dst.node() + " (destination) is not connected", null));
        }
        return probe.id;
    }

    /** Whether {@code port} is in an operator's probe that has not ended (the pingmesh then leaves it alone). */
    public boolean inOperatorProbe(Endpoint port) {
        return probes.values().stream().anyMatch(p -> !p.state.terminal() && p.uses(port));
    }

    /** Audits a start refused before it reached {@link #start} (unreadable body, a viewer's token). */
    public void refused(Requester who, int status, String reason) {
        audit.refused(status, null, who, reason);
    }

    /**
     * Cancels probe {@code id}: state {@code cancelled}, {@code probe-cancel} to both agents.
     *
     * @throws ProbeRefused 404 for an unknown id, 409 when it already finished
     */
    public JsonObject cancel(String id, Requester who) {
        Probe probe = find(id);
        if (probe == null) {
            throw new ProbeRefused(404, "unknown probe '" + id + "'");
        }
        if (probe.state.terminal()) {
            throw new ProbeRefused(409, "probe " + id + " already finished (" + probe.state.jsonName() + ")");
        }
        audit.record("cancel", id, probe.request, who, "was " + probe.state.jsonName());
        finish(probe, ProbeState.CANCELLED, "cancelled by " + who.label());
        return probe.json(System.currentTimeMillis());
    }

    public Optional<JsonObject> get(String id) {
        return Optional.ofNullable(find(id)).map(p -> p.json(System.currentTimeMillis()));
    }

    /**
     * {@code {"probes": [newest first], "limits": {...}, "defaults": {...}, "steps": [...]}}: the defaults are
     * what a request without the field gets, the steps the state names of a probe that succeeds, in order.
     */
    public JsonObject list() {
        return list(false);
    }

    /** {@link #list()}, with the system probes too when {@code includeSystem} ({@code ?include=pingmesh}). */
    public JsonObject list(boolean includeSystem) {
        long now = System.currentTimeMillis();
        List<Probe> newestFirst = new ArrayList<>(probes.values());
        if (includeSystem) {
            newestFirst.addAll(systemProbes.values());
            newestFirst.sort(Comparator.comparingLong(p -> p.createdMillis));
        }
        java.util.Collections.reverse(newestFirst);
        JsonArray array = new JsonArray();
        newestFirst.forEach(p -> array.add(p.json(now)));
        return new JsonObject().put("probes", array).put("limits", new JsonObject()
                .put("maxConcurrent", config.maxConcurrent()).put("maxDurationSeconds", config.maxDurationSeconds())
                .put("cooldownSeconds", config.cooldown().toMillis() / 1000.0).put("passRatio", config.passRatio())
                .put("maxQps", PerftestSpec.MAX_QPS).put("maxSizeBytes", PerftestSpec.MAX_SIZE_BYTES))
                .put("defaults", new JsonObject().put("sizeBytes", ProbeRequest.DEFAULT_SIZE_BYTES)
                        .put("durationSeconds", ProbeRequest.DEFAULT_DURATION_SECONDS).put("qps", ProbeRequest.DEFAULT_QPS))
                .put("steps", new JsonArray(ProbeState.STEPS.stream().map(ProbeState::jsonName).toList()));
    }

    @Override
    public void probeReport(String node, Frame.ProbeReport report) {
        Probe probe = find(report.probeId());
        Endpoint side = probe == null ? null
                : report.role() == ProbeRole.SERVER ? probe.request.destination() : probe.request.source();
        if (side == null || !side.node().equals(node)) {
            LOG.log(System.Logger.Level.DEBUG, "ignoring a probe report from {0} for probe {1} ({2})", node,
                    report.probeId(), probe == null ? "unknown" : "not this node's side");
            return;
        }
        if (report.phase().terminal()) {
            if (report.role() == ProbeRole.SERVER) {
                probe.serverLive = false;
            } else {
                probe.clientLive = false;
            }
        }
        if (probe.state.terminal()) {
            return; // a side ending after the probe ended (the server after the client's result, a cancel's echo)
        }
        if (report.role() == ProbeRole.SERVER) {
            serverReport(probe, report);
        } else {
            clientReport(probe, report);
        }
    }

    @Override
    public void disconnected(String node) {
        List<Probe> all = new ArrayList<>(probes.values());
        all.addAll(systemProbes.values());
        for (Probe probe : all) {
            if (probe.state.terminal() || !probe.involves(node)) {
                continue;
            }
            boolean destination = probe.request.destination().node().equals(node);
            boolean source = probe.request.source().node().equals(node);
            if (destination) {
                probe.serverLive = false;
            }
            if (source) {
                probe.clientLive = false;
            }
            probe.refused = true;
            fail(probe, "agent of " + node + " (" + (destination && source ? "source and destination"
                    : destination ? "destination" : "source") + ") disconnected", null);
        }
    }

    private void serverReport(Probe probe, Frame.ProbeReport report) {
        switch (report.phase()) {
            case LISTENING -> {
                if (probe.state != ProbeState.QUEUED) {
                    return;
                }
                if (report.tcpPort() < 1 || report.tcpPort() > 65_535) {
                    fail(probe, "destination agent reported an invalid TCP port " + report.tcpPort(), null);
                    return;
                }
                vertx.cancelTimer(probe.readyTimer);
                probe.serverTcpPort = report.tcpPort();
                probe.state = ProbeState.SERVER_READY;
                changed(probe);
                Endpoint src = probe.request.source();
                probe.clientLive = agents.send(src.node(), new Frame.ProbeStart(probe.id, ProbeRole.CLIENT,
                        probe.spec(src), probe.serverAddress, probe.serverTcpPort, clientTimeoutMillis(probe)));
                if (!probe.clientLive) {
                    probe.refused = true;
                    fail(probe, "agent of " + src.node() + " (source) is not connected", null);
                }
            }
            case RUNNING -> {
                // the server accepted its client; the client's own report moves the probe to running
            }
            case DONE -> {
                // the server ends with its one client; the client's report carries the result
            }
            case FAILED, CANCELLED -> {
                probe.output = report.output();
                probe.refused = report.exitCode() == null;
                fail(probe, report.error() != null ? report.error()
                        : "destination agent " + report.phase().wireName() + " its perftest server", report.exitCode());
            }
        }
    }

    private void clientReport(Probe probe, Frame.ProbeReport report) {
        if (!report.output().isEmpty()) {
            probe.output = report.output();
        }
        switch (report.phase()) {
            case LISTENING -> LOG.log(System.Logger.Level.DEBUG, "probe {0}: a client cannot listen; ignored", probe.id);
            case RUNNING -> {
                if (probe.state == ProbeState.SERVER_READY) {
                    probe.state = ProbeState.RUNNING;
                    probe.startedMillis = System.currentTimeMillis();
                    changed(probe);
                }
            }
            case DONE -> {
                if (probe.system()) {
                    if (report.latency() == null) {
                        fail(probe, "source agent reported done without round trips", report.exitCode());
                        return;
                    }
                    probe.latency = report.latency();
                    probe.exitCode = report.exitCode();
                    finish(probe, ProbeState.DONE, "the client finished");
                    return;
                }
                if (report.result() == null) {
                    fail(probe, "source agent reported done without a result", report.exitCode());
                    return;
                }
                if (probe.startedMillis == null) {
                    probe.startedMillis = System.currentTimeMillis();
                }
                probe.result = report.result();
                probe.exitCode = report.exitCode();
                probe.linkRatio = probe.linkRateBitsPerSecond == null ? null
                        : report.result().averageBitsPerSecond() / probe.linkRateBitsPerSecond;
                probe.passed = probe.linkRatio != null && probe.linkRatio >= probe.passRatio;
                finish(probe, ProbeState.DONE, "the client finished");
            }
            case FAILED, CANCELLED -> {
                probe.refused = report.exitCode() == null;
                fail(probe, report.error() != null ? report.error()
                        : "source agent " + report.phase().wireName() + " its perftest client", report.exitCode());
            }
        }
    }

    private void serverNotReady(Probe probe) {
        if (probe.state == ProbeState.QUEUED) {
            fail(probe, "the destination agent (" + probe.request.destination().node() + ") did not report its "
                    + "perftest server listening within " + seconds(config.serverReadyTimeout().toMillis()), null);
        }
    }

    private void timedOut(Probe probe) {
        if (!probe.state.terminal()) {
            probe.timedOut = true;
            fail(probe, probe.system() ? "probe did not finish within " + seconds(probe.request.durationSeconds() * 1000L)
                    + " (" + (probe.serverTcpPort == 0 ? "the server never listened" : "the client never finished")
                    + ")" : "probe did not finish within its duration plus "
                    + seconds(config.timeoutMargin().toMillis()) + " (timeout)", null);
        }
    }

    private void fail(Probe probe, String error, Integer exitCode) {
        probe.error = error;
        probe.exitCode = exitCode;
        finish(probe, ProbeState.FAILED, "probe failed: " + firstLine(error));
    }

    /** Ends {@code probe}: timers off, the sides still running cancelled, cooldown and metrics recorded. */
    private void finish(Probe probe, ProbeState state, String reason) {
        vertx.cancelTimer(probe.readyTimer);
        vertx.cancelTimer(probe.hardTimer);
        probe.state = state;
        probe.finishedMillis = System.currentTimeMillis();
        if (probe.serverLive) {
            agents.send(probe.request.destination().node(), new Frame.ProbeCancel(probe.id, reason));
            probe.serverLive = false;
        }
        if (probe.clientLive) {
            agents.send(probe.request.source().node(), new Frame.ProbeCancel(probe.id, reason));
            probe.clientLive = false;
        }
        if (probe.system()) {
            finishedSystem.addLast(probe.id);
            while (finishedSystem.size() > config.historySize()) {
                systemProbes.remove(finishedSystem.removeFirst());
            }
            LOG.log(System.Logger.Level.DEBUG, "pingmesh probe {0} {1} → {2}: {3}{4}", probe.id, probe.request.source(),
                    probe.request.destination(), state.jsonName(), probe.error == null ? "" : ": " + firstLine(probe.error));
            probe.systemEnd.accept(new SystemProbeEnd(probe.id, state, probe.serverTcpPort != 0, probe.latency, probe.error,
                    probe.refused, probe.timedOut, probe.finishedMillis));
            return;
        }
        pairFinished.put(pairKey(probe.request), probe.finishedMillis);
        if (state != ProbeState.CANCELLED) {
            Endpoint s = probe.request.source();
            Endpoint d = probe.request.destination();
            outcomes.put(new ProbeOutcome(s.node(), s.device(), s.port(), d.node(), d.device(), d.port(),
                    probe.result == null ? null : probe.result.averageBitsPerSecond(),
                    Boolean.TRUE.equals(probe.passed), probe.finishedMillis));
        }
        LOG.log(state == ProbeState.FAILED ? System.Logger.Level.WARNING : System.Logger.Level.INFO,
                "probe {0} {1} → {2}: {3}{4}", probe.id, probe.request.source(), probe.request.destination(),
                state.jsonName(), probe.error == null ? "" : ": " + firstLine(probe.error));
        changed(probe);
    }

    private Probe admit(ProbeRequest request, Requester who) {
        String capability = Frame.Hello.CAPABILITY_PROBES;
        IbDevice srcDevice = device(request.source(), "source", capability);
        IbPort srcPort = port(srcDevice, request.source(), "source");
        IbDevice dstDevice = device(request.destination(), "destination", capability);
        IbPort dstPort = port(dstDevice, request.destination(), "destination");
        String address = serverAddress(request, srcDevice, srcPort, dstDevice, dstPort);
        long now = System.currentTimeMillis();
        for (Probe active : probes.values()) {
            if (active.state.terminal()) {
                continue;
            }
            for (Endpoint port : List.of(request.source(), request.destination())) {
                if (active.uses(port)) {
                    throw new ProbeRefused(409, "port " + port + " is already in probe " + active.id);
                }
            }
        }
        long running = probes.values().stream().filter(p -> !p.state.terminal()).count();
        if (running >= config.maxConcurrent()) {
            throw new ProbeRefused(429, "already " + running + " probes running (probes.maxConcurrent "
                    + config.maxConcurrent() + ")");
        }
        pairFinished.values().removeIf(finished -> now - finished >= config.cooldown().toMillis());
        Long finished = pairFinished.get(pairKey(request));
        if (finished != null) {
            long waitMillis = config.cooldown().toMillis() - (now - finished);
            throw new ProbeRefused(409, "the pair " + request.source() + " ↔ " + request.destination()
                    + " was probed " + seconds(now - finished) + " ago; cooldown is "
                    + seconds(config.cooldown().toMillis()), Math.max(1, (waitMillis + 999) / 1000));
        }
        Long srcRate = srcPort.rateBytesPerSecond();
        Long dstRate = dstPort.rateBytesPerSecond();
        // the port rate is in bytes per second; perftest's bandwidth in bits per second; a bidirectional
        // run's bandwidth is the sum of both directions
        Double linkRate = srcRate == null || dstRate == null ? null
                : Math.min(srcRate, dstRate) * 8.0 * (request.bidirectional() ? 2 : 1);
        return new Probe(newId("pr-"), request, who.label(), now, linkRate, config.passRatio(), address);
    }

    /**
     * The address the client connects to: on RoCE the IPv4 of the destination's RoCE v2 GID (the given
     * index, or the one {@link GidAdvice#ncclGid} recommends: the first RoCE v2 GID with an IPv4 address, as
     * perftest picks one itself); on InfiniBand and iWARP (eRDMA in iWARP mode) the address the destination's
     * agent connects from. The transport is {@link PortTransport}'s rule.
     */
    private String serverAddress(ProbeRequest request, IbDevice srcDevice, IbPort srcPort, IbDevice dstDevice,
                                 IbPort dstPort) {
        if (!roce(dstDevice, dstPort)) {
            return agents.remoteHost(request.destination().node()).orElseThrow(() -> notConnected(request.destination(), "destination"));
        }
        if (request.gidIndex() == null) {
            return GidAdvice.ncclGid(dstPort).map(GidEntry::ipv4).orElseThrow(() -> new ProbeRefused(400, "destination: "
                            + request.destination() + " has no RoCE v2 GID with an IPv4 address"));
        }
        String address = roceV2Gid(dstPort, request.gidIndex(), request.destination(), "destination").ipv4();
        if (roce(srcDevice, srcPort)) {
            roceV2Gid(srcPort, request.gidIndex(), request.source(), "source"); // -x applies to both sides
        }
        return address;
    }

    private static GidEntry roceV2Gid(IbPort port, int index, Endpoint endpoint, String role) {
        GidEntry gid = port.gids().stream().filter(g -> g.index() == index).findFirst()
                .orElseThrow(() -> new ProbeRefused(400, "gidIndex: " + index + " is not in the GID table of the "
                        + role + " (" + endpoint + ")"));
        if (!gid.isRoceV2Ipv4()) {
            throw new ProbeRefused(400, "gidIndex: " + index + " on the " + role + " (" + endpoint + ") is "
                    + (gid.type() == null ? "of unknown type" : gid.type()) + (gid.ipv4() == null ? " without an IPv4 address" : "")
                    + ", not a RoCE v2 GID with an IPv4 address");
        }
        return gid;
    }

    private static boolean roce(IbDevice device, IbPort port) {
        return PortTransport.of(device, port) == PortTransport.ROCE;
    }

    /** The GID index a system probe's side uses: the recommended RoCE v2 one on RoCE, none elsewhere. */
    private static Integer gidIndex(IbDevice device, IbPort port) {
        return roce(device, port) ? GidAdvice.ncclGid(port).map(GidEntry::index).orElse(null) : null;
    }

    private IbDevice device(Endpoint endpoint, String role, String capability) {
        if (!nodes.known(endpoint.node())) {
            throw new ProbeRefused(404, role + ".node: unknown node '" + endpoint.node() + "'");
        }
        if (!agents.connected(endpoint.node())) {
            throw notConnected(endpoint, role);
        }
        if (!agents.accepts(endpoint.node(), capability)) {
            throw new ProbeRefused(503, role + ": the agent of " + endpoint.node() + (capability.equals(
                    Frame.Hello.CAPABILITY_PINGMESH) ? " does not take part in the pingmesh (start it with --allow-pingmesh)"
                    : " does not run probes (start it with --allow-probes)"));
        }
        HostSample last = nodes.lastSample(endpoint.node());
        if (last == null) {
            throw new ProbeRefused(503, role + ": " + endpoint.node() + " has not sent a sample yet");
        }
        return last.devices().stream().filter(d -> d.name().equals(endpoint.device())).findFirst()
                .orElseThrow(() -> new ProbeRefused(404, role + ".device: " + endpoint.node() + " has no device '"
                        + endpoint.device() + "'"));
    }

    private static IbPort port(IbDevice device, Endpoint endpoint, String role) {
        return device.ports().stream().filter(p -> p.port() == endpoint.port()).findFirst()
                .orElseThrow(() -> new ProbeRefused(404, role + ".port: " + endpoint.node() + " " + endpoint.device()
                        + " has no port " + endpoint.port()));
    }

    private static ProbeRefused notConnected(Endpoint endpoint, String role) {
        return new ProbeRefused(503, role + ": the agent of " + endpoint.node() + " is not connected");
    }

    /** The agent-side hard limit for its process: the run plus the margin for setup and teardown. */
    private long sideTimeoutMillis(ProbeRequest request) {
        return request.durationSeconds() * 1000L + config.timeoutMargin().toMillis();
    }

    /** The client's hard limit: an operator's probe's run plus margin; a system probe's own timeout. */
    private long clientTimeoutMillis(Probe probe) {
        return probe.system() ? probe.request.durationSeconds() * 1000L : sideTimeoutMillis(probe.request);
    }

    private JsonObject changed(Probe probe) {
        JsonObject json = probe.json(System.currentTimeMillis());
        if (!probe.system()) {
            onChange.accept(json);
        }
        return json;
    }

    /** Drops the oldest finished operator's probes beyond the history size (running ones stay: at most maxConcurrent). */
    private void trimHistory() {
        Iterator<Probe> oldestFirst = probes.values().iterator();
        while (probes.size() > config.historySize() && oldestFirst.hasNext()) {
            if (oldestFirst.next().state.terminal()) {
                oldestFirst.remove();
            }
        }
    }

    /** The probe {@code id}, an operator's or a system one; null when unknown. */
    private Probe find(String id) {
        Probe probe = probes.get(id);
        return probe != null ? probe : systemProbes.get(id);
    }

    private String newId(String prefix) {
        String id;
        do {
            id = prefix + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffff_ffff_ffffL);
        } while (find(id) != null);
        return id;
    }

    private static String pairKey(ProbeRequest request) {
        String a = request.source().toString();
        String b = request.destination().toString();
        return a.compareTo(b) <= 0 ? a + "\u0000" + b : b + "\u0000" + a;
    }

    private static String seconds(long millis) {
        return millis % 1000 == 0 ? millis / 1000 + " s" : String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    private static String firstLine(String text) {
        return text.lines().findFirst().orElse("");
    }
}
