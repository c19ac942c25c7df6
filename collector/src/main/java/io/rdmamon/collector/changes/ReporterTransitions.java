package io.rdmamon.collector.changes;

import io.rdmamon.protocol.model.NicHealthReporter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The devlink health reporters' transitions between two samples of a node: healthy → error (critical for
 * {@code fw_fatal}, whose error stops the device, warning for the others) and error → healthy (info). A reporter
 * either sample lacks (a driver reload, the first report) is no transition. Pure.
 */
final class ReporterTransitions {
    private static final String FW_FATAL = "fw_fatal";

    private ReporterTransitions() {
    }

    static List<Change> between(String node, List<NicHealthReporter> before, List<NicHealthReporter> after,
                                long timeMillis) {
        if (before == null || after == null) {
            return List.of();
        }
        Map<String, NicHealthReporter> was = new HashMap<>();
        before.forEach(r -> was.put(r.handle() + " " + r.reporter(), r));
        List<Change> changes = new ArrayList<>();
        for (NicHealthReporter now : after) {
            NicHealthReporter then = was.get(now.handle() + " " + now.reporter());
            if (then == null || then.inError() == now.inError()) {
                continue;
            }
            ChangeSeverity severity = !now.inError() ? ChangeSeverity.INFO
                    : FW_FATAL.equals(now.reporter()) ? ChangeSeverity.CRITICAL : ChangeSeverity.WARNING;
            changes.add(new Change(timeMillis, node, now.device().isEmpty() ? null : now.device(),
                    ChangeTracker.portNumber(now.port()), ChangeKind.DEVLINK_REPORTER, severity,
                    "devlink health " + now.handle() + " reporter " + now.reporter() + ": " + then.state() + " → "
                            + now.state() + " (errors " + now.errors() + ", recovers " + now.recovers() + ")"));
        }
        return changes;
    }
}
