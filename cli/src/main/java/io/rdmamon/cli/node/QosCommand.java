package io.rdmamon.cli.node;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.cli.failure.CliFailure;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PortTransport;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.SourceStatus;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code rdmamon qos}: a RoCE port's QoS configuration in {@code mlnx_qos -i IF} layout. */
@Command(name = "qos",
        description = {"QoS configuration of RoCE ports: DCBX mode, trust state, DSCP->priority map, buffers, PFC per"
                + " priority, ETS traffic classes (like mlnx_qos -i IF), plus MLNX_OFED ECN and the RoCE ToS where known.",
                "Under a host root the DCB part comes from dcb/<if>/*.json (dcb -j captures)."})
public final class QosCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    @Mixin
    HostRootOption hostRoot;

    @Option(names = "--json", description = "Print JSON: the configuration of -i IF; with -d DEV an array of"
            + " {port, netdev, qos}.")
    boolean json;

    static final class Target {
        @Option(names = {"-i", "--interface"}, paramLabel = "IF", required = true,
                description = "Netdev of a RoCE port.")
        String netdev;

        @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV", required = true,
                description = "RDMA device: each of its RoCE ports.")
        String device;
    }

    /** One port's answer, as {@code --json} prints it with {@code -d}. */
    record PortQos(int port, String netdev, QosConfig qos) {
    }

    @Override
    public Integer call() {
        HostReader reader = hostRoot.open();
        if (target.netdev != null) {
            Subjects.requireNetdev(reader, target.netdev);
        } else {
            Subjects.requireDevice(reader, target.device);
        }
        HostSample sample = reader.read(NodeName.ofThisHost());
        Map<String, List<PortQos>> byDevice = new LinkedHashMap<>();
        List<String> roceNetdevs = new ArrayList<>();
        for (IbDevice device : sample.devices()) {
            for (IbPort port : device.ports()) {
                if (port.netdev() == null || PortTransport.of(device, port) != PortTransport.ROCE) {
                    continue;
                }
                roceNetdevs.add(port.netdev());
                boolean wanted = target.netdev != null ? port.netdev().equals(target.netdev)
                        : device.name().equals(target.device);
                if (wanted) {
                    byDevice.computeIfAbsent(device.name(), d -> new ArrayList<>())
                            .add(new PortQos(port.port(), port.netdev(), requireQos(sample, port.netdev(), port)));
                }
            }
        }
        if (byDevice.isEmpty()) {
            String subject = target.netdev != null ? "interface '" + target.netdev + "' is not the netdev of a RoCE port"
                    : "device '" + target.device + "' has no RoCE port with a netdev";
            throw CliFailure.badInput(subject + " (RoCE netdevs: "
                    + (roceNetdevs.isEmpty() ? "none" : String.join(", ", roceNetdevs)) + ")");
        }
        // parts that were not read (e.g. `dcb pfc show` unsupported) are printed as such; say why on stderr
        PrintWriter err = spec.commandLine().getErr();
        byDevice.values().stream().flatMap(List::stream).forEach(p -> sample.sources().stream()
                .filter(s -> s.source().equals("qos") && s.subject().equals(p.netdev()) && s.reason() != null)
                .forEach(s -> err.println("rdmamon qos: " + (s.success() ? "note: " : "warning: ") + s.reason())));
        err.flush();
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            List<PortQos> ports = byDevice.values().stream().flatMap(List::stream).toList();
            out.println(JsonOutput.write(target.netdev != null ? ports.get(0).qos() : ports));
        } else if (target.netdev != null) {
            out.print(MlnxQosFormat.text(byDevice.values().iterator().next().get(0).qos()));
        } else {
            byDevice.forEach((device, ports) -> ports.forEach(p -> {
                out.println(device + " port " + p.port() + " (" + p.netdev() + "):");
                out.print(MlnxQosFormat.text(p.qos()));
            }));
        }
        out.flush();
        return 0;
    }

    /** The port's configuration, or exit 1 with the reason the reader gave (e.g. no DCB support on a VF). */
    private static QosConfig requireQos(HostSample sample, String netdev, IbPort port) {
        if (port.qos() != null) {
            return port.qos();
        }
        String reason = sample.sources().stream()
                .filter(s -> s.source().equals("qos") && s.subject().equals(netdev) && s.reason() != null)
                .map(SourceStatus::reason).findFirst()
                .orElse(netdev + ": no QoS configuration captured (no dcb/" + netdev + "/ under the host root)");
        throw CliFailure.runtime(reason, null);
    }
}
