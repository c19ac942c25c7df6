package io.rdmamon.collector.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmamon.collector.fabric.FabricStore;
import io.rdmamon.collector.fabric.HostPorts;
import io.rdmamon.collector.fabric.LinkEnds;
import io.rdmamon.collector.store.IngestIssues;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.store.NodeView;
import io.rdmamon.collector.store.PhysicalLayer;
import io.rdmamon.collector.store.PortRates;
import io.rdmamon.collector.store.RatePoint;
import io.rdmamon.collector.web.ApiAnswer;
import io.rdmamon.collector.web.Routes;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.GidAdvice;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.FecMode;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.PciFunction;
import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.PortTransport;
import io.rdmamon.protocol.model.LosslessPriorities;
import io.rdmamon.protocol.model.PriorityCounters;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.model.VerbsPortAttributes;
import io.rdmamon.protocol.nccl.NcclAdvice;
import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.model.NicHealthReporter;
import io.rdmamon.protocol.rates.CounterGroup;
import io.rdmamon.protocol.rates.CounterRate;
import io.vertx.ext.web.Router;

import java.math.BigInteger;
import java.util.Locale;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** {@code /api/nodes}, {@code /api/nodes/{node}}, {@code /api/nodes/{node}/history}, {@code /api/nodes/{node}/nccl}, {@code /api/nodes/{node}/topology}, {@code /api/nodes/{node}/kernel}: JSON views of the {@link NodeStore}. */
public final class NodesApi implements Routes {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final NodeStore store;
    private final String replica;
    /** The InfiniBand fabrics the sweepers sent: which switch port each host port is cabled to. */
    private final FabricStore fabrics;

    /** {@code replica}: this collector's id in its cluster, named in every node it answers for. */
    public NodesApi(NodeStore store, String replica, FabricStore fabrics) {
        this.store = store;
        this.replica = replica;
        this.fabrics = fabrics;
    }

    @Override
    public void mount(Router router) {
        router.get("/api/nodes").handler(ctx -> list().send(ctx));
        router.get("/api/nodes/:node").handler(ctx -> detail(ctx.pathParam("node")).send(ctx));
        router.get("/api/nodes/:node/history").handler(ctx -> history(ctx.pathParam("node")).send(ctx));
        router.get("/api/nodes/:node/nccl").handler(ctx -> nccl(ctx.pathParam("node")).send(ctx));
        router.get("/api/nodes/:node/topology").handler(ctx -> topology(ctx.pathParam("node")).send(ctx));
        router.get("/api/nodes/:node/kernel").handler(ctx -> kernel(ctx.pathParam("node")).send(ctx));
    }

    /**
     * What the node's kernel log said about its NICs (docs/collector.md "Kernel events"): {@code table} (the agent's
     * pattern table version), {@code overwritten}, {@code counts} (kind, severity, device, port, total) and
     * {@code recent} (the last records recognised, newest first). A node whose agent reports none (no privilege, an
     * older agent) answers with {@code reported} false and empty lists.
     */
    public ApiAnswer kernel(String name) {
        if (store.node(name).isEmpty()) {
            return notFound(name);
        }
        Optional<KernelEvents> events = store.kernelEvents(name);
        ObjectNode body = MAPPER.createObjectNode().put("node", name).put("reported", events.isPresent());
        body.put("table", events.map(KernelEvents::tableVersion).orElse(0))
                .put("overwritten", events.map(KernelEvents::overwritten).orElse(0L));
        ArrayNode counts = body.putArray("counts");
        ArrayNode recent = body.putArray("recent");
        events.ifPresent(k -> {
            k.counts().forEach(c -> counts.addObject().put("kind", c.kind()).put("severity", c.severity())
                    .put("device", c.device()).put("port", c.port()).put("total", c.total()));
            for (int i = k.recent().size() - 1; i >= 0; i--) {
                KernelEvents.Event e = k.recent().get(i);
                recent.addObject().put("seq", e.seq()).put("timestampMillis", e.timestampMillis())
                        .put("bootMicros", e.bootMicros()).put("level", e.level()).put("kind", e.kind())
                        .put("severity", e.severity()).put("device", e.device()).put("port", e.port())
                        .put("text", e.text());
            }
        });
        return json(body);
    }

