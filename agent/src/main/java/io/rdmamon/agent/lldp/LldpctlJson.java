package io.rdmamon.agent.lldp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.rdmamon.protocol.json.JsonSyntax;
import io.rdmamon.protocol.model.LldpNeighbor;
import io.rdmamon.protocol.text.WireText;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parses what {@code lldpctl -f json} prints: the neighbour of each interface. Pure: no I/O.
 *
 * <p>lldpd builds a tree in which every element is an array of objects, then "cleans" it before printing
 * ({@code json_element_cleanup} in lldpd's {@code src/client/json_writer.c}): an array of one element becomes that
 * element, an object whose only key is {@code value} becomes the value, and an object with a string {@code name} is
 * wrapped in a new object keyed by that name. So the shape depends on the data (lldpd issue #236):
 * <ul>
 *   <li>one interface: {@code {"lldp": {"interface": {"eth0": {...}}}}} (lldpd's tests/integration/test_lldpcli.py,
 *       {@code test_json_output}); several: {@code "interface"} is an array of single-key objects
 *       {@code [{"eth0": {...}}, {"Ethernet0": {...}}]} (SONiC's sonic-dbsyncd
 *       {@code tests/subproc_outputs/lldpctl.json});
 *       one interface with two neighbours: two array elements under the same name (the first is taken);</li>
 *   <li>{@code "chassis"} keyed by the system name, {@code {"leaf1": {"id": {"type": "mac", "value": "..."}, ...}}},
 *       or holding {@code "id"} directly when the neighbour sent no name;</li>
 *   <li>{@code "port"}: {@code {"id": {"type": "ifname", "value": "Ethernet8"}, "descr": "..."}}; an id without a type
 *       is the bare value; a value may still be an object {@code {"value": ...}} or, repeated, an array (the first
 *       counts); {@code yes}/{@code no}/{@code on}/{@code off} are printed as booleans.</li>
 * </ul>
 * No neighbour at all is {@code {"lldp": {}}}. lldpd's {@code json0} format (no cleanup: every level an array, names
 * in a {@code name} key) is read too, by the same unwrapping. Unknown keys are ignored.
 */
public final class LldpctlJson {
    /** Anything after the document is refused; duplicate keys are not (lldpd never writes them; they harm nothing). */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    private LldpctlJson() {
    }

    /**
     * The neighbour of each interface {@code text} lists, by interface name in the order printed; empty when there is
     * none.
     *
     * @throws IllegalArgumentException when {@code text} is not {@code lldpctl -f json} output; the message names the
     *                                  place in the document ({@code lldp.interface[1]: ...}) but not the file, which
     *                                  the caller adds
     */
    public static Map<String, LldpNeighbor> parse(String text) {
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + JsonSyntax.describe(e), e);
        }
        if (root == null || !root.isObject() || !root.has("lldp")) {
            throw new IllegalArgumentException("not lldpctl -f json output: expected an object with key \"lldp\"");
        }
        JsonNode lldp = single(root.get("lldp"));
        if (!lldp.isObject()) {
            throw new IllegalArgumentException("lldp: expected an object, got " + type(lldp));
        }
        Map<String, LldpNeighbor> neighbors = new LinkedHashMap<>();
        List<JsonNode> interfaces = elements(lldp.get("interface"));
        boolean indexed = lldp.path("interface").isArray();
        for (int i = 0; i < interfaces.size(); i++) {
            String path = "lldp.interface" + (indexed ? "[" + i + "]" : "");
            Map.Entry<String, JsonNode> named = named(interfaces.get(i), path);
            // a second neighbour on one interface (a hub, or two agents on one switch port): the first one counts
            neighbors.putIfAbsent(named.getKey(), neighbor(named.getValue(), path + "." + named.getKey()));
        }
        return neighbors;
    }

    /** The interface's name and its body: {@code {"eth0": {...}}}, or json0's {@code {"name": "eth0", ...}}. */
    private static Map.Entry<String, JsonNode> named(JsonNode element, String path) {
        if (element.isObject() && element.path("name").isTextual()) {
            return Map.entry(element.get("name").asText(), element);
        }
        if (!element.isObject() || element.size() != 1 || !element.elements().next().isObject()) {
            throw new IllegalArgumentException(path + ": expected an object keyed by the interface name, got "
                    + (element.isObject() ? "an object with " + element.size() + " keys" : type(element)));
        }
        return element.fields().next();
    }

    private static LldpNeighbor neighbor(JsonNode body, String path) {
        JsonNode chassis = single(body.path("chassis"));
        String systemName = null;
        if (keyedBySystemName(chassis)) {
            Map.Entry<String, JsonNode> named = chassis.fields().next();
            systemName = named.getKey();
            chassis = single(named.getValue());
        } else if (chassis.isObject()) {
            systemName = text(chassis.get("name"), path + ".chassis.name");
        } else if (!chassis.isMissingNode()) {
            throw new IllegalArgumentException(path + ".chassis: expected an object, got " + type(chassis));
        }
        JsonNode port = single(body.path("port"));
        if (!port.isMissingNode() && !port.isObject()) {
            throw new IllegalArgumentException(path + ".port: expected an object, got " + type(port));
        }
        JsonNode chassisId = single(chassis.path("id"));
        JsonNode portId = single(port.path("id"));
        return new LldpNeighbor(sendable(text(chassisId, path + ".chassis.id")),
                sendable(idType(chassisId, path + ".chassis.id")), sendable(systemName),
                sendable(text(portId, path + ".port.id")), sendable(idType(portId, path + ".port.id")),
                sendable(text(port.get("descr"), path + ".port.descr")));
    }

    /**
     * {@code value} as the collector takes it from the wire: a character it refuses ({@link WireText#printable}: a
     * switch may put control characters in its names, which lldpctl prints escaped) as U+FFFD, and at most
     * {@link LldpNeighbor#MAX_FIELD_CHARS} characters. The values come from the network, and one odd switch must not
     * get the node's stream refused.
     */
    static String sendable(String value) {
        if (value == null) {
            return null;
        }
        StringBuilder out = new StringBuilder(Math.min(value.length(), LldpNeighbor.MAX_FIELD_CHARS));
        for (int i = 0; i < value.length(); ) {
            int codePoint = value.codePointAt(i);
            int chars = Character.charCount(codePoint);
            if (out.length() + chars > LldpNeighbor.MAX_FIELD_CHARS) {
                break;
            }
            // a whole surrogate pair is printable text; a lone half, a control or format character is not
            boolean ok = chars == 2 || WireText.printable((char) codePoint);
            out.appendCodePoint(ok ? codePoint : '\uFFFD');
            i += chars;
        }
        return out.toString();
    }

    /**
     * A chassis keyed by its system name, {@code {"leaf1": {"id": ...}}}, rather than one holding its {@code id} (and
     * perhaps more) directly; a switch named {@code id} is told apart by the {@code id} inside.
     */
    private static boolean keyedBySystemName(JsonNode chassis) {
        if (!chassis.isObject() || chassis.size() != 1) {
            return false;
        }
        JsonNode only = single(chassis.elements().next());
        return only.isObject() && (!chassis.has("id") || only.has("id"));
    }

    /** An id's {@code type}: absent when lldpd printed the id as a bare value. */
    private static String idType(JsonNode id, String path) {
        return id.isObject() ? text(id.get("type"), path + ".type") : null;
    }

    /**
     * A scalar as text, unwrapping what the cleanup left: {@code {"value": ...}} and arrays (the first element); null
     * when absent.
     */
    private static String text(JsonNode node, String path) {
        JsonNode value = single(node);
        while (value.isObject() && value.has("value")) {
            value = single(value.get("value"));
        }
        if (value.isMissingNode() || value.isNull()) {
            return null;
        }
        if (!value.isValueNode()) {
            throw new IllegalArgumentException(path + ": expected text, got " + type(value));
        }
        return value.asText();
    }

    /** The first element of an array (lldpd prints repeated values so, and json0 every value); missing for none. */
    private static JsonNode single(JsonNode node) {
        JsonNode at = node == null ? MissingNode.getInstance() : node;
        while (at.isArray()) {
            at = at.isEmpty() ? MissingNode.getInstance() : at.get(0);
        }
        return at;
    }

    /** The elements of an array, or the node alone; none when absent. */
    private static List<JsonNode> elements(JsonNode node) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            return List.of(node);
        }
        List<JsonNode> all = new ArrayList<>(node.size());
        node.elements().forEachRemaining(all::add);
        return all;
    }

    private static String type(JsonNode node) {
        return node.isMissingNode() ? "nothing" : node.getNodeType().name().toLowerCase(Locale.ROOT);
    }
}
