package io.rdmamon.cli.node;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.cli.failure.CliFailure;
import io.rdmamon.protocol.model.HostSample;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code rdmamon sample}: one full snapshot of the host, as the agent would send it. */
@Command(name = "sample", description = "One full snapshot of this host, as the agent would send it.")
public final class SampleCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    HostRootOption hostRoot;

    @Option(names = "--node", paramLabel = "NAME", description = "Node name to report as (default: this host's name).")
    String node;

    @Option(names = "--json", description = "Print the snapshot as JSON (counters as numbers, data counters in bytes).")
    boolean json;

    @Override
    public Integer call() {
        if (node != null && node.isBlank()) {
            throw CliFailure.badInput("--node must not be blank");
        }
        HostReader reader = hostRoot.open();
        RegularCaptures.requireForSample(reader);
        HostSample sample = reader.read(node != null ? node : NodeName.ofThisHost());
        var out = spec.commandLine().getOut();
        if (json) {
            out.println(JsonOutput.write(sample));
        } else {
            out.print(SampleSummaryFormat.text(sample));
        }
        out.flush();
        return 0;
    }
}
