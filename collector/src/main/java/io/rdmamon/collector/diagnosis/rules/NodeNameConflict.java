package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.NodeRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.store.IngestIssues;
import io.rdmamon.collector.store.NodeView;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * node_name_conflict: the store refused a hello for the node's name, because a live connection held it, within
 * the last {@link #WINDOW}. Judged on the sweep; needs no sample of the node.
 */
public final class NodeNameConflict implements NodeRule {
    /** The condition holds while a hello for the node's name was refused within this window. */
    public static final Duration WINDOW = Duration.ofMinutes(10);

    @Override
    public Rule id() {
        return Rule.NODE_NAME_CONFLICT;
    }

    @Override
    public Optional<Finding> evaluate(NodeView view, long nowMillis) {
        IngestIssues issues = view.issues();
        if (issues.nameConflicts() == 0 || nowMillis - issues.lastConflictMillis() > WINDOW.toMillis()) {
            return Optional.empty();
        }
        String evidence = String.format(Locale.ROOT, "%d hello(s) for this node name refused while a live "
                + "connection held it; last at %s: %s", issues.nameConflicts(),
                Instant.ofEpochMilli(issues.lastConflictMillis()), issues.lastConflict());
        return Optional.of(new Finding(Rule.NODE_NAME_CONFLICT, evidence,
                Map.of("refusedHellos", (double) issues.nameConflicts())));
    }
}
