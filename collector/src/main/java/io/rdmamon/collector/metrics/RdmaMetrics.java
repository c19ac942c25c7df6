package io.rdmamon.collector.metrics;

import io.rdmamon.collector.diagnosis.Diagnosis;
import io.rdmamon.collector.fabric.FabricState;
import io.rdmamon.collector.fabric.FabricStore;
import io.rdmamon.collector.fabric.HostPorts;
import io.rdmamon.collector.fabric.FabricVerdict;
import io.rdmamon.collector.pingmesh.PingmeshResults;
import io.rdmamon.collector.probe.ProbeOutcome;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.collector.store.NodeView;
import io.rdmamon.protocol.exposition.DeflatedRuns;
import io.rdmamon.protocol.exposition.ExpositionAssembler;
import io.rdmamon.protocol.exposition.ExpositionBytes;
import io.rdmamon.protocol.exposition.ExpositionFormat;
import io.rdmamon.protocol.exposition.Family;
import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.exposition.NodeChunk;
import io.rdmamon.protocol.exposition.NodeRenderer;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

import static io.rdmamon.protocol.exposition.MetricFamilies.AGENT_UP;
import static io.rdmamon.protocol.exposition.MetricFamilies.DIAGNOSIS_ACTIVE;
import static io.rdmamon.protocol.exposition.MetricFamilies.PINGMESH_GROUP_LOSS;
import static io.rdmamon.protocol.exposition.MetricFamilies.PINGMESH_GROUP_RTT;
import static io.rdmamon.protocol.exposition.MetricFamilies.PINGMESH_LOSS;
import static io.rdmamon.protocol.exposition.MetricFamilies.PINGMESH_RTT;
import static io.rdmamon.protocol.exposition.MetricFamilies.PORT_NEIGHBOR_INFO;
import static io.rdmamon.protocol.exposition.MetricFamilies.PROBE_BANDWIDTH;
import static io.rdmamon.protocol.exposition.MetricFamilies.PROBE_SUCCESS;
import static io.rdmamon.protocol.exposition.MetricFamilies.PROBE_TIMESTAMP;

/**
 * The {@code rdma_*} families of docs/architecture.md "Metric names", written straight to the exposition text at scrape
 * time.
 *
 * <p>At fleet scale (2,000 nodes × 8 ports, 1.6 M series) building client-library snapshots took seconds
 * per scrape (docs/performance.md). Instead each node's series are rendered to bytes once per sample
 * ({@link NodeRenderer}, cached until the node's next sample or its expiry) and a scrape concatenates,
 * family by family, every node's bytes of that family (a family's samples must be contiguous), rendering the
 * nodes with a new sample in parallel slices when given an executor. Families
 * are ordered by name; within a family, series go node by node in node-name order. A gzip body reuses the deflated
 * bytes of the last one for the runs of nodes whose text of a family did not change ({@link DeflatedRuns}).
 *
 * <p>Thread-safe: scrapes may run concurrently with each other and with ingest.
 */
public final class RdmaMetrics {
    private static final Comparator<String[]> BY_LABEL_VALUES = Arrays::compare;
    private static final int RENDER_SLICES = Runtime.getRuntime().availableProcessors();
    /** Below this many nodes per slice handing work to other threads costs more than it saves. */
    private static final int MIN_NODES_PER_SLICE = 16;
    private final NodeStore store;
    private final Supplier<? extends Collection<ProbeOutcome>> probes;
    private final Supplier<List<Diagnosis>> diagnoses;
    private final MetricSelection selection;
    private final Supplier<PingmeshResults.Aggregates> pingmesh;
    private final FabricStore fabrics;
    private volatile FabricExposition lastFabric;
    private final Map<String, NodeChunk> chunks = new ConcurrentHashMap<>();
    /** Content ids of the nodes' families ({@link NodeChunk#identify}): unique for the life of the collector. */
    private final AtomicLong contentIds = new AtomicLong();
    /** The deflated runs of node series of the last gzip body (a Prometheus scrape) for the next one. */
    private final DeflatedRuns deflatedRuns = new DeflatedRuns();

    public RdmaMetrics(NodeStore store) {
        this(store, List::of);
    }

    /** {@code probes} is called on the scrape's thread and must be thread-safe. */
    public RdmaMetrics(NodeStore store, Supplier<? extends Collection<ProbeOutcome>> probes) {
        this(store, probes, List::of);
    }

    /** Also {@code rdma_diagnosis_active} for each diagnosis {@code diagnoses} gives (thread-safe, like {@code
     * probes}). */
    public RdmaMetrics(NodeStore store, Supplier<? extends Collection<ProbeOutcome>> probes,
                       Supplier<List<Diagnosis>> diagnoses) {
        this(store, probes, diagnoses, MetricSelection.FULL);
    }

