package io.rdmamon.protocol.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmamon.protocol.json.StrictJson;
import io.rdmamon.protocol.model.KernelEvents;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code kernel-events} frame's body: {@code table}, {@code overwritten}, {@code counts}
 * ({@code kind, severity, device, port, total}) and {@code recent}
 * ({@code seq, ts, boot, level, kind, severity, device, port, text}). A body above the agent's bounds
 * ({@link KernelEvents#MAX_COUNTS}, {@link KernelEvents#MAX_RECENT}, {@link KernelEvents#MAX_TEXT_CHARS}) is refused.
 */
final class KernelEventsWire {
    private KernelEventsWire() {
    }

    static void write(ObjectNode json, KernelEvents events) {
        json.put("table", events.tableVersion()).put("overwritten", events.overwritten());
        ArrayNode counts = json.putArray("counts");
        for (KernelEvents.Count c : events.counts()) {
            counts.addObject().put("kind", c.kind()).put("severity", c.severity()).put("device", c.device())
                    .put("port", c.port()).put("total", c.total());
        }
        ArrayNode recent = json.putArray("recent");
        for (KernelEvents.Event e : events.recent()) {
            recent.addObject().put("seq", e.seq()).put("ts", e.timestampMillis()).put("boot", e.bootMicros())
                    .put("level", e.level()).put("kind", e.kind()).put("severity", e.severity())
                    .put("device", e.device()).put("port", e.port()).put("text", e.text());
        }
    }

    static KernelEvents read(StrictJson f) throws FrameException {
        List<StrictJson> countObjects = bounded(f.objects("counts"), KernelEvents.MAX_COUNTS, f.path("counts"));
        List<StrictJson> recentObjects = bounded(f.objects("recent"), KernelEvents.MAX_RECENT, f.path("recent"));
        List<KernelEvents.Count> counts = new ArrayList<>(countObjects.size());
        for (StrictJson c : countObjects) {
            counts.add(new KernelEvents.Count(c.string("kind"), c.string("severity"), c.string("device"),
                    c.string("port"), c.longValue("total")));
        }
        List<KernelEvents.Event> recent = new ArrayList<>(recentObjects.size());
        for (StrictJson e : recentObjects) {
            String text = e.string("text");
            if (text.length() > KernelEvents.MAX_TEXT_CHARS) {
                throw new FrameException(e.path("text") + ": longer than " + KernelEvents.MAX_TEXT_CHARS);
            }
            recent.add(new KernelEvents.Event(e.longValue("seq"), e.longValue("ts"), e.longValue("boot"),
                    e.integer("level"), e.string("kind"), e.string("severity"), e.string("device"), e.string("port"),
                    text));
        }
        return new KernelEvents(f.integer("table"), f.longValue("overwritten"), counts, recent);
    }

    private static <T> List<T> bounded(List<T> list, int max, String path) throws FrameException {
        if (list.size() > max) {
            throw new FrameException(path + ": more than " + max + " entries");
        }
        return list;
    }
}
