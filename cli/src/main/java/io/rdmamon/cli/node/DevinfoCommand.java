package io.rdmamon.cli.node;

import io.rdmamon.agent.host.HostReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code rdmamon devinfo}: the {@code ibv_devinfo} of rdmamon, read from sysfs. */
@Command(name = "devinfo",
        description = "Devices and ports: state, rate, link layer, firmware, GID count, netdev (like ibv_devinfo), and"
                + " the switch port each Ethernet port is cabled to (its LLDP neighbour).")
public final class DevinfoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    HostRootOption hostRoot;

    @Mixin
    DeviceFilterOption deviceFilter;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    @Override
    public Integer call() {
        HostReader reader = deviceFilter.open(hostRoot);
        var devices = Subjects.select(reader.read(NodeName.ofThisHost()), deviceFilter.device());
        var out = spec.commandLine().getOut();
        if (json) {
            out.println(JsonOutput.write(DevinfoFormat.info(devices)));
        } else {
            out.print(DevinfoFormat.text(devices));
        }
        out.flush();
        return 0;
    }
}