    /**
     * Only the families {@code selection} includes ({@code --metrics}): the others are neither rendered nor cached;
     * the store, the diagnoses and the API are untouched.
     */
    public RdmaMetrics(NodeStore store, Supplier<? extends Collection<ProbeOutcome>> probes,
                       Supplier<List<Diagnosis>> diagnoses, MetricSelection selection) {
        this(store, probes, diagnoses, selection, () -> null);
    }

    /**
     * Also the {@code rdma_pingmesh_*} families from {@code pingmesh}, the window's aggregates (called on the scrape's
     * thread; null: none), each port's series from the probes it took part in at either end.
     */
    public RdmaMetrics(NodeStore store, Supplier<? extends Collection<ProbeOutcome>> probes,
                       Supplier<List<Diagnosis>> diagnoses, MetricSelection selection,
                       Supplier<PingmeshResults.Aggregates> pingmesh) {
        this(store, probes, diagnoses, selection, pingmesh, new FabricStore(System::currentTimeMillis));
    }

    /**
     * Also the {@code rdma_fabric_*} families of the fabrics {@code fabrics} holds, and the {@code
     * rdma_port_neighbor_info} of each InfiniBand host port a fabric cables to a switch.
     */
    public RdmaMetrics(NodeStore store, Supplier<? extends Collection<ProbeOutcome>> probes,
                       Supplier<List<Diagnosis>> diagnoses, MetricSelection selection,
                       Supplier<PingmeshResults.Aggregates> pingmesh, FabricStore fabrics) {
        this.fabrics = fabrics;
        this.store = store;
        this.probes = probes;
        this.diagnoses = diagnoses;
        this.selection = selection;
        this.pingmesh = pingmesh;
    }

    /** The families rendered; the collector's own registry is filtered by it too ({@code MetricsHandler}). */
    public MetricSelection selection() {
        return selection;
    }

    /** Writes every {@code rdma_*} family to {@code out} (blocking: call it on a worker), rendering on this thread. */
    public void write(OutputStream out, ExpositionFormat format) throws IOException {
        write(out, format, Runnable::run);
    }

    /**
     * Writes every {@code rdma_*} family to {@code out} (blocking: call it on a worker). The nodes with a new sample
     * since the last scrape (at 1 Hz sampling: all of them) are rendered in one slice per core, the calling thread
     * taking one and {@code renderers} the others.
     */
    public void write(OutputStream out, ExpositionFormat format, Executor renderers) throws IOException {
        List<NodeView> nodes = store.nodes();
        NodeChunk[] rendered = chunks(nodes, renderers);
        ExpositionAssembler families = new ExpositionAssembler(selection);
        NodeRenderer renderer = new NodeRenderer(selection);
        ExpositionBytes up = new ExpositionBytes(nodes.size() * 40);
        Set<String> present = new HashSet<>();
        for (int i = 0; i < nodes.size(); i++) {
            renderer.agentUp(up, nodes.get(i).node(), nodes.get(i).up());
            if (rendered[i] != null) {
                present.add(nodes.get(i).node());
                families.add(rendered[i]);
            }
        }
        // expired nodes, and nodes connected again without a sample yet, leave no rendered bytes behind
        chunks.keySet().retainAll(present);
        families.add(AGENT_UP, up);
        probes(families, renderer);
        diagnoses(families, renderer);
        pingmesh(families, renderer);
        fabricExposition().addTo(families);
        fabricNeighbors(families, renderer, nodes);
        families.write(out, format, deflatedRuns);
    }

    /**
     * The fabric families of the fabrics held now: rendered once per change of the store (a sweep, a sweeper gone),
     * reused by every scrape in between (a 40,000-port fabric costs about a second to render, docs/performance.md).
     */
    private FabricExposition fabricExposition() {
        List<FabricState> now = fabrics.fabrics();
        FabricExposition last = lastFabric;
        if (last == null || last.fabrics() != now) {
            last = new FabricExposition(selection, new NodeRenderer(selection), now);
            lastFabric = last;
        }
        return last;
    }

    /**
     * {@code rdma_port_neighbor_info} of the InfiniBand host ports a fabric cables to a switch, as LLDP names an
     * Ethernet port's: {@code chassis_id} the switch's node GUID, {@code system_name} its NodeDescription, {@code
     * port_id} its port number. A port whose agent reports an LLDP neighbour keeps that one.
     */
    private void fabricNeighbors(ExpositionAssembler families, NodeRenderer renderer, List<NodeView> nodes) {
        if (fabrics.fabrics().isEmpty() || !selection.includes(PORT_NEIGHBOR_INFO)) {
            return;
        }
        ExpositionBytes out = new ExpositionBytes(256);
        for (NodeView view : nodes) {
            HostSample sample = view.lastSample();
            if (sample == null) {
                continue;
            }
            for (IbDevice device : sample.devices()) {
                String guid = HostPorts.fabricGuid(device.nodeGuid());
                for (IbPort port : device.ports()) {
                    if (guid == null || port.neighbor() != null) {
                        continue;
                    }
                    fabrics.switchPortOf(guid, port.port()).ifPresent(end -> out.info(
                            PORT_NEIGHBOR_INFO.sampleName(), renderer.labels("chassis_id", end.guid(), "device",
                                    device.name(), "node", view.node(), "port", Integer.toString(port.port()),
                                    "port_id", Integer.toString(end.port()), "system_name", end.description())));
                }
            }
        }
        families.add(PORT_NEIGHBOR_INFO, out);
    }

