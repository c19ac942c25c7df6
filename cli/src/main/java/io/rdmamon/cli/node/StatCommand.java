package io.rdmamon.cli.node;

import io.rdmamon.agent.host.HostReader;
import io.rdmamon.cli.failure.CliFailure;
import io.rdmamon.protocol.model.IbDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.LocalTime;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

/** {@code rdmamon stat}: whole-device traffic, live, with a max/avg/min summary (like eadm stat). */
@Command(name = "stat",
        description = {"Device traffic (like eadm stat).",
                "Without -l: the device's counters now. With -l (or -t/-c, as `vmstat 1 3` reads): rx/tx B/s and"
                        + " p/s every interval, then (count reached or Ctrl-C) a max/avg/min table."})
public final class StatCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV", required = true, description = "RDMA device.")
    String device;

    @Option(names = {"-l", "--live"}, description = "Live traffic every interval, then a summary table;"
            + " implied by -t/--interval or -c/--count.")
    boolean live;

    @Mixin
    HostRootOption hostRoot;

    @Mixin
    IntervalOptions interval;

    @Override
    public Integer call() {
        HostReader reader = hostRoot.open();
        Subjects.requireDevice(reader, device);
        String node = NodeName.ofThisHost();
        IbDevice first = Subjects.find(reader.read(node), device);
        long baselineNanos = System.nanoTime();
        PrintWriter out = spec.commandLine().getOut();
        // an interval or a count only makes sense live: `stat -c 3` means three intervals, as `vmstat 1 3` does
        if (!live && !interval.given()) {
            EadmStatFormat.statistics(first).forEach(out::println);
            out.flush();
            return 0;
        }
        TrafficCounters baseline = TrafficCounters.of(first);
        if (baseline.isEmpty()) {
            throw CliFailure.runtime("device '" + device + "' has no traffic counters (neither hw_counters"
                    + " rx_bytes_cnt/tx_bytes_cnt nor counters/port_rcv_data/port_xmit_data)", null);
        }
        StatSession session = new StatSession(baseline);
        AtomicBoolean summarised = new AtomicBoolean();
        Runnable summary = () -> {
            if (summarised.compareAndSet(false, true)) {
                synchronized (out) {
                    EadmStatFormat.summary(device, session.intervals(), session.summaries()).forEach(out::println);
                    out.flush();
                }
            }
        };
        // Ctrl-C ends a run without a count: the summary is still printed, by the hook
        Thread hook = new Thread(summary, "rdmamon-stat-summary");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            synchronized (out) {
                out.println(EadmStatFormat.header());
                out.flush();
            }
            loop(reader, node, session, baselineNanos, out);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
                summary.run();
            } catch (IllegalStateException shuttingDown) {
                // the JVM is exiting and the hook prints the summary
            }
        }
        return 0;
    }

    private void loop(HostReader reader, String node, StatSession session, long baselineNanos, PrintWriter out) {
        IntervalOptions.Ticker ticker = interval.ticker();
        long previousNanos = baselineNanos;
        try {
            while (ticker.awaitNext()) {
                TrafficCounters current = TrafficCounters.of(Subjects.find(reader.read(node), device));
                long now = System.nanoTime();
                TrafficRates rates = session.update(current, (now - previousNanos) / 1e9);
                previousNanos = now;
                synchronized (out) {
                    out.println(EadmStatFormat.liveLine(LocalTime.now(), rates));
                    out.flush();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