    /**
     * The node's GPU↔NIC matrix and GPUDirect RDMA verdicts (docs/topology.md) from its last sample: {@code endpoints}
     * (GPUs then NICs), {@code matrix} (their path classes, row by row), {@code pairs} (verdict and reasons of every
     * GPU↔NIC pair, {@code chosen} where NCCL would pair them), {@code choices} (per GPU: the chosen NICs, their path,
     * whether all are ready), {@code gdrReady} (every chosen pair ready), {@code peermem}, {@code notes}. A node
     * without GPUs (or whose agent predates the topology) answers with no endpoints and {@code gdrReady} null.
     */
    public ApiAnswer topology(String name) {
        Optional<NodeView> view = store.node(name);
        if (view.isEmpty()) {
            return notFound(name);
        }
        HostSample last = view.get().lastSample();
        if (last == null) {
            return ApiAnswer.error(404, "node '" + name + "' has sent no sample yet");
        }
        GpuTopology topology = last.topology();
        ObjectNode body = MAPPER.createObjectNode().put("node", name);
        if (topology == null) {
            body.putNull("gdrReady");
            body.putArray("endpoints");
            body.putArray("matrix");
            body.putArray("pairs");
            body.putArray("choices");
            body.putArray("notes").add("no GPU topology: the agent found no GPU (or predates the topology read)");
            return json(body);
        }
        List<GpuTopology.Pair> chosen = topology.pairs().stream().filter(GpuTopology.Pair::chosen).toList();
        body.put("gdrReady", !chosen.isEmpty() && chosen.stream().allMatch(GpuTopology.Pair::ready));
        body.set("endpoints", MAPPER.valueToTree(topology.endpoints()));
        body.set("matrix", MAPPER.valueToTree(topology.matrix()));
        body.set("pairs", MAPPER.valueToTree(topology.pairs()));
        ArrayNode choices = body.putArray("choices");
        for (GpuTopology.Endpoint gpu : topology.gpus()) {
            List<GpuTopology.Pair> own = chosen.stream().filter(p -> p.gpu().equals(gpu.name())).toList();
            ObjectNode choice = choices.addObject().put("gpu", gpu.name());
            own.forEach(p -> choice.withArray("nics").add(p.nic()));
            choice.put("path", own.isEmpty() ? null : own.get(0).path());
            choice.put("good", !own.isEmpty() && own.stream().allMatch(GpuTopology.Pair::ready)
                    && Set.of("PIX", "PXB").contains(own.get(0).path()));
        }
        body.put("peermem", topology.peermem());
        topology.notes().forEach(body.putArray("notes")::add);
        return json(body);
    }

    /** The {@code rdmamon nccl-env} advice for the node's last sample, with the fleet's GID index to compare. */
    public ApiAnswer nccl(String name) {
        Optional<NodeView> view = store.node(name);
        if (view.isEmpty()) {
            return notFound(name);
        }
        HostSample last = view.get().lastSample();
        if (last == null) {
            return ApiAnswer.error(404, "node '" + name + "' has sent no sample yet");
        }
        NcclAdvice advice = NcclAdvice.of(last, null, fleetGidIndex());
        ObjectNode body = MAPPER.createObjectNode().put("node", name);
        ArrayNode settings = body.putArray("settings");
        for (NcclAdvice.Setting setting : advice.settings()) {
            settings.addObject().put("name", setting.name()).put("value", setting.value()).put("reason", setting.reason());
        }
        advice.exportLines().forEach(body.putArray("export")::add);
        advice.leftOut().forEach(body.putArray("leftOut")::add);
        advice.mismatches().forEach(body.putArray("ncclConfMismatches")::add);
        advice.locality().forEach(body.putArray("gpuLocality")::add);
        return json(body);
    }