    /** What the last gzip body reused and deflated anew (bench and tests). */
    public DeflatedRuns deflatedRuns() {
        return deflatedRuns;
    }

    /** The chunk of each node's last sample (null: no sample), from the cache or rendered now and cached. */
    private NodeChunk[] chunks(List<NodeView> nodes, Executor renderers) throws IOException {
        NodeChunk[] result = new NodeChunk[nodes.size()];
        List<Integer> stale = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            HostSample sample = nodes.get(i).lastSample();
            NodeChunk chunk = chunks.get(nodes.get(i).node());
            if (chunk != null && chunk.sample() == sample) {
                result[i] = chunk;
            } else if (sample != null) {
                stale.add(i);
            }
        }
        int slices = Math.max(1, Math.min(RENDER_SLICES, stale.size() / MIN_NODES_PER_SLICE));
        List<CompletableFuture<Void>> others = new ArrayList<>();
        try {
            for (int s = 1; s < slices; s++) {
                int slice = s;
                others.add(CompletableFuture.runAsync(() -> render(nodes, stale, slice, slices, result), renderers));
            }
        } catch (RuntimeException e) { // the executor refused a slice (closed or full)
            throw new IOException("cannot render the exposition: " + e, e);
        }
        render(nodes, stale, 0, slices, result);
        try {
            CompletableFuture.allOf(others.toArray(CompletableFuture[]::new)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while rendering the exposition");
        } catch (ExecutionException e) {
            throw new IOException("cannot render the exposition: " + e.getCause(), e.getCause());
        }
        return result;
    }

    /** Renders every {@code slices}-th node of {@code stale}, from {@code slice} on, into {@code result} and the cache.
     * */
    private void render(List<NodeView> nodes, List<Integer> stale, int slice, int slices, NodeChunk[] result) {
        NodeRenderer renderer = new NodeRenderer(selection);
        for (int j = slice; j < stale.size(); j += slices) {
            int i = stale.get(j);
            NodeView node = nodes.get(i);
            NodeChunk chunk = renderer.render(node.node(), node.lastSample())
                    .identify(chunks.get(node.node()), contentIds::incrementAndGet);
            chunks.put(node.node(), chunk);
            result[i] = chunk;
        }
    }

    private void probes(ExpositionAssembler families, NodeRenderer renderer) {
        List<ProbeOutcome> sorted = new ArrayList<>(probes.get());
        sorted.sort(Comparator.comparing(RdmaMetrics::probeLabelValues, BY_LABEL_VALUES));
        ExpositionBytes bandwidth = new ExpositionBytes(256);
        ExpositionBytes success = new ExpositionBytes(256);
        ExpositionBytes timestamp = new ExpositionBytes(256);
        for (ProbeOutcome p : sorted) {
            String[] v = probeLabelValues(p);
            byte[] labels = renderer.labels("dst_device", v[0], "dst_node", v[1], "dst_port", v[2],
                    "src_device", v[3], "src_node", v[4], "src_port", v[5]);
            if (p.bandwidthBitsPerSecond() != null) {
                bandwidth.sample(PROBE_BANDWIDTH.sampleName(), labels, p.bandwidthBitsPerSecond());
            }
            success.sample(PROBE_SUCCESS.sampleName(), labels, p.passed() ? 1 : 0);
            timestamp.sample(PROBE_TIMESTAMP.sampleName(), labels, p.finishedMillis() / 1000.0);
        }
        families.add(PROBE_BANDWIDTH, bandwidth);
        families.add(PROBE_SUCCESS, success);
        families.add(PROBE_TIMESTAMP, timestamp);
    }

    /** Label values in label-name order (dst_device, dst_node, dst_port, src_device, src_node, src_port). */
    private static String[] probeLabelValues(ProbeOutcome p) {
        return new String[] {p.dstDevice(), p.dstNode(), Integer.toString(p.dstPort()),
                p.srcDevice(), p.srcNode(), Integer.toString(p.srcPort())};
    }

