package io.rdmamon.collector.diagnosis;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.model.NicHealthReporter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the kernel said about one port between two samples: how much each kind's count in its log rose, the kernel's
 * latest line of that kind on the port (the evidence), and the port's devlink health reporters. A count lower than
 * before (a new agent run, a driver reload) is a new baseline, and a first report is one too: an event counts when it
 * happens while the collector watches.
 *
 * @param risen     kind → increase since the previous sample (only kinds that rose)
 * @param lastLine  kind → the newest record text of that kind on the port the agent still keeps; absent when it has none
 * @param reporters the devlink health reporters of the port and of its device, in the agent's order
 */
public record KernelNews(Map<String, Long> risen, Map<String, String> lastLine, List<Reporter> reporters) {
    public static final KernelNews NONE = new KernelNews(Map.of(), Map.of(), List.of());

    public KernelNews {
        risen = Map.copyOf(risen);
        lastLine = Map.copyOf(lastLine);
        reporters = List.copyOf(reporters);
    }

    /**
     * One devlink health reporter now, and how much its error count rose since the previous sample (0 on a first
     * report or a lower count).
     */
    public record Reporter(NicHealthReporter now, long errorsRisen) {
    }

    /** The news of {@code device} port {@code port} from {@code before} (the previous sample, or null) to {@code now}. */
    public static KernelNews of(HostSample before, HostSample now, String device, int port) {
        KernelNews logged = of(before == null ? null : before.kernel(), now.kernel(), device, port);
        List<Reporter> reporters = reporters(before == null ? null : before.health(), now.health(), device, port);
        return reporters.isEmpty() ? logged : new KernelNews(logged.risen, logged.lastLine, reporters);
    }

    private static List<Reporter> reporters(List<NicHealthReporter> before, List<NicHealthReporter> now, String device,
                                            int port) {
        if (now == null) {
            return List.of();
        }
        String portText = Integer.toString(port);
        Map<String, Long> was = new HashMap<>();
        if (before != null) {
            before.forEach(r -> was.put(r.handle() + " " + r.reporter(), r.errors()));
        }
        List<Reporter> reporters = new ArrayList<>();
        for (NicHealthReporter r : now) {
            if (r.device().equals(device) && (r.port().isEmpty() || r.port().equals(portText))) {
                Long errorsBefore = was.get(r.handle() + " " + r.reporter());
                long risen = errorsBefore == null || r.errors() < errorsBefore ? 0 : r.errors() - errorsBefore;
                reporters.add(new Reporter(r, risen));
            }
        }
        return reporters;
    }

    /** The log's news of {@code device} port {@code port} from {@code before} (the previous sample's) to {@code now}. */
    static KernelNews of(KernelEvents before, KernelEvents now, String device, int port) {
        if (before == null || now == null) {
            return NONE;
        }
        String portText = Integer.toString(port);
        Map<String, Long> was = totals(before, device, portText);
        Map<String, Long> is = totals(now, device, portText);
        Map<String, Long> risen = new HashMap<>();
        is.forEach((kind, total) -> {
            long from = was.getOrDefault(kind, 0L);
            if (total > from) {
                risen.put(kind, total - from);
            }
        });
        if (risen.isEmpty()) {
            return NONE;
        }
        Map<String, String> lastLine = new HashMap<>();
        for (KernelEvents.Event e : now.recent()) {
            if (e.device().equals(device) && e.port().equals(portText) && risen.containsKey(e.kind())) {
                lastLine.put(e.kind(), e.text());
            }
        }
        return new KernelNews(risen, lastLine, List.of());
    }

    /** Kind → count on {@code device} port {@code port} (a kind counted under several severities: summed). */
    private static Map<String, Long> totals(KernelEvents events, String device, String port) {
        Map<String, Long> totals = new HashMap<>();
        events.counts().stream().filter(c -> c.device().equals(device) && c.port().equals(port))
                .forEach(c -> totals.merge(c.kind(), c.total(), Long::sum));
        return totals;
    }
}
