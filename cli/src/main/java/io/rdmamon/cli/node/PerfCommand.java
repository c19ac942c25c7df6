package io.rdmamon.cli.node;

import io.rdmamon.agent.host.HostReader;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code rdmamon perf}: per-second counter rates in {@code mlnx_perf} layout. */
@Command(name = "perf",
        description = {"Per-second rates of every counter that moved, with Bps/Mbps for byte counters and"
                + " per-priority transmit shares (like mlnx_perf).",
                "-i IF watches the netdev's ethtool statistics; -d DEV the device's port counters,"
                        + " hw_counters and its netdev's ethtool statistics."})
public final class PerfCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    @Mixin
    HostRootOption hostRoot;

    @Mixin
    IntervalOptions interval;

    static final class Target {
        @Option(names = {"-i", "--interface"}, paramLabel = "IF", required = true,
                description = "Netdev whose ethtool statistics to watch.")
        String netdev;

        @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV", required = true,
                description = "RDMA device whose counters (and netdev's ethtool statistics) to watch.")
        String device;
    }

    @FunctionalInterface
    private interface CounterRead {
        PerfCounters read() throws IOException;
    }

    @Override
    public Integer call() throws IOException {
        HostReader reader = hostRoot.open();
        CounterRead read;
        if (target.netdev != null) {
            Subjects.requireNetdev(reader, target.netdev);
            read = () -> PerfCounters.ofNetdev(reader.readNetdev(target.netdev));
        } else {
            Subjects.requireDevice(reader, target.device);
            String node = NodeName.ofThisHost();
            read = () -> PerfCounters.ofDevice(Subjects.find(reader.read(node), target.device));
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(MlnxPerfFormat.START);
        out.flush();
        PerfCounters previous = read.read();
        long previousNanos = System.nanoTime();
        out.println(MlnxPerfFormat.SAMPLING);
        out.flush();
        IntervalOptions.Ticker ticker = interval.ticker();
        try {
            while (ticker.awaitNext()) {
                PerfCounters current = read.read();
                long now = System.nanoTime();
                double seconds = MlnxPerfFormat.intervalSeconds(previous.values(), current.values(),
                        (now - previousNanos) / 1e9);
                Map<String, Double> rates = current.ratesSince(previous, seconds);
                MlnxPerfFormat.interval(rates, current.byteCounters()::contains).forEach(out::println);
                out.flush();
                previous = current;
                previousNanos = now;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }
}
