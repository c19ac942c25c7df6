package io.rdmamon.agent.devlink;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.nativeio.devlink.HealthReporter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The stdout of {@code devlink -j health show}, as iproute2 prints it (devlink/devlink.c {@code pr_out_health}): one
 * {@code health} object whose keys are devlink handles ({@code pci/0000:3b:00.0}, or {@code pci/0000:3b:00.0/65535}
 * for a port's reporters) and whose values are arrays of reporters, each with {@code reporter}, {@code state}
 * ({@code healthy}, {@code error}), {@code error}, {@code recover} and, when the kernel sends them,
 * {@code grace_period} (ms), {@code auto_recover}, {@code auto_dump}, {@code last_dump_date}/{@code _time},
 * {@code burst_period}. The first iproute2 to print it (v5.0) named the reporter {@code name}; that is read too. Keys
 * it does not know are ignored (newer iproute2 adds some); a missing count is 0; a reporter
 * without a name, or with a state iproute2 prints for one it does not know ({@code <unknown state>}), is skipped.
 * Pure.
 */
public final class DevlinkHealthJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private DevlinkHealthJson() {
    }

    /**
     * The reporters of {@code json}, in file order.
     *
     * @param file what the text is, named in the error ({@code devlink/health.json})
     * @throws IOException naming {@code file} and what is wrong when the text is not JSON or not of this shape
     */
    public static List<HealthReporter> parse(String json, String file) throws IOException {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JacksonException e) {
            throw new IOException(file + ": not JSON: " + e.getOriginalMessage(), e);
        }
        JsonNode health = root == null ? null : root.get("health");
        if (health == null || !health.isObject()) {
            throw new IOException(file + ": expected an object with a \"health\" object (devlink -j health show)");
        }
        List<HealthReporter> reporters = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = health.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            Handle handle = Handle.parse(entry.getKey(), file);
            if (!entry.getValue().isArray()) {
                throw new IOException(file + ": health." + entry.getKey() + ": expected an array of reporters");
            }
            for (JsonNode r : entry.getValue()) {
                HealthReporter reporter = reporter(handle, r);
                if (reporter != null) {
                    reporters.add(reporter);
                }
            }
        }
        return reporters;
    }

    private static HealthReporter reporter(Handle handle, JsonNode r) {
        String name = text(r, "reporter") != null ? text(r, "reporter") : text(r, "name");
        String state = text(r, "state");
        boolean known = HealthReporter.HEALTHY.equals(state) || HealthReporter.ERROR.equals(state);
        if (name == null || !known) {
            return null;
        }
        JsonNode grace = r.get("grace_period");
        JsonNode autoRecover = r.get("auto_recover");
        return new HealthReporter(handle.bus(), handle.device(), handle.port(), name, state, count(r, "error"),
                count(r, "recover"), grace != null && grace.canConvertToLong() ? grace.asLong() : null,
                autoRecover != null && autoRecover.isBoolean() ? autoRecover.asBoolean() : null);
    }

    private static String text(JsonNode r, String key) {
        JsonNode value = r.get(key);
        return value != null && value.isTextual() ? value.asText() : null;
    }

    private static long count(JsonNode r, String key) {
        JsonNode value = r.get(key);
        return value != null && value.canConvertToLong() && value.asLong() >= 0 ? value.asLong() : 0;
    }

    /** A devlink handle: {@code BUS/DEVICE} or {@code BUS/DEVICE/PORT_INDEX}. */
    record Handle(String bus, String device, Integer port) {
        static Handle parse(String handle, String file) throws IOException {
            String[] parts = handle.split("/", -1);
            boolean shaped = (parts.length == 2 || parts.length == 3) && !parts[0].isEmpty() && !parts[1].isEmpty();
            if (shaped && parts.length == 3) {
                try {
                    return new Handle(parts[0], parts[1], Integer.parseUnsignedInt(parts[2]));
                } catch (NumberFormatException e) {
                    shaped = false;
                }
            }
            if (!shaped) {
                throw new IOException(file + ": health: " + handle + " is not a devlink handle (BUS/DEVICE[/PORT])");
            }
            return new Handle(parts[0], parts[1], null);
        }
    }
}
