package io.rdmamon.cli.node;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@code rdmamon sample} without {@code --json}: a few lines saying what a full read found. Pure: no I/O. */
public final class SampleSummaryFormat {
    private SampleSummaryFormat() {
    }

    public static String text(HostSample sample) {
        long ok = sample.sources().stream().filter(SourceStatus::success).count();
        StringBuilder out = new StringBuilder();
        out.append("node ").append(sample.node())
                .append(", read ").append(Instant.ofEpochMilli(sample.timestampMillis()))
                .append(": ").append(count(sample.devices().size(), "device"))
                .append(", ").append(ok).append('/').append(sample.sources().size()).append(" sources ok\n");
        for (IbDevice device : sample.devices()) {
            for (IbPort port : device.ports()) {
                out.append(device.name()).append(" port ").append(port.port()).append(": ")
                        .append(String.join(", ", portFacts(port))).append('\n');
            }
        }
        statuses(out, sample, SourceStatus.Outcome.FAILED, "source failures:");
        // ok in the count above (nothing failed), listed so that a missing capability is not mistaken for none read
        statuses(out, sample, SourceStatus.Outcome.UNSUPPORTED, "not supported by the device or kernel:");
        return out.toString();
    }

    private static void statuses(StringBuilder out, HostSample sample, SourceStatus.Outcome outcome, String title) {
        List<SourceStatus> matching = sample.sources().stream().filter(s -> s.outcome() == outcome).toList();
        if (!matching.isEmpty()) {
            out.append(title).append('\n');
            for (SourceStatus s : matching) {
                out.append("  ").append(s.source()).append(' ').append(s.subject()).append(": ")
                        .append(s.reason()).append('\n');
            }
        }
    }

    private static List<String> portFacts(IbPort port) {
        List<String> facts = new ArrayList<>();
        addIfPresent(facts, port.state());
        addIfPresent(facts, port.physState());
        addIfPresent(facts, port.rate());
        addIfPresent(facts, port.linkLayer());
        if (port.netdev() != null) {
            facts.add("netdev " + port.netdev());
        }
        facts.add(count(port.counters().size(), "counter"));
        facts.add(count(port.hwCounters().size(), "hw counter"));
        facts.add(count(port.gids().size(), "GID"));
        if (port.ethtool() != null) {
            facts.add(count(port.ethtool().raw().size(), "ethtool stat"));
            if (!port.ethtool().pfcEnabledPriorities().isEmpty()) {
                facts.add("PFC on priorities " + port.ethtool().pfcEnabledPriorities());
            }
        }
        return facts;
    }

    private static void addIfPresent(List<String> facts, String value) {
        if (value != null) {
            facts.add(value);
        }
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
