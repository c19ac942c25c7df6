package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.fabric.FabricNode;
import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.model.NicHealthReporter;
import io.rdmamon.protocol.model.PortWorkload;
import io.rdmamon.protocol.model.RdmaResources;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.probe.LatencyResult;
import io.rdmamon.protocol.text.HostText;
import io.rdmamon.protocol.text.WireLimits;

import java.util.List;

/**
 * The agent's one choke point for free text from its host ({@link HostText}, {@link WireLimits}): a frame with
 * its sources' names and reasons, its workloads' labels (comm, pod, container, namespace, reason) and its probe
 * report's error, untimed reason and output, a fabric sweep's node descriptions and problems, the devlink health
 * reporters' names and the kernel records' devices and texts made printable and cut to the collector's limits. A frame whose texts already fit is returned as it is, so the bytes on the wire do not change for clean hosts.
 */
public final class HostTextFrames {
    private HostTextFrames() {
    }

    public static Frame sanitize(Frame frame) {
        if (frame instanceof Frame.Values v) {
            List<SourceStatus> sources = v.sources().stream().map(HostTextFrames::source).toList();
            return sources.equals(v.sources()) ? v
                    : new Frame.Values(v.layoutId(), v.seq(), v.timestampMillis(), v.sharedValues(), v.sharedAbsent(),
                    sources);
        } else if (frame instanceof Frame.ProbeReport r) {
            return probeReport(r);
        } else if (frame instanceof Frame.Hello h) {
            HostLayout layout = layout(h.layout());
            return layout.equals(h.layout()) ? h : new Frame.Hello(h.node(), h.agentVersion(), h.intervalMillis(),
                    h.layoutId(), layout, h.capabilities(), h.instance());
        } else if (frame instanceof Frame.LayoutChange l) {
            HostLayout layout = layout(l.layout());
            return layout.equals(l.layout()) ? l : new Frame.LayoutChange(l.layoutId(), layout);
        } else if (frame instanceof Frame.Fabric f) {
            return fabric(f);
        } else if (frame instanceof Frame.DevlinkHealthReport h) {
            List<NicHealthReporter> reporters = h.reporters().stream().map(HostTextFrames::reporter).toList();
            return reporters.equals(h.reporters()) ? h : new Frame.DevlinkHealthReport(reporters);
        } else if (frame instanceof Frame.KernelEventsReport k) {
            return kernelEvents(k);
        }
        return frame;
    }

    /**
     * A devlink health reporter's names, as the kernel or a captured {@code devlink -j health show} gave them: the
     * reporter is a label, the device, port and handle texts that may be empty (unplaced, device-wide).
     */
    static NicHealthReporter reporter(NicHealthReporter r) {
        return new NicHealthReporter(label(r.device()), label(r.port()), label(r.handle()), name(r.reporter()),
                label(r.state()), r.errors(), r.recovers(), r.gracePeriodMillis());
    }

    /** The kernel records' device, port and text (the kernel's words); kinds and severities are the agent's own. */
    static Frame.KernelEventsReport kernelEvents(Frame.KernelEventsReport k) {
        KernelEvents e = k.events();
        List<KernelEvents.Count> counts = e.counts().stream().map(c -> new KernelEvents.Count(c.kind(), c.severity(),
                label(c.device()), label(c.port()), c.total())).toList();
        List<KernelEvents.Event> recent = e.recent().stream().map(r -> new KernelEvents.Event(r.seq(),
                r.timestampMillis(), r.bootMicros(), r.level(), r.kind(), r.severity(), label(r.device()),
                label(r.port()), HostText.text(r.text(), KernelEvents.MAX_TEXT_CHARS))).toList();
        return counts.equals(e.counts()) && recent.equals(e.recent()) ? k : new Frame.KernelEventsReport(
                new KernelEvents(e.tableVersion(), e.overwritten(), counts, recent));
    }

