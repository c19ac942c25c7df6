package io.rdmamon.cli.node;

import io.rdmamon.agent.host.HostReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code rdmamon gids}: the GID table in {@code show_gids} layout. */
@Command(name = "gids",
        description = "GID table: index, GID, IPv4, RoCE version, netdev; n_gids_found=N (like show_gids).")
public final class GidsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    HostRootOption hostRoot;

    @Mixin
    DeviceFilterOption deviceFilter;

    @Override
    public Integer call() {
        HostReader reader = deviceFilter.open(hostRoot);
        var out = spec.commandLine().getOut();
        out.print(ShowGidsFormat.table(Subjects.select(reader.read(NodeName.ofThisHost()), deviceFilter.device())));
        out.flush();
        return 0;
    }
}
