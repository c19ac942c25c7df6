package io.rdmamon.collector.live;

import io.rdmamon.collector.json.StreamingJson;
import io.rdmamon.collector.model.PortKey;

import java.util.List;

/** The JSON of a {@code port} event. */
final class PortEvent {
    private PortEvent() {
    }

    /**
     * {@code {key, reset, timestamps:[…], series:{name:[…]}, moved:[[group, name, perSecond, bytes]]}}; a series
     * that is unknown (NaN) at every point of the slice is left out, NaN points are null.
     */
    static String json(PortKey key, boolean reset, PortHistory.Slice slice, List<MovedCounter> moved) {
        List<String> names = DetailSeries.names();
        return StreamingJson.write(g -> {
            g.writeStartObject();
            g.writeStringField("key", key.toString());
            g.writeBooleanField("reset", reset);
            g.writeArrayFieldStart("timestamps");
            for (long ts : slice.timestamps()) {
                g.writeNumber(ts);
            }
            g.writeEndArray();
            g.writeObjectFieldStart("series");
            for (int s = 0; s < names.size(); s++) {
                float[] values = slice.values()[s];
                if (allNaN(values)) {
                    continue;
                }
                g.writeArrayFieldStart(names.get(s));
                for (float v : values) {
                    if (Float.isNaN(v)) {
                        g.writeNull();
                    } else {
                        g.writeNumber(v);
                    }
                }
                g.writeEndArray();
            }
            g.writeEndObject();
            g.writeArrayFieldStart("moved");
            for (MovedCounter counter : moved) {
                g.writeStartArray();
                g.writeString(counter.group().name().toLowerCase(java.util.Locale.ROOT));
                g.writeString(counter.name());
                g.writeNumber(counter.perSecond());
                g.writeBoolean(counter.bytes());
                g.writeEndArray();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    private static boolean allNaN(float[] values) {
        for (float v : values) {
            if (!Float.isNaN(v)) {
                return false;
            }
        }
        return true;
    }
}