    /**
     * The port's QoS configuration as the dashboard shows it: trust, PFC row, the DSCPs of each lossless priority
     * (APP table, trust dscp only), ETS, ECN. Parts not read are absent.
     */
    private static void qos(ObjectNode q, QosConfig qos, LosslessPriorities lossless) {
        q.put("source", qos.source()).put("trust", qos.trust()).put("dcbx", qos.dcbx());
        if (qos.pfc() != null) {
            ArrayNode row = q.putArray("pfc");
            for (int prio = 0; prio < QosConfig.PRIORITIES; prio++) {
                row.add(qos.pfc().enabled(prio));
            }
        }
        ObjectNode dscps = q.putObject("losslessDscps");
        for (int prio : lossless.priorities()) {
            ArrayNode list = dscps.putArray(Integer.toString(prio));
            if ("dscp".equals(qos.trust())) {
                for (int dscp = 0; dscp < 64; dscp++) {
                    Integer mapped = qos.priorityOfDscp(dscp);
                    if (mapped != null && mapped == prio) {
                        list.add(dscp);
                    }
                }
            }
        }
        if (qos.ets() != null) {
            qos.ets().priorityTc().forEach(q.putArray("priorityTc")::add);
            qos.ets().tcBandwidthPercent().forEach(q.putArray("tcBandwidthPercent")::add);
            qos.ets().tcTsa().forEach(q.putArray("tcTsa")::add);
        }
        if (qos.ecn() != null) {
            ObjectNode ecn = q.putObject("ecn");
            ObjectNode np = ecn.putObject("np");
            ObjectNode rp = ecn.putObject("rp");
            qos.ecn().notificationPoint().forEach((prio, on) -> np.put(Integer.toString(prio), on));
            qos.ecn().reactionPoint().forEach((prio, on) -> rp.put(Integer.toString(prio), on));
        }
        q.put("trafficClass", qos.trafficClass()).put("defaultRoceTos", qos.defaultRoceTos());
    }

