package io.rdmamon.cli.node;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.nccl.NcclAdvice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * {@code rdmamon nccl-env}: the NCCL settings that match this host ({@link NcclAdvice}) as {@code export} lines with a
 * {@code #} reason each and a {@code #} line per port left out (not ACTIVE, or RoCE without a RoCE v2 IPv4 GID), then
 * the {@code /etc/nccl.conf} values that contradict the ports NCCL uses under that file as {@code # mismatch:} lines.
 */
@Command(name = "nccl-env",
        description = "export NCCL_IB_HCA / NCCL_IB_GID_INDEX / NCCL_IB_TC / NCCL_SOCKET_IFNAME lines that match this "
                + "host's ports, GIDs and QoS configuration, each with a # reason; a # line per port left out (not "
                + "ACTIVE, or no RoCE v2 IPv4 GID: why, and the fix); /etc/nccl.conf values that contradict the ports "
                + "NCCL uses under it follow as '# mismatch:' lines.")
public final class NcclEnvCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    HostRootOption hostRoot;

    @Mixin
    DeviceFilterOption deviceFilter;

    @Option(names = "--json", description = "The advice as JSON: settings (name, value, reason), export, leftOut, ncclConfMismatches, gpuLocality.")
    boolean json;

    @Override
    public Integer call() {
        HostReader reader = deviceFilter.open(hostRoot);
        RegularCaptures.requireForSample(reader);
        HostSample sample = reader.read(NodeName.ofThisHost());
        NcclAdvice advice = NcclAdvice.of(sample, deviceFilter.device(), null);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(JsonOutput.write(new Json(advice.settings(), advice.exportLines(), advice.leftOut(),
                    advice.mismatches(), advice.locality())));
        } else {
            advice.exportLines().forEach(out::println);
            advice.mismatches().forEach(m -> out.println("# mismatch: " + m));
        }
        out.flush();
        return 0;
    }

    /** The {@code --json} shape, as {@code GET /api/nodes/{node}/nccl} has it. */
    record Json(java.util.List<NcclAdvice.Setting> settings, java.util.List<String> export,
                java.util.List<String> leftOut, java.util.List<String> ncclConfMismatches,
                java.util.List<String> gpuLocality) {
    }
}
