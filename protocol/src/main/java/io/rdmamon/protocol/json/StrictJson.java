package io.rdmamon.protocol.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.rdmamon.protocol.text.WireText;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Typed, path-naming access to one JSON object of a Jackson tree: the one reader of the collector's config
 * file, the REST bodies it accepts and the agents' frames. Every refusal is a {@link StrictJsonException} whose
 * message names the value's path from the document's root:
 * <ul>
 *   <li>{@code PATH: missing} for a required key that is absent or null;</li>
 *   <li>{@code PATH: expected WHAT, got TYPE} for a value of the wrong JSON type or range
 *       ({@code layout.devices[2].ports[0].port: expected a 32-bit integer, got string});</li>
 *   <li>{@code unknown key 'PATH' (known: [..])} from {@link #requireKnownKeys}.</li>
 * </ul>
 * A key that is absent and a key whose value is {@code null} are the same: "not given". Checking values
 * beyond their type (ranges, names) is the caller's, which words it with {@link #path(String)}.
 */
public final class StrictJson {
    /** Refuses a repeated key (which of two values was meant?) and anything after the document. */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)?");
    private static final String DURATION_FORMS = "500ms, 30s, 10m or 1h";

    private final JsonNode json;
    private final String path;

    private StrictJson(JsonNode json, String path) {
        this.json = json;
        this.path = path;
    }

    /**
     * Reader of {@code object}, whose path is {@code path} ({@code ""} for a document's root, whose keys are
     * then named without a prefix; {@code "frame"} names them {@code frame.KEY}).
     *
     * @throws StrictJsonException when {@code object} is not a JSON object
     */
    public static StrictJson of(JsonNode object, String path) {
        if (object == null || !object.isObject()) {
            throw new StrictJsonException(path, (path.isEmpty() ? "document" : path) + ": expected an object, got "
                    + typeOf(object));
        }
        return new StrictJson(object, path);
    }

    /** The mapper every document read with this class is parsed with (see {@link #MAPPER}); do not reconfigure it. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** This object's path. */
    public String path() {
        return path;
    }

    /** The path of {@code key} in this object: what messages about its value start with. */
    public String path(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /**
     * Refuses a key not in {@code known}, naming it with its path and listing the known ones.
     *
     * @return this, for chaining
     */
    public StrictJson requireKnownKeys(Set<String> known) {
        for (Iterator<String> keys = json.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!known.contains(key)) {
                throw new StrictJsonException(path(key), "unknown key " + WireText.quote(path(key)) + " (known: "
                        + new TreeSet<>(known) + ")");
            }
        }
        return this;
    }

    /** The keys of this object in document order (for objects keyed by names, such as a map of rule ids). */
    public List<String> keys() {
        List<String> keys = new ArrayList<>(json.size());
        json.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    /** Whether {@code key} is given: present and not null. */
    public boolean has(String key) {
        JsonNode node = json.get(key);
        return node != null && !node.isNull();
    }

    public String string(String key) {
        return text(required(key), path(key));
    }

    /** Null when not given. */
    public String optString(String key) {
        return has(key) ? string(key) : null;
    }

    public int integer(String key) {
        return int32(required(key), path(key));
    }

    /** Null when not given. */
    public Integer optInteger(String key) {
        return has(key) ? Integer.valueOf(integer(key)) : null;
    }

    public int integer(String key, int fallback) {
        return has(key) ? integer(key) : fallback;
    }

    public long longValue(String key) {
        JsonNode node = required(key);
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw wrongType(path(key), "a 64-bit integer", node);
        }
        return node.longValue();
    }

    /** Null when not given. */
    public Long optLong(String key) {
        return has(key) ? Long.valueOf(longValue(key)) : null;
    }

    /** Any JSON number, integral or not. */
    public double number(String key) {
        JsonNode node = required(key);
        if (!node.isNumber()) {
            throw wrongType(path(key), "a number", node);
        }
        return node.doubleValue();
    }

    public double number(String key, double fallback) {
        return has(key) ? number(key) : fallback;
    }

    public boolean bool(String key) {
        JsonNode node = required(key);
        if (!node.isBoolean()) {
            throw wrongType(path(key), "true or false", node);
        }
        return node.booleanValue();
    }

    public boolean bool(String key, boolean fallback) {
        return has(key) ? bool(key) : fallback;
    }

    /** A string in the form {@link #parseDuration} reads; a JSON number is refused (its unit would be a guess). */
    public Duration duration(String key) {
        JsonNode node = required(key);
        if (!node.isTextual()) {
            throw wrongType(path(key), "a duration string like \"500ms\", \"30s\", \"10m\" or \"1h\"", node);
        }
        return parseDuration(node.textValue(), path(key));
    }

    public Duration duration(String key, Duration fallback) {
        return has(key) ? duration(key) : fallback;
    }

    public StrictJson object(String key) {
        JsonNode node = required(key);
        if (!node.isObject()) {
            throw wrongType(path(key), "an object", node);
        }
        return new StrictJson(node, path(key));
    }

    /** Null when not given. */
    public StrictJson optObject(String key) {
        return has(key) ? object(key) : null;
    }

    /** The value's node, of any type, for callers that check it themselves (an unsigned 64-bit counter). */
    public JsonNode value(String key) {
        return required(key);
    }

    /** The array's node, for callers that read its elements themselves (naming them {@code path(key) + "[i]"}). */
    public JsonNode array(String key) {
        JsonNode node = required(key);
        if (!node.isArray()) {
            throw wrongType(path(key), "an array", node);
        }
        return node;
    }

    /** An array of objects. */
    public List<StrictJson> objects(String key) {
        JsonNode array = array(key);
        List<StrictJson> result = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            JsonNode element = array.get(i);
            String elementPath = path(key) + "[" + i + "]";
            if (!element.isObject()) {
                throw wrongType(elementPath, "an object", element);
            }
            result.add(new StrictJson(element, elementPath));
        }
        return result;
    }

    /** An array of strings. */
    public List<String> strings(String key) {
        JsonNode array = array(key);
        List<String> result = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            result.add(text(array.get(i), path(key) + "[" + i + "]"));
        }
        return result;
    }

    /** An array of 32-bit integers. */
    public List<Integer> integers(String key) {
        JsonNode array = array(key);
        List<Integer> result = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            result.add(int32(array.get(i), path(key) + "[" + i + "]"));
        }
        return result;
    }

    /** An array of 64-bit integers. */
    public List<Long> longs(String key) {
        JsonNode array = array(key);
        List<Long> result = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            JsonNode element = array.get(i);
            if (!element.isIntegralNumber() || !element.canConvertToLong()) {
                throw wrongType(path(key) + "[" + i + "]", "a 64-bit integer", element);
            }
            result.add(element.longValue());
        }
        return result;
    }

    /**
     * {@code node} as a 32-bit integer within {@code min..max}, for callers that read array elements themselves;
     * {@code path} names it in a refusal ({@code PATH: expected an integer, got TYPE}, {@code PATH: V is outside
     * MIN..MAX}).
     */
    public static int intIn(JsonNode node, String path, int min, int max) {
        if (node == null || !node.isIntegralNumber() || !node.canConvertToInt()) {
            throw new StrictJsonException(path, path + ": expected an integer, got " + typeOf(node));
        }
        int value = node.intValue();
        if (value < min || value > max) {
            throw new StrictJsonException(path, path + ": " + value + " is outside " + min + ".." + max);
        }
        return value;
    }

    /**
     * {@code 500ms}, {@code 30s}, {@code 10m}, {@code 1h} (any case, surrounding blanks ignored); a bare number is
     * seconds. Also the syntax of duration environment variables and command-line flags, which pass their name
     * as {@code path}.
     */
    public static Duration parseDuration(String text, String path) {
        Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (m.matches()) {
            try {
                long amount = Long.parseLong(m.group(1));
                String unit = m.group(2) == null ? "s" : m.group(2);
                return switch (unit) {
                    case "ms" -> Duration.ofMillis(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    case "h" -> Duration.ofHours(amount);
                    default -> Duration.ofSeconds(amount);
                };
            } catch (NumberFormatException | ArithmeticException e) {
                throw new StrictJsonException(path, path + ": duration " + WireText.quote(text)
                        + " is beyond the largest one Java holds");
            }
        }
        throw new StrictJsonException(path, path + ": expected a duration like " + DURATION_FORMS
                + " (a bare number is seconds), got " + WireText.quote(text));
    }

    private JsonNode required(String key) {
        JsonNode node = json.get(key);
        if (node == null || node.isNull()) {
            throw new StrictJsonException(path(key), path(key) + ": missing");
        }
        return node;
    }

    private static String text(JsonNode node, String path) {
        if (!node.isTextual()) {
            throw wrongType(path, "a string", node);
        }
        return node.textValue();
    }

    private static int int32(JsonNode node, String path) {
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            throw wrongType(path, "a 32-bit integer", node);
        }
        return node.intValue();
    }

    private static StrictJsonException wrongType(String path, String expected, JsonNode node) {
        return new StrictJsonException(path, path + ": expected " + expected + ", got " + typeOf(node));
    }

    /** The JSON type of {@code node} as messages name it: {@code string}, {@code number}, ..., or {@code nothing}. */
    public static String typeOf(JsonNode node) {
        return node == null || node.isMissingNode() ? "nothing" : node.getNodeType().toString().toLowerCase(Locale.ROOT);
    }
}
