package io.rdmamon.protocol.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmamon.protocol.json.StrictJson;
import io.rdmamon.protocol.model.NicHealthReporter;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code devlink-health} frame's body: {@code reporters}, each {@code device, port, handle, reporter, state,
 * errors, recovers} and, when the reporter has one, {@code grace} (milliseconds). More than
 * {@link NicHealthReporter#MAX_PER_HOST} reporters, or a state other than healthy and error, is refused.
 */
final class DevlinkHealthWire {
    private DevlinkHealthWire() {
    }

    static void write(ObjectNode json, List<NicHealthReporter> reporters) {
        ArrayNode array = json.putArray("reporters");
        for (NicHealthReporter r : reporters) {
            ObjectNode o = array.addObject().put("device", r.device()).put("port", r.port()).put("handle", r.handle())
                    .put("reporter", r.reporter()).put("state", r.state()).put("errors", r.errors())
                    .put("recovers", r.recovers());
            if (r.gracePeriodMillis() != null) {
                o.put("grace", r.gracePeriodMillis());
            }
        }
    }

    static List<NicHealthReporter> read(StrictJson f) throws FrameException {
        List<StrictJson> objects = f.objects("reporters");
        if (objects.size() > NicHealthReporter.MAX_PER_HOST) {
            throw new FrameException(f.path("reporters") + ": more than " + NicHealthReporter.MAX_PER_HOST
                    + " entries");
        }
        List<NicHealthReporter> reporters = new ArrayList<>(objects.size());
        for (StrictJson r : objects) {
            String state = r.string("state");
            if (!NicHealthReporter.HEALTHY.equals(state) && !NicHealthReporter.ERROR.equals(state)) {
                throw new FrameException(r.path("state") + ": expected healthy or error");
            }
            reporters.add(new NicHealthReporter(r.string("device"), r.string("port"), r.string("handle"),
                    r.string("reporter"), state, r.longValue("errors"), r.longValue("recovers"), r.optLong("grace")));
        }
        return reporters;
    }
}