    /** Bounded: per port two scopes, per group pair one series a quantile; never one series per port pair. */
    private void pingmesh(ExpositionAssembler families, NodeRenderer renderer) {
        boolean ports = selection.includes(PINGMESH_RTT) || selection.includes(PINGMESH_LOSS);
        boolean groups = selection.includes(PINGMESH_GROUP_RTT) || selection.includes(PINGMESH_GROUP_LOSS);
        PingmeshResults.Aggregates aggregates = ports || groups ? pingmesh.get() : null;
        if (aggregates == null) {
            return;
        }
        // label values in label-name order: device, node, port, scope / dst_group, src_group
        List<Map.Entry<String[], PingmeshResults.Summary>> portRows = new ArrayList<>();
        aggregates.ports().forEach((k, v) -> portRows.add(Map.entry(new String[] {k.port().device(), k.port().node(),
                Integer.toString(k.port().port()), k.scope()}, v)));
        portRows.sort(Map.Entry.comparingByKey(BY_LABEL_VALUES));
        ExpositionBytes rtt = new ExpositionBytes(256);
        ExpositionBytes loss = new ExpositionBytes(256);
        for (Map.Entry<String[], PingmeshResults.Summary> row : portRows) {
            String[] v = row.getKey();
            PingmeshResults.Summary summary = row.getValue();
            quantiles(rtt, PINGMESH_RTT, summary, q -> renderer.labels("device", v[0], "node", v[1], "port", v[2],
                    "quantile", q, "scope", v[3]));
            if (!Double.isNaN(summary.lossRatio())) {
                loss.sample(PINGMESH_LOSS.sampleName(), renderer.labels("device", v[0], "node", v[1], "port", v[2],
                        "scope", v[3]), summary.lossRatio());
            }
        }
        List<Map.Entry<String[], PingmeshResults.Summary>> groupRows = new ArrayList<>();
        aggregates.groups().forEach((k, v) -> groupRows.add(Map.entry(new String[] {k.dstGroup(), k.srcGroup()}, v)));
        groupRows.sort(Map.Entry.comparingByKey(BY_LABEL_VALUES));
        ExpositionBytes groupRtt = new ExpositionBytes(256);
        ExpositionBytes groupLoss = new ExpositionBytes(256);
        for (Map.Entry<String[], PingmeshResults.Summary> row : groupRows) {
            String[] v = row.getKey();
            PingmeshResults.Summary summary = row.getValue();
            quantiles(groupRtt, PINGMESH_GROUP_RTT, summary, q -> renderer.labels("dst_group", v[0], "quantile", q,
                    "src_group", v[1]));
            if (!Double.isNaN(summary.lossRatio())) {
                groupLoss.sample(PINGMESH_GROUP_LOSS.sampleName(), renderer.labels("dst_group", v[0], "src_group", v[1]),
                        summary.lossRatio());
            }
        }
        families.add(PINGMESH_RTT, rtt);
        families.add(PINGMESH_LOSS, loss);
        families.add(PINGMESH_GROUP_RTT, groupRtt);
        families.add(PINGMESH_GROUP_LOSS, groupLoss);
    }

    /** The {@code 0.5} and {@code 0.99} samples of {@code summary}; none when no round trip was measured. */
    private static void quantiles(ExpositionBytes out, Family family,
                                  PingmeshResults.Summary summary, Function<String, byte[]> labels) {
        if (!Double.isNaN(summary.p50Seconds())) {
            out.sample(family.sampleName(), labels.apply("0.5"), summary.p50Seconds());
            out.sample(family.sampleName(), labels.apply("0.99"), summary.p99Seconds());
        }
    }

    private void diagnoses(ExpositionAssembler families, NodeRenderer renderer) {
        // node-level diagnoses (agent_stale) carry empty device and port labels; values in label-name order
        List<String[]> rows = new ArrayList<>();
        for (Diagnosis d : diagnoses.get()) {
            rows.add(new String[] {d.nodeLevel() ? "" : d.device(), d.node(),
                    d.nodeLevel() ? "" : Integer.toString(d.port()), d.rule().id(), d.severity().id()});
        }
        // a fabric verdict's place is a fabric port, end a of its link: node its NodeDescription, device its node GUID
        for (FabricState fabric : fabrics.fabrics()) {
            for (FabricVerdict v : fabric.verdicts()) {
                rows.add(new String[] {v.link().a().guid(), v.link().a().description(),
                        Integer.toString(v.link().a().port()), v.rule().id(), v.severity().id()});
            }
        }
        rows.sort(BY_LABEL_VALUES);
        ExpositionBytes active = new ExpositionBytes(256);
        String[] previous = null;
        for (String[] v : rows) {
            if (previous == null || !Arrays.equals(previous, v)) {
                active.sample(DIAGNOSIS_ACTIVE.sampleName(), renderer.labels("device", v[0], "node", v[1], "port", v[2],
                        "rule", v[3], "severity", v[4]), 1);
            }
            previous = v;
        }
        families.add(DIAGNOSIS_ACTIVE, active);
    }
}