    /** The RoCE v2 IPv4 GID index most active RoCE ports of the fleet have (the lower on a tie); null when none. */
    private Integer fleetGidIndex() {
        Map<Integer, Integer> counts = new TreeMap<>();
        for (NodeView node : store.nodes()) {
            HostSample sample = node.lastSample();
            if (sample == null) {
                continue;
            }
            for (IbDevice device : sample.devices()) {
                for (IbPort port : device.ports()) {
                    if (port.isActive() && PortTransport.of(device, port) == PortTransport.ROCE) {
                        GidAdvice.ncclGid(port).ifPresent(g -> counts.merge(g.index(), 1, Integer::sum));
                    }
                }
            }
        }
        return counts.entrySet().stream().max(Map.Entry.<Integer, Integer>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey(java.util.Comparator.reverseOrder())))
                .map(Map.Entry::getKey).orElse(null);
    }

    /** {@code /api/nodes}: this collector's nodes, by name. */
    public ApiAnswer list() {
        ObjectNode body = MAPPER.createObjectNode();
        ArrayNode nodes = body.putArray("nodes");
        for (NodeView view : store.nodes()) {
            ObjectNode node = summary(nodes.addObject(), view);
            HostSample last = view.lastSample();
            ArrayNode ports = node.putArray("ports");
            if (last != null) {
                node.put("deviceCount", last.devices().size());
                node.put("portCount", NodeStore.portsByKey(last).size());
                for (IbDevice device : last.devices()) {
                    for (IbPort port : device.ports()) {
                        ObjectNode p = ports.addObject().put("device", device.name()).put("port", port.port())
                                .put("state", port.state()).put("linkLayer", port.linkLayer())
                                .put("active", port.isActive())
                                .put("transport", PortTransport.of(device, port).jsonName());
                        headline(p, view, device, port);
                    }
                }
            }
        }
        return json(body);
    }

    public ApiAnswer detail(String name) {
        return store.node(name).map(view -> json(detail(view))).orElseGet(() -> notFound(name));
    }

    public ApiAnswer history(String name) {
        return store.history(name).map(history -> {
            ObjectNode body = MAPPER.createObjectNode().put("node", name);
            ArrayNode ports = body.putArray("ports");
            history.forEach((key, points) -> {
                int slash = key.lastIndexOf('/');
                ObjectNode port = ports.addObject().put("device", key.substring(0, slash))
                        .put("port", Integer.parseInt(key.substring(slash + 1)));
                ArrayNode array = port.putArray("points");
                for (RatePoint point : points) {
                    array.addObject().put("timestampMillis", point.timestampMillis())
                            .put("rxBytesPerSecond", point.rxBytesPerSecond())
                            .put("txBytesPerSecond", point.txBytesPerSecond())
                            .put("rxPacketsPerSecond", point.rxPacketsPerSecond())
                            .put("txPacketsPerSecond", point.txPacketsPerSecond());
                }
            });
            return json(body);
        }).orElseGet(() -> notFound(name));
    }

    private ObjectNode summary(ObjectNode node, NodeView view) {
        node.put("node", view.node()).put("replica", replica).put("up", view.up()).put("stale", view.stale())
                .put("connected", view.connections() > 0).put("agentVersion", view.agentVersion())
                .put("intervalMillis", view.intervalMillis()).put("lastSeenMillis", view.lastSeenMillis());
        if (view.lastSample() != null) {
            node.put("lastSampleTimestampMillis", view.lastSample().timestampMillis());
        } else {
            node.putNull("lastSampleTimestampMillis");
        }
        IngestIssues issues = view.issues();
        ObjectNode refused = node.putObject("refusedSamples");
        issues.refusedSamples().forEach(refused::put);
        ObjectNode conflicts = node.putObject("nameConflicts").put("count", issues.nameConflicts());
        if (issues.nameConflicts() > 0) {
            conflicts.put("lastMillis", issues.lastConflictMillis()).put("last", issues.lastConflict());
        }
        return node;
    }

    private ObjectNode detail(NodeView view) {
        ObjectNode body = summary(MAPPER.createObjectNode(), view);
        ArrayNode sources = body.putArray("sources");
        ArrayNode devices = body.putArray("devices");
        HostSample last = view.lastSample();
        if (last == null) {
            return body;
        }
        for (SourceStatus s : last.sources()) {
            // status: ok, unsupported (the device or kernel lacks it: success stays true) or failed
            sources.addObject().put("source", s.source()).put("subject", s.subject()).put("success", s.success())
                    .put("status", s.outcome().wireName()).put("error", s.error()).put("unsupported", s.unsupported());
        }
        for (IbDevice device : last.devices()) {
            ObjectNode d = devices.addObject().put("name", device.name()).put("nodeTypeId", device.nodeTypeId())
                    .put("nodeType", device.nodeType()).put("nodeGuid", device.nodeGuid())
                    .put("sysImageGuid", device.sysImageGuid()).put("fwVersion", device.fwVersion())
                    .put("hcaType", device.hcaType()).put("boardId", device.boardId());
            pci(d, device.pci());
            // RDMA netlink's resource counts and QP list (docs/collector.md); null when the agent did not read them;
            // the workloads are listed per port, where the metrics put them
            JsonNode resources = MAPPER.valueToTree(device.resources());
            if (resources instanceof ObjectNode r) {
                r.remove("workloads");
            }
            d.set("resources", resources);
            ArrayNode ports = d.putArray("ports");
            for (IbPort port : device.ports()) {
                port(ports.addObject(), view, device, port);
            }
        }
        healthReporters(body, last.health());
        return body;
    }

    /**
     * {@code healthReporters}: the node's devlink health reporters as its {@code devlink-health} frame last gave them
     * (device, port, handle, reporter, state, errors, recovers, gracePeriodMillis; {@code port} null for a device's
     * reporter, {@code gracePeriodMillis} null when the reporter has none); null when the agent sends none.
     */
    private static void healthReporters(ObjectNode body, List<NicHealthReporter> reporters) {
        if (reporters == null) {
            body.putNull("healthReporters");
            return;
        }
        ArrayNode array = body.putArray("healthReporters");
        for (NicHealthReporter r : reporters) {
            array.addObject().put("device", r.device()).put("port", r.port().isEmpty() ? null : r.port())
                    .put("handle", r.handle()).put("reporter", r.reporter()).put("state", r.state())
                    .put("errors", r.errors()).put("recovers", r.recovers()).put("gracePeriodMillis", r.gracePeriodMillis());
        }
    }

    /**
     * Who holds the port's QPs (docs/workloads.md), as {@code rdma_port_workload_*} exports them; null when the
     * device's RDMA netlink resources were not read, empty when nothing is attributed (an agent before workloads).
     */
    private static void workloads(ObjectNode p, IbDevice device, IbPort port) {
        if (device.resources() == null) {
            p.putNull("workloads");
            return;
        }
        ArrayNode workloads = p.putArray("workloads");
        for (PortWorkload w : device.resources().workloadsOn(port.port())) {
            workloads.addObject().put("namespace", w.namespace()).put("pod", w.pod()).put("container", w.container())
                    .put("comm", w.comm()).put("attribution", w.attribution()).put("reason", w.reason())
                    .put("qps", w.qps());
        }
    }

    /** The device's PCI function (docs/collector.md); null when none was found. */
    private static void pci(ObjectNode device, PciFunction pci) {
        if (pci == null) {
            device.putNull("pci");
            return;
        }
        ObjectNode p = device.putObject("pci").put("address", pci.address()).put("physfn", pci.physfn())
                .put("linkFrom", pci.linkFrom()).put("currentLinkSpeed", pci.currentLinkSpeed())
                .put("maxLinkSpeed", pci.maxLinkSpeed())
                .put("currentLinkSpeedTransfersPerSecond", pci.currentLinkSpeedTransfersPerSecond())
                .put("maxLinkSpeedTransfersPerSecond", pci.maxLinkSpeedTransfersPerSecond())
                .put("currentLinkWidth", pci.currentLinkWidth()).put("maxLinkWidth", pci.maxLinkWidth())
                .put("degraded", pci.degraded());
        ObjectNode aer = p.putObject("aerErrors");
        pci.aerErrors().forEach((severity, value) -> aer.put(severity, value));
        pci.notes().forEach(p.putArray("notes")::add);
    }

    private void port(ObjectNode p, NodeView view, IbDevice device, IbPort port) {
        p.put("port", port.port()).put("stateId", port.stateId()).put("state", port.state())
                .put("physStateId", port.physStateId()).put("physState", port.physState()).put("rate", port.rate())
                .put("rateBytesPerSecond", port.rateBytesPerSecond()).put("linkLayer", port.linkLayer())
                .put("lid", port.lid()).put("netdev", port.netdev()).put("active", port.isActive())
                .put("hwCountersSource", port.hwCountersSource());
        ObjectNode netdevCounters = p.putObject("netdevCounters");
        port.netdevCounters().forEach((name, value) -> netdevCounters.put(name, value));
        PortTransport transport = PortTransport.of(device, port);
        p.put("transport", transport.jsonName());
        GidAdvice advice = GidAdvice.of(transport, port);
        p.putObject("gidAdvice").put("index", advice.index()).put("gid", advice.gid()).put("ipv4", advice.ipv4())
                .put("ok", advice.ok()).put("text", advice.text());
        LosslessPriorities lossless = LosslessPriorities.of(port);
        ObjectNode losslessNode = p.putObject("lossless").put("source", lossless.source());
        lossless.priorities().forEach(losslessNode.putArray("priorities")::add);
        if (port.qos() != null) {
            qos(p.putObject("qos"), port.qos(), lossless);
        }
        headline(p.putObject("rates"), view, device, port);
        IbPort previous = previousPort(view, device, port);
        long elapsed = elapsed(view);
        counters(p.putObject("counters"), port.counters(), previous, port, elapsed, CounterGroup.PORT_COUNTERS);
        counters(p.putObject("hwCounters"), port.hwCounters(), previous, port, elapsed, CounterGroup.HW_COUNTERS);
        ArrayNode gids = p.putArray("gids");
        for (GidEntry g : port.gids()) {
            gids.addObject().put("index", g.index()).put("gid", g.gid()).put("type", g.type())
                    .put("netdev", g.netdev()).put("ipv4", g.ipv4()).put("roceV2", g.isRoceV2());
        }
        // the agent sent the first GidEntry.MAX_PER_PORT entries of a larger table: "GID table truncated"
        p.put("gidsDropped", port.gidsDropped());
        // the switch port it is cabled to (LLDP): every field of LldpNeighbor, null when absent; null when none known
        p.set("neighbor", port.neighbor() == null ? p.nullNode() : MAPPER.valueToTree(port.neighbor()));
        fabricNeighbor(p, device, port);
        workloads(p, device, port);
        EthtoolStats e = port.ethtool();
        if (e == null) {
            p.putNull("ethtool");
        } else {
            ObjectNode ethtool = p.putObject("ethtool").put("netdev", e.netdev());
            e.pfcEnabledPriorities().forEach(ethtool.putArray("pfcEnabledPriorities")::add);
            ArrayNode priorities = ethtool.putArray("priorities");
            for (PriorityCounters pc : e.priorities()) {
                ObjectNode prio = priorities.addObject().put("priority", pc.priority());
                putUnsigned(prio, "rxBytes", pc.rxBytes());
                putUnsigned(prio, "rxPackets", pc.rxPackets());
                putUnsigned(prio, "rxDiscards", pc.rxDiscards());
                putUnsigned(prio, "txBytes", pc.txBytes());
                putUnsigned(prio, "txPackets", pc.txPackets());
                putUnsigned(prio, "rxPauseFrames", pc.rxPauseFrames());
                putUnsigned(prio, "rxPauseDurationMicros", pc.rxPauseDurationMicros());
                putUnsigned(prio, "txPauseFrames", pc.txPauseFrames());
                putUnsigned(prio, "txPauseDurationMicros", pc.txPauseDurationMicros());
                putUnsigned(prio, "rxPauseTransitions", pc.rxPauseTransitions());
            }
            ObjectNode vport = ethtool.putObject("vportRdma");
            e.vportRdma().forEach((name, value) -> putUnsigned(vport, name, value));
            putUnsigned(ethtool, "pauseStormWarningEvents", e.pauseStormWarningEvents());
            putUnsigned(ethtool, "pauseStormErrorEvents", e.pauseStormErrorEvents());
            counters(ethtool.putObject("statistics"), e.raw(), previous, port, elapsed, CounterGroup.ETHTOOL);
        }
        VerbsPortAttributes v = port.verbs();
        if (v == null) {
            p.putNull("verbs");
        } else {
            p.set("verbs", MAPPER.valueToTree(v));
        }
        physical(p, previous, port, elapsed);
    }

    /**
     * The port's physical layer as the port page shows it, computed here ({@link PhysicalLayer}) so the dashboard
     * derives nothing: FEC encoding, pre-FEC BER over the last interval, and the transceiver with each lane's power in
     * W and dBm and its Rx margin above the module's own low warning.
     */
    private static void physical(ObjectNode p, IbPort previous, IbPort port, long elapsed) {
        FecMode fec = port.fec();
        if (fec == null) {
            p.putNull("fec");
        } else {
            ObjectNode f = p.putObject("fec").put("active", fec.active());
            fec.configured().forEach(f.putArray("configured")::add);
        }
        PhysicalLayer.PreFecBer ber = PhysicalLayer.preFecBer(previous, port, elapsed);
        if (ber == null) {
            p.putNull("preFecBer");
        } else {
            p.put("preFecBer", ber.ber()).put("preFecBerEstimated", ber.estimated());
        }
        TransceiverModule m = port.module();
        if (m == null) {
            p.putNull("module");
            return;
        }
        ObjectNode module = p.putObject("module").put("standard", m.standard()).put("type", m.type())
                .put("vendor", m.vendor()).put("part", m.part()).put("revision", m.revision()).put("serial", m.serial())
                .put("date", m.date()).put("temperatureCelsius", m.temperatureCelsius())
                .put("voltageVolts", m.voltageVolts()).put("worstRxMarginDb", PhysicalLayer.worstRxMarginDb(m));
        ArrayNode lanes = module.putArray("lanes");
        for (TransceiverModule.Lane lane : m.lanes()) {
            lanes.addObject().put("lane", lane.lane()).put("rxPowerWatts", lane.rxPowerWatts())
                    .put("rxPowerDbm", dbm(lane.rxPowerWatts())).put("txPowerWatts", lane.txPowerWatts())
                    .put("txPowerDbm", dbm(lane.txPowerWatts())).put("txBiasAmperes", lane.txBiasAmperes())
                    .put("rxMarginDb", PhysicalLayer.rxMarginDb(lane, m));
        }
        TransceiverModule.Thresholds t = m.thresholds();
        if (t == null) {
            module.putNull("thresholds");
        } else {
            ObjectNode thresholds = module.putObject("thresholds");
            limits(thresholds, "temperatureCelsius", t.temperatureCelsius(), false);
            limits(thresholds, "voltageVolts", t.voltageVolts(), false);
            limits(thresholds, "rxPowerWatts", t.rxPowerWatts(), true);
            limits(thresholds, "txPowerWatts", t.txPowerWatts(), true);
            limits(thresholds, "txBiasAmperes", t.txBiasAmperes(), false);
        }
        m.notes().forEach(module.putArray("notes")::add);
    }

    /** One quantity's four thresholds; optical power also in dBm, as the lanes are. */
    private static void limits(ObjectNode thresholds, String name, TransceiverModule.Limits limits, boolean power) {
        if (limits == null) {
            return;
        }
        ObjectNode l = thresholds.putObject(name).put("highAlarm", limits.highAlarm()).put("lowAlarm", limits.lowAlarm())
                .put("highWarning", limits.highWarning()).put("lowWarning", limits.lowWarning());
        if (power) {
            l.put("highAlarmDbm", dbm(limits.highAlarm())).put("lowAlarmDbm", dbm(limits.lowAlarm()))
                    .put("highWarningDbm", dbm(limits.highWarning())).put("lowWarningDbm", dbm(limits.lowWarning()));
        }
    }

    /** Optical power in dBm; null without a reading or without light (JSON has no -inf). */
    private static Double dbm(Double watts) {
        return watts == null || !(watts > 0) ? null : 10 * Math.log10(watts * 1e3);
    }

    private static void counters(ObjectNode target, Map<String, Long> values, IbPort previous, IbPort current,
                                 long elapsed, CounterGroup group) {
        values.forEach((name, value) -> {
            if (value == null) {
                return;
            }
            ObjectNode counter = target.putObject(name);
            putUnsigned(counter, "value", value);
            CounterRate rate = PortRates.rate(previous, current, elapsed, group, name);
            if (rate != null) {
                if (rate.hasRate()) {
                    counter.put("perSecond", rate.perSecond());
                }
                if (rate.status() != CounterRate.Status.OK) {
                    counter.put("rateStatus", rate.status().name().toLowerCase(Locale.ROOT));
                }
            }
        });
    }

    private static void headline(ObjectNode target, NodeView view, IbDevice device, IbPort port) {
        RatePoint point = PortRates.headline(previousPort(view, device, port), port, elapsed(view), 0);
        target.put("rxBytesPerSecond", point.rxBytesPerSecond()).put("txBytesPerSecond", point.txBytesPerSecond())
                .put("rxPacketsPerSecond", point.rxPacketsPerSecond())
                .put("txPacketsPerSecond", point.txPacketsPerSecond());
    }

    private static IbPort previousPort(NodeView view, IbDevice device, IbPort port) {
        return view.previousSample() == null ? null
                : NodeStore.portsByKey(view.previousSample()).get(device.name() + "/" + port.port());
    }

    private static long elapsed(NodeView view) {
        return view.previousSample() == null ? 0
                : view.lastSample().timestampMillis() - view.previousSample().timestampMillis();
    }

    private static void putUnsigned(ObjectNode target, String field, Long value) {
        if (value == null) {
            target.putNull(field);
        } else if (value < 0) {
            target.put(field, new BigInteger(Long.toUnsignedString(value)));
        } else {
            target.put(field, value);
        }
    }

    private static ApiAnswer notFound(String node) {
        return ApiAnswer.error(404, "unknown node '" + node + "'");
    }

    private static ApiAnswer json(ObjectNode body) {
        try {
            return ApiAnswer.ok(MAPPER.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            return ApiAnswer.error(500, "cannot encode the answer: " + e.getOriginalMessage());
        }
    }

    /**
     * {@code fabricNeighbor}: the switch port an InfiniBand host port is cabled to, as the last fabric sweep found it
     * ({@code guid} and {@code description} of the switch, its {@code port}); null when no fabric holds the port, or
     * when the agent's LLDP already names its neighbour.
     */
    private void fabricNeighbor(ObjectNode p, IbDevice device, IbPort port) {
        String guid = HostPorts.fabricGuid(device.nodeGuid());
        Optional<LinkEnds.End> end = guid == null || port.neighbor() != null ? Optional.empty()
                : fabrics.switchPortOf(guid, port.port());
        if (end.isEmpty()) {
            p.putNull("fabricNeighbor");
            return;
        }
        p.putObject("fabricNeighbor").put("guid", end.get().guid()).put("description", end.get().description())
                .put("port", end.get().port());
    }
}
