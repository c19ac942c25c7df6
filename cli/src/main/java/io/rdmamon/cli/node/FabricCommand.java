package io.rdmamon.cli.node;

import io.rdmamon.agent.fabric.DiagsFabricReader;
import io.rdmamon.agent.fabric.FabricOptions;
import io.rdmamon.cli.failure.CliFailure;
import io.rdmamon.protocol.fabric.FabricSweep;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code rdmamon fabric}: the InfiniBand subnet seen from this host, as {@code iblinkinfo} and {@code ibqueryerrors}
 * show it: every node, every link by both ends with its width, speed and state, and every port's PMA counters.
 */
@Command(name = "fabric",
        description = "The InfiniBand subnet seen from this host over MADs (docs/fabric.md): every node, every link "
                + "named by both ends with its width, speed and state (and what it could be), and every port's PMA "
                + "counters (like iblinkinfo, ibqueryerrors and perfquery). Runs infiniband-diags' ibnetdiscover, "
                + "iblinkinfo, smpquery and ibqueryerrors, which need access to /dev/infiniband/umad* (root, or "
                + "the rdma group) and a subnet manager that assigned LIDs.")
public final class FabricCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print the sweep as JSON (the fabric frame's model) instead of text.")
    boolean json;

    @Option(names = "--errors", description = "Only the ports with an error counter (or PortXmitWait) above 0, "
            + "like ibqueryerrors.")
    boolean errors;

    @Option(names = {"-C", "--ca"}, paramLabel = "CA", description = "The local HCA to sweep from (default: the "
            + "tools' own, the first active one).")
    String ca;

    @Option(names = {"-P", "--port"}, paramLabel = "PORT", description = "Its port (default: the tools' own).")
    Integer port;

    @Option(names = "--timeout", paramLabel = "MS", defaultValue = "30000", converter = MillisConverter.class,
            description = "Deadline of each diags tool in milliseconds; one still running is killed (default: "
                    + "${DEFAULT-VALUE}).")
    long timeoutMillis;

    @Override
    public Integer call() {
        if (port != null && (port < 1 || port > 254)) {
            throw CliFailure.badInput("--port " + port + ": must be 1..254");
        }
        FabricOptions options = new FabricOptions(ca, port, Duration.ofMillis(timeoutMillis),
                FabricOptions.DEFAULT_COUNTER_INTERVAL, FabricOptions.DEFAULT_TOPOLOGY_INTERVAL, Map.of());
        FabricSweep sweep;
        try {
            sweep = new DiagsFabricReader(options, Clock.systemUTC()).sweep(NodeName.ofThisHost(), true);
        } catch (IOException e) {
            throw CliFailure.runtime("fabric: " + e.getMessage(), e);
        }
        var out = spec.commandLine().getOut();
        // the text's summary line counts the whole fabric; JSON holds only what is asked for
        out.print(json ? JsonOutput.write(errors ? FabricFormat.errorsOnly(sweep) : sweep) + "\n"
                : FabricFormat.text(sweep, errors));
        out.flush();
        sweep.problems().forEach(spec.commandLine().getErr()::println);
        return 0;
    }
}