    static SourceStatus source(SourceStatus s) {
        return new SourceStatus(name(s.source()), name(s.subject()), s.success(),
                HostText.text(s.error(), WireLimits.MAX_TEXT_CHARS),
                HostText.text(s.unsupported(), WireLimits.MAX_TEXT_CHARS));
    }

    /**
     * The report's error, untimed reason (perftest's words) and output; only the last lines are kept, as the agent's
     * output tail keeps them.
     */
    static Frame.ProbeReport probeReport(Frame.ProbeReport r) {
        List<String> output = r.output();
        List<String> last = output.subList(Math.max(0, output.size() - WireLimits.MAX_PROBE_OUTPUT_LINES), output.size())
                .stream().map(line -> HostText.text(line, WireLimits.MAX_PROBE_OUTPUT_LINE_CHARS)).toList();
        String error = HostText.text(r.error(), WireLimits.MAX_TEXT_CHARS);
        LatencyResult latency = r.latency() == null || r.latency().untimed() == null ? r.latency()
                : new LatencyResult(r.latency().sizeBytes(), r.latency().iterations(), r.latency().rttNanos(),
                HostText.text(r.latency().untimed(), WireLimits.MAX_TEXT_CHARS));
        return last.equals(output) && java.util.Objects.equals(error, r.error())
                && java.util.Objects.equals(latency, r.latency()) ? r
                : new Frame.ProbeReport(r.probeId(), r.role(), r.phase(), r.tcpPort(), r.result(), latency,
                r.exitCode(), error, last);
    }

    /** A fabric part's node descriptions (chosen by each node's owner) and problems (tools' own words). */
    static Frame.Fabric fabric(Frame.Fabric f) {
        FabricSweep s = f.sweep();
        List<String> problems = s.problems().stream().limit(FabricWire.MAX_PROBLEMS)
                .map(p -> HostText.text(p, WireLimits.MAX_TEXT_CHARS)).toList();
        List<FabricNode> nodes = s.nodes().stream().map(n -> new FabricNode(n.guid(), n.type(),
                HostText.name(n.description(), FabricNode.MAX_DESCRIPTION_CHARS), n.ports())).toList();
        if (problems.equals(s.problems()) && nodes.equals(s.nodes())) {
            return f;
        }
        return new Frame.Fabric(f.part(), f.parts(), new FabricSweep(s.subnetPrefix(), s.smLid(), s.smGuid(),
                name(s.sweeper()), s.timeMillis(), s.durationMillis(), s.topology(), s.success(), problems, nodes));
    }

    private static HostLayout layout(HostLayout layout) {
        List<HostLayout.DeviceLayout> devices = layout.devices().stream().map(HostTextFrames::device).toList();
        return new HostLayout(devices, layout.ncclConf(), layout.topology());
    }

    private static HostLayout.DeviceLayout device(HostLayout.DeviceLayout d) {
        RdmaResources resources = d.resources();
        if (resources == null || resources.workloads().isEmpty()) {
            return d;
        }
        return new HostLayout.DeviceLayout(d.name(), d.nodeTypeId(), d.nodeType(), d.nodeGuid(), d.sysImageGuid(),
                d.fwVersion(), d.hcaType(), d.boardId(), d.ports(), d.pci(),
                resources.withWorkloads(resources.workloads().stream().map(HostTextFrames::workload).toList()));
    }

    static PortWorkload workload(PortWorkload w) {
        return new PortWorkload(w.port(), name(w.namespace()), name(w.pod()), name(w.container()), name(w.comm()),
                w.attribution(), name(w.reason()), w.qps());
    }

    private static String name(String text) {
        return HostText.name(text, WireLimits.MAX_NAME_CHARS);
    }

    /** A name that may be empty (a device-wide reporter's port, an unplaced record's device). */
    private static String label(String text) {
        return HostText.line(text, WireLimits.MAX_NAME_CHARS);
    }
}
