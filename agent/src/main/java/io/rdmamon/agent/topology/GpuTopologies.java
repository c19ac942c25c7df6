package io.rdmamon.agent.topology;

import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.wire.TopologyWire;
import io.rdmamon.protocol.text.WireText;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The agent's side of the topology: a {@link TopologyReport} as the wire's {@link GpuTopology}, and a reading reused
 * for the slow-cadence interval, or until a PCI function appears or goes (a hot-plug, a VF created, a GPU fallen off
 * the bus): every call lists {@code sys/bus/pci/devices} (one directory read) and reads the topology again at once
 * when the list differs from the one the reading saw.
 */
public final class GpuTopologies {
    private final TopologyReader reader;
    private final Path pciDevices;
    private final long refreshMillis;
    private final LongSupplier clockMillis;
    private GpuTopology cached;
    private long readAtMillis;
    private boolean read;
    private Set<String> functionsAtRead = Set.of();

    /**
     * @param refresh longest reuse of a reading ({@link Duration#ZERO}: read every time)
     */
    public GpuTopologies(Path hostRoot, TopologyReader reader, Duration refresh, LongSupplier clockMillis) {
        this.reader = reader == null ? new TopologyReader(hostRoot) : reader;
        this.pciDevices = hostRoot.resolve("sys/bus/pci/devices");
        this.refreshMillis = refresh.toMillis();
        this.clockMillis = clockMillis;
    }

    /**
     * The topology, re-read when the last reading is older than the refresh interval or the PCI functions changed
     * since; null on a host without GPU.
     */
    public synchronized GpuTopology current() {
        long now = clockMillis.getAsLong();
        Set<String> functions = pciFunctions();
        if (!read || now - readAtMillis >= refreshMillis || now < readAtMillis || !functions.equals(functionsAtRead)) {
            cached = of(TopologyReport.of(reader.read()));
            readAtMillis = now;
            read = true;
            functionsAtRead = functions;
        }
        return cached;
    }

    /** The PCI functions the host lists now; empty when the directory cannot be read (the reader says why). */
    private Set<String> pciFunctions() {
        try (Stream<Path> entries = Files.list(pciDevices)) {
            return entries.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        } catch (IOException | UncheckedIOException e) {
            return Set.of();
        }
    }

    /**
     * The wire's view of {@code report}; null when it found no GPU (nothing to say about GPUDirect). Bounded by the
     * limits the collector refuses a frame by ({@link TopologyWire}): texts from the host (a CPU list, a problem quoting
     * a file) are cut with an ellipsis, and endpoints, notes and reasons past their number are left out (a note says
     * how many endpoints), so one odd file costs a line's tail, never the node's stream.
     */
    public static GpuTopology of(TopologyReport report) {
        HostTopology topology = report.topology();
        if (topology.gpus().isEmpty()) {
            return null;
        }
        List<Endpoint> listed = report.endpoints().stream().limit(TopologyWire.MAX_ENDPOINTS).toList();
        List<GpuTopology.Endpoint> endpoints = new ArrayList<>();
        List<List<String>> matrix = new ArrayList<>();
        for (Endpoint e : listed) {
            ConfigFacts config = e.function().config();
            Boolean ro = config.known() && config.devCtl() != null ? config.devCtl().relaxedOrdering() : null;
            endpoints.add(new GpuTopology.Endpoint(fit(e.name()), fit(e.label()),
                    e.kind() == Endpoint.Kind.GPU ? GpuTopology.Endpoint.GPU : GpuTopology.Endpoint.NIC,
                    fit(e.function().address()), e.numaNode(), fit(e.function().localCpulist()), ro));
            matrix.add(listed.stream().map(other -> TopologyReport.cell(e, other)).toList());
        }
        Set<String> names = listed.stream().map(Endpoint::name).collect(Collectors.toSet());
        List<GpuTopology.Pair> pairs = new ArrayList<>();
        for (PairVerdict p : report.pairs()) {
            if (!names.contains(p.gpu()) || !names.contains(p.nic())) {
                continue;
            }
            boolean chosen = report.choices().stream()
                    .anyMatch(c -> c.gpu().equals(p.gpu()) && c.nics().contains(p.nic()));
            pairs.add(new GpuTopology.Pair(fit(p.gpu()), fit(p.nic()), p.path().name(), p.verdict().text(), chosen,
                    lines(acsRedirect(topology, p)), lines(p.reasons())));
        }
        List<String> notes = new ArrayList<>();
        HostFacts host = topology.host();
        if (host.nvidiaDriver() != null) {
            notes.add("driver: " + host.nvidiaDriver());
        }
        notes.add("peermem: " + (host.peermem().isEmpty() ? "none" : String.join(", ", host.peermem())));
        if (!host.cmdlineSettings().isEmpty()) {
            notes.add("cmdline: " + String.join(" ", host.cmdlineSettings()));
        }
        if (listed.size() < report.endpoints().size()) {
            notes.add("endpoints: " + (report.endpoints().size() - listed.size()) + " of " + report.endpoints().size()
                    + " left out (at most " + TopologyWire.MAX_ENDPOINTS + " are sent)");
        }
        topology.problems().stream().limit(32).forEach(p -> notes.add("problem: " + p));
        return new GpuTopology(endpoints, matrix, pairs, !host.peermem().isEmpty(), lines(notes));
    }

    /** {@code text} within the wire's longest text (null: null). */
    private static String fit(String text) {
        return WireText.cut(text, TopologyWire.MAX_CHARS);
    }

    /** At most the wire's number of lines, each within its longest text. */
    private static List<String> lines(List<String> lines) {
        return lines.stream().limit(TopologyWire.MAX_LINES).map(GpuTopologies::fit).toList();
    }

    /** The bridges of the pair's path whose ACS redirects P2P, where the path would carry GPUDirect RDMA. */
    private static List<String> acsRedirect(HostTopology topology, PairVerdict pair) {
        if (!pair.path().ncclUsesGdrByDefault()) {
            return List.of();
        }
        List<String> redirecting = new ArrayList<>();
        for (Endpoint gpu : topology.gpus()) {
            if (!gpu.name().equals(pair.gpu())) {
                continue;
            }
            for (Endpoint nic : topology.nics()) {
                if (!nic.name().equals(pair.nic())) {
                    continue;
                }
                for (PciNode bridge : PathClassifier.classify(gpu, nic).bridges()) {
                    AcsControl acs = bridge.config().known() ? bridge.config().acs() : null;
                    if (acs != null && acs.redirectsP2p()) {
                        redirecting.add(bridge.address());
                    }
                }
            }
        }
        return redirecting;
    }
}
