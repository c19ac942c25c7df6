package io.rdmamon.protocol.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.rdmamon.protocol.model.SourceStatus;

import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * The hot path of {@link FrameCodec#decode}: a {@code values} frame read with Jackson's streaming
 * parser straight into a {@code long[]} and a {@link BitSet}, without building a {@code JsonNode} per
 * value (the tree was a quarter of the collector's ingest time at 2,000 nodes).
 *
 * <p>It answers only for a frame the tree path would decode into an equal {@link Frame.Values}: a JSON
 * object holding exactly the fields of a values frame, each once, well typed and in range, in any
 * order, and nothing after the object. For anything else (another frame type, an unknown, missing,
 * null, repeated or ill-typed field, a value outside the unsigned 64-bit range, an absent slot outside
 * the values, malformed or truncated JSON, trailing tokens) it answers null, and the caller decodes the
 * frame again with the tree path, which accepts or refuses it and names the reason. Both paths thus
 * accept the same frames and refuse the same frames with the same reasons; only well-formed values
 * frames take this path.
 */
final class ValuesFrameParser {
    private static final int V = 1;
    private static final int TYPE = 1 << 1;
    private static final int LAYOUT_ID = 1 << 2;
    private static final int SEQ = 1 << 3;
    private static final int TS = 1 << 4;
    private static final int VALUES = 1 << 5;
    private static final int ABSENT = 1 << 6;
    private static final int SOURCES = 1 << 7;
    private static final int ALL_FIELDS = (1 << 8) - 1;
    /** A value count no frame reaches: the values of a frame are bounded by its byte size. */
    private static final int NOT_VALUES = -1;
    /** Reused across frames of one thread (an event loop decodes one frame at a time). */
    private static final ThreadLocal<long[]> SCRATCH = ThreadLocal.withInitial(() -> new long[4096]);

    private ValuesFrameParser() {
    }

    /** The values frame in {@code bytes}; null when the tree path has to decide (see the class comment). */
    static Frame.Values parse(byte[] bytes) {
        // the codec's parser features (STRICT_DUPLICATE_DETECTION) and read constraints, as on the tree path
        try (JsonParser parser = FrameCodec.MAPPER.createParser(bytes)) {
            return values(parser);
        } catch (IOException e) {
            return null; // malformed, truncated or a repeated key: the tree path words the reason
        }
    }

    private static Frame.Values values(JsonParser p) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            return null;
        }
        int seen = 0;
        int layoutId = 0;
        long seq = 0;
        long ts = 0;
        long[] values = null;
        int count = 0;
        int[] absentSlots = null;
        List<SourceStatus> sources = null;
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            int field = field(name);
            if (field == 0 || (seen & field) != 0) {
                return null;
            }
            seen |= field;
            JsonToken token = p.nextToken();
            switch (field) {
                case V -> {
                    if (!isInt(p, token) || !WireFormat.reads(p.getIntValue())) {
                        return null;
                    }
                }
                case TYPE -> {
                    if (token != JsonToken.VALUE_STRING || !"values".equals(p.getText())) {
                        return null; // another frame type: the tree path decodes it
                    }
                }
                case LAYOUT_ID -> {
                    if (!isInt(p, token)) {
                        return null;
                    }
                    layoutId = p.getIntValue();
                }
                case SEQ -> {
                    if (!isLong(p, token)) {
                        return null;
                    }
                    seq = p.getLongValue();
                }
                case TS -> {
                    if (!isLong(p, token)) {
                        return null;
                    }
                    ts = p.getLongValue();
                }
                case VALUES -> {
                    count = unsigned64s(p, token);
                    if (count == NOT_VALUES) {
                        return null;
                    }
                    values = Arrays.copyOf(SCRATCH.get(), count);
                }
                case ABSENT -> {
                    absentSlots = slots(p, token);
                    if (absentSlots == null) {
                        return null;
                    }
                }
                default -> { // SOURCES
                    sources = sources(p, token);
                    if (sources == null) {
                        return null;
                    }
                }
            }
        }
        // the loop ends at the object's end (the parser refuses anything else there)
        if (seen != ALL_FIELDS || p.nextToken() != null) {
            return null;
        }
        // a BitSet is as large as its highest bit: every slot is checked against the values before one is set
        BitSet absent = new BitSet(count);
        for (int slot : absentSlots) {
            if (slot >= count) {
                return null;
            }
            absent.set(slot);
        }
        return new Frame.Values(layoutId, seq, ts, values, absent, sources);
    }

    private static int field(String name) {
        return switch (name) {
            case "v" -> V;
            case "type" -> TYPE;
            case "layoutId" -> LAYOUT_ID;
            case "seq" -> SEQ;
            case "ts" -> TS;
            case "values" -> VALUES;
            case "absent" -> ABSENT;
            case "sources" -> SOURCES;
            default -> 0;
        };
    }

    /** As the tree path's 32-bit integer: an integral number that fits an int. */
    private static boolean isInt(JsonParser p, JsonToken token) throws IOException {
        return token == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT;
    }

    /** As the tree path's 64-bit integer: an integral number that fits a long. */
    private static boolean isLong(JsonParser p, JsonToken token) throws IOException {
        return token == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER;
    }

    /** Reads the array into the thread's scratch (growing it); the count, or {@link #NOT_VALUES}. */
    private static int unsigned64s(JsonParser p, JsonToken token) throws IOException {
        if (token != JsonToken.START_ARRAY) {
            return NOT_VALUES;
        }
        long[] into = SCRATCH.get();
        int count = 0;
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            if (t != JsonToken.VALUE_NUMBER_INT) {
                return NOT_VALUES;
            }
            long value;
            if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                // a u64 above Long.MAX_VALUE: its two's-complement long, as the tree path keeps it
                BigInteger big = p.getBigIntegerValue();
                if (big.signum() < 0 || big.bitLength() > 64) {
                    return NOT_VALUES;
                }
                value = big.longValue();
            } else {
                value = p.getLongValue();
                if (value < 0) {
                    return NOT_VALUES;
                }
            }
            if (count == into.length) {
                into = Arrays.copyOf(into, into.length * 2);
                SCRATCH.set(into);
            }
            into[count++] = value;
        }
        return count;
    }

    /**
     * The absent slots as listed (the values may come later in the object, so their range is checked by the
     * caller); null when an element is not a non-negative 32-bit integer. The array is bounded by the frame's size.
     */
    private static int[] slots(JsonParser p, JsonToken token) throws IOException {
        if (token != JsonToken.START_ARRAY) {
            return null;
        }
        int[] slots = new int[16];
        int count = 0;
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            if (!isInt(p, t) || p.getIntValue() < 0) {
                return null;
            }
            if (count == slots.length) {
                slots = Arrays.copyOf(slots, count * 2);
            }
            slots[count++] = p.getIntValue();
        }
        return Arrays.copyOf(slots, count);
    }

    private static List<SourceStatus> sources(JsonParser p, JsonToken token) throws IOException {
        if (token != JsonToken.START_ARRAY) {
            return null;
        }
        List<SourceStatus> sources = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            if (t != JsonToken.START_OBJECT) {
                return null;
            }
            String source = null;
            String subject = null;
            Boolean success = null;
            String error = null;
            boolean errorSeen = false;
            String unsupported = null;
            boolean unsupportedSeen = false;
            for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                JsonToken value = p.nextToken();
                switch (name) {
                    case "source" -> {
                        if (source != null || value != JsonToken.VALUE_STRING) {
                            return null;
                        }
                        source = p.getText();
                    }
                    case "subject" -> {
                        if (subject != null || value != JsonToken.VALUE_STRING) {
                            return null;
                        }
                        subject = p.getText();
                    }
                    case "success" -> {
                        if (success != null || !value.isBoolean()) {
                            return null;
                        }
                        success = value == JsonToken.VALUE_TRUE;
                    }
                    case "error" -> {
                        if (errorSeen || value != JsonToken.VALUE_STRING && value != JsonToken.VALUE_NULL) {
                            return null;
                        }
                        errorSeen = true;
                        error = value == JsonToken.VALUE_NULL ? null : p.getText();
                    }
                    case "unsupported" -> {
                        if (unsupportedSeen || value != JsonToken.VALUE_STRING && value != JsonToken.VALUE_NULL) {
                            return null;
                        }
                        unsupportedSeen = true;
                        unsupported = value == JsonToken.VALUE_NULL ? null : p.getText();
                    }
                    default -> {
                        return null;
                    }
                }
            }
            if (source == null || subject == null || success == null
                    || unsupported != null && (!success || error != null)) {
                return null; // the record would refuse it: the tree path words why
            }
            sources.add(new SourceStatus(source, subject, success, error, unsupported));
        }
        return sources;
    }
}
