package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.NodeRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.store.NodeView;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.SourceStatus;

import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * agent_stale, two conditions: the store marks the node stale (no sample for {@code staleAfterIntervals} × its
 * interval; judged on the sweep, {@link #evaluate}), or a sample reports failed sources ({@link #failingSources},
 * judged per sample with the rule's hysteresis; unsupported ones are not failures). A node that never delivered a
 * sample is not stale.
 */
public final class AgentStale implements NodeRule {
    private static final int MAX_FAILURES_IN_EVIDENCE = 3;

    @Override
    public Rule id() {
        return Rule.AGENT_STALE;
    }

    @Override
    public Optional<Finding> evaluate(NodeView view, long nowMillis) {
        if (view.lastSample() == null || !view.stale()) {
            return Optional.empty();
        }
        double seconds = (nowMillis - view.lastSampleMillis()) / 1000.0;
        String evidence = String.format(Locale.ROOT, "no sample for %.0f s (the agent samples every %.1f s; last sample"
                        + " taken %s)", seconds, view.intervalMillis() / 1000.0,
                Instant.ofEpochMilli(view.lastSample().timestampMillis()));
        return Optional.of(new Finding(Rule.AGENT_STALE, evidence, Map.of("secondsWithoutSample", seconds)));
    }

    /**
     * The sources that failed in {@code sample} (the first few named); empty when none failed. A source the device
     * or kernel does not support (no DCB on a virtio NIC, no libibverbs) is how the node is, not a failing agent, and
     * does not count.
     */
    public Optional<Finding> failingSources(HostSample sample) {
        int failed = 0;
        StringJoiner text = new StringJoiner("; ");
        for (SourceStatus status : sample.sources()) {
            if (status.outcome() == SourceStatus.Outcome.FAILED) {
                if (failed++ < MAX_FAILURES_IN_EVIDENCE) {
                    text.add(status.source() + " " + status.subject() + " failed: " + status.error());
                }
            }
        }
        if (failed == 0) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Rule.AGENT_STALE, failed + " source(s) failing: " + text
                + (failed > MAX_FAILURES_IN_EVIDENCE ? "; …" : ""), Map.of("failingSources", (double) failed)));
    }
}
