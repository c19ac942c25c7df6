package io.rdmamon.protocol.exposition;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer for exposition text: ASCII pieces, escaped label values and sample values
 * formatted exactly as the Prometheus client library formats them ({@link Double#toString}, {@code +Inf},
 * {@code -Inf}), without building a {@code String} per sample.
 */
public final class ExpositionBytes {
    /** Below 2^53 every integer is an exact double, and its decimal digits are those of the long. */
    private static final long EXACT_INTEGER_LIMIT = 1L << 53;
    /** {@link Double#toString} writes plain notation ("1234567.0") below 10^7 and computerised scientific above. */
    private static final long PLAIN_NOTATION_LIMIT = 10_000_000L;
    private static final byte[] DIGITS = "0123456789".getBytes(StandardCharsets.US_ASCII);
    private final byte[] scratch = new byte[20];
    private byte[] bytes;
    private int size;

    public ExpositionBytes(int capacity) {
        bytes = new byte[Math.max(16, capacity)];
    }

    public int size() {
        return size;
    }

    public void reset() {
        size = 0;
    }

    public byte[] array() {
        return bytes;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    public void put(byte[] piece) {
        ensure(piece.length);
        System.arraycopy(piece, 0, bytes, size, piece.length);
        size += piece.length;
    }

    public void put(char ascii) {
        ensure(1);
        bytes[size++] = (byte) ascii;
    }

    /** {@code text} as UTF-8, unescaped (names and fixed label names). */
    public void put(String text) {
        put(text.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code ,name="value"} or {@code {name="value"} (first) with the value escaped for a label. */
    public void label(boolean first, String name, String value) {
        put(first ? '{' : ',');
        putAscii(name);
        put('=');
        put('"');
        putLabelValue(value);
        put('"');
    }

    /**
     * {@code text}'s chars as bytes when every one is ASCII; else as UTF-8. Label names always are ASCII, and
     * so nearly always are the values: this spares a {@code getBytes} array per label (a node of 1,400 series
     * renders about 7,000 labels a sample).
     */
    private void putAscii(String text) {
        int length = text.length();
        ensure(length);
        int at = size;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                put(text.getBytes(StandardCharsets.UTF_8));
                return;
            }
            bytes[at++] = (byte) c;
        }
        size = at;
    }

    /** A label value escaped as {@link #escapeLabelValue} does, written in place when it needs no escape. */
    private void putLabelValue(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' || c == '\n' || c == '"') {
                put(escapeLabelValue(value));
                return;
            }
        }
        putAscii(value);
    }

    /** A sample line: {@code name}, pre-rendered {@code labels}, a space, the value, a newline. */
    public void sample(byte[] name, byte[] labels, double value) {
        put(name);
        put(labels);
        put(' ');
        value(value);
        put('\n');
    }

    /** An info series: its value is always 1, written "1" (as the client library does), not "1.0". */
    public void info(byte[] name, byte[] labels) {
        put(name);
        put(labels);
        put(INFO_VALUE);
    }

    /** The value as the client library writes it: {@code +Inf}, {@code -Inf}, else {@link Double#toString}. */
    public void value(double value) {
        if (value >= 0 && value < EXACT_INTEGER_LIMIT && value == Math.rint(value)
                && Double.doubleToRawLongBits(value) != Double.doubleToRawLongBits(-0.0)) {
            exactInteger((long) value);
        } else if (value == Double.POSITIVE_INFINITY) {
            put(INF);
        } else if (value == Double.NEGATIVE_INFINITY) {
            put(MINUS_INF);
        } else {
            put(DecimalCache.of(value));
        }
    }

    /**
     * {@link Double#toString}'s bytes of recently written non-integer values. Such values (a module's power,
     * temperature and thresholds, a rate) mostly repeat from one rendering to the next, and the JDK's
     * formatting costs about a microsecond each. Direct-mapped on the value's bits; shared by every thread
     * without a lock, which is safe because an entry is immutable and a reader compares its bits before use.
     */
    static final class DecimalCache {
        private static final int SLOTS = 1024;
        private static final Entry[] ENTRIES = new Entry[SLOTS];

        private record Entry(long bits, byte[] text) {
        }

        private DecimalCache() {
        }

        static byte[] of(double value) {
            long bits = Double.doubleToRawLongBits(value);
            int slot = (int) (bits ^ (bits >>> 29) ^ (bits >>> 47)) & (SLOTS - 1);
            Entry entry = ENTRIES[slot];
            if (entry != null && entry.bits == bits) {
                return entry.text;
            }
            byte[] text = Double.toString(value).getBytes(StandardCharsets.US_ASCII);
            ENTRIES[slot] = new Entry(bits, text);
            return text;
        }
    }

    private static final byte[] INFO_VALUE = " 1\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INF = "+Inf".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MINUS_INF = "-Inf".getBytes(StandardCharsets.US_ASCII);

    /**
     * What {@link Double#toString} gives for an integer below 2^53 (counters nearly always are): the
     * digits with ".0" below 10^7, else {@code d.dddE<exponent>} with trailing zeros dropped but one digit
     * after the point kept. Checked against {@code Double.toString} in ExpositionBytesTest.
     */
    private void exactInteger(long v) {
        ensure(24);
        // the digits, least significant first
        byte[] digits = scratch;
        int n = 0;
        long rest = v;
        do {
            digits[n++] = DIGITS[(int) (rest % 10)];
            rest /= 10;
        } while (rest > 0);
        if (v < PLAIN_NOTATION_LIMIT) {
            for (int i = n - 1; i >= 0; i--) {
                bytes[size++] = digits[i];
            }
            bytes[size++] = '.';
            bytes[size++] = '0';
            return;
        }
        int lowest = 0; // trailing zeros go, but two significant digits stay ("1.0E7")
        while (lowest < n - 2 && digits[lowest] == '0') {
            lowest++;
        }
        bytes[size++] = digits[n - 1];
        bytes[size++] = '.';
        for (int i = n - 2; i >= lowest; i--) {
            bytes[size++] = digits[i];
        }
        bytes[size++] = 'E';
        int exponent = n - 1;
        if (exponent >= 10) {
            bytes[size++] = DIGITS[exponent / 10];
        }
        bytes[size++] = DIGITS[exponent % 10];
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }

    /** A label value as both text formats escape it: backslash, double quote and newline. */
    public static byte[] escapeLabelValue(String value) {
        return escape(value, true).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * HELP text: the Prometheus text format escapes backslash and newline, OpenMetrics also the double
     * quote (as the client library's writers do).
     */
    static String escapeHelp(String help, boolean quotes) {
        return escape(help, quotes);
    }

    private static String escape(String s, boolean quotes) {
        int i = 0;
        while (i < s.length() && s.charAt(i) != '\\' && s.charAt(i) != '\n' && (!quotes || s.charAt(i) != '"')) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length() + 8).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '"' -> b.append(quotes ? "\\\"" : "\"");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
