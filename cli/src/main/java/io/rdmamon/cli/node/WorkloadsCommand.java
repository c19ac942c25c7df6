package io.rdmamon.cli.node;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.agent.workload.KubeletPodDirectory;
import io.rdmamon.cli.failure.CliFailure;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PortWorkload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import io.vertx.core.Vertx;

/** {@code rdmamon workloads}: who holds the QPs of each port, and how each owner was found (docs/workloads.md). */
@Command(name = "workloads",
        description = "Processes, containers and pods that own QPs on each port, and how each was attributed "
                + "(device: an SR-IOV VF or a DRA-claimed NIC the kubelet gave to a pod; process: through its cgroup; none: the reason says why), at most 8 per port and the rest summed "
                + "(like rdma resource show qp, grouped by owner). Needs RDMA netlink: --host-root / on a live host; "
                + "see docs/workloads.md for hostPID and /proc.")
public final class WorkloadsCommand implements Callable<Integer> {
    /** What a device without RDMA netlink resources prints. */
    static final String NOT_READ = "no QPs read (RDMA netlink is read on a live host only, --host-root /, with a "
            + "kernel that has it; the agent's rdma-netlink source status says why)";

    @Spec
    CommandSpec spec;

    @Mixin
    HostRootOption hostRoot;

    @Mixin
    DeviceFilterOption deviceFilter;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    @Mixin
    PodResourcesOption podResources;

    /** One port's workloads; {@code workloads} null when the device's QPs were not read. */
    public record Report(String device, int port, List<PortWorkload> workloads) {
    }

    @Override
    public Integer call() {
        HostReader reader = deviceFilter.open(hostRoot);
        List<IbDevice> devices = Subjects.select(withPods(reader).read(NodeName.ofThisHost()), deviceFilter.device());
        var out = spec.commandLine().getOut();
        if (json) {
            out.println(JsonOutput.write(reports(devices)));
        } else {
            reports(devices).forEach(r -> out.print(text(r)));
        }
        out.flush();
        return 0;
    }

    /** {@code reader} naming the VFs' pods from one pod-resources List (its failure becomes the reason). */
    private HostReader withPods(HostReader reader) {
        podResources.validate();
        if (!podResources.reads(reader)) {
            return reader; // a captured root or both sources off: no event loop to start
        }
        Vertx vertx = Vertx.vertx();
        try {
            KubeletPodDirectory pods = podResources.open(vertx, reader);
            pods.refresh().await(30, TimeUnit.SECONDS);
            return reader.withPodDirectory(pods);
        } catch (TimeoutException e) {
            throw CliFailure.runtime(podResources.describe() + ": not read within 30 s", e);
        } finally {
            vertx.close();
        }
    }

    static List<Report> reports(List<IbDevice> devices) {
        List<Report> reports = new ArrayList<>();
        for (IbDevice d : devices) {
            for (IbPort p : d.ports()) {
                reports.add(new Report(d.name(), p.port(),
                        d.resources() == null ? null : d.resources().workloadsOn(p.port())));
            }
        }
        return reports;
    }

    /** {@code dev/port} and one line per workload: QPs, attribution, namespace/pod, container, comm, reason. */
    static String text(Report report) {
        StringBuilder text = new StringBuilder(report.device()).append('/').append(report.port());
        if (report.workloads() == null) {
            return text.append('\t').append(NOT_READ).append('\n').toString();
        }
        if (report.workloads().isEmpty()) {
            return text.append("\tno QPs\n").toString();
        }
        text.append("\n\tQPS\tATTRIBUTION\tNAMESPACE/POD\tCONTAINER\tCOMM\tREASON\n");
        for (PortWorkload w : report.workloads()) {
            String pod = w.pod() == null ? "-" : w.namespace() == null ? w.pod() : w.namespace() + "/" + w.pod();
            text.append('\t').append(w.qps()).append('\t').append(w.attribution()).append('\t').append(pod)
                    .append('\t').append(orDash(w.container())).append('\t').append(orDash(w.comm())).append('\t')
                    .append(orDash(w.reason())).append('\n');
        }
        return text.toString();
    }

    private static String orDash(String value) {
        return value == null ? "-" : value;
    }
}
