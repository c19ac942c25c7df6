package io.rdmamon.collector.diagnosis;

import io.rdmamon.protocol.model.KernelEvents;

import java.util.HashMap;
import java.util.Map;

/**
 * What the kernel log said about one port between two samples: how much each kind's count rose, and the kernel's
 * latest line of that kind on the port (the evidence). A count lower than before (a new agent run) is a new baseline,
 * and a first report is one too: an event counts when it happens while the collector watches.
 *
 * @param risen    kind → increase since the previous sample (only kinds that rose)
 * @param lastLine kind → the newest record text of that kind on the port the agent still keeps; absent when it has none
 */
public record KernelNews(Map<String, Long> risen, Map<String, String> lastLine) {
    public static final KernelNews NONE = new KernelNews(Map.of(), Map.of());

    public KernelNews {
        risen = Map.copyOf(risen);
        lastLine = Map.copyOf(lastLine);
    }

    /** The news of {@code device} port {@code port} from {@code before} (the previous sample's) to {@code now}. */
    public static KernelNews of(KernelEvents before, KernelEvents now, String device, int port) {
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
        return new KernelNews(risen, lastLine);
    }

    /** Kind → count on {@code device} port {@code port} (a kind counted under several severities: summed). */
    private static Map<String, Long> totals(KernelEvents events, String device, String port) {
        Map<String, Long> totals = new HashMap<>();
        events.counts().stream().filter(c -> c.device().equals(device) && c.port().equals(port))
                .forEach(c -> totals.merge(c.kind(), c.total(), Long::sum));
        return totals;
    }
}
