package io.rdmamon.agent.kmsg;

import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.text.WireText;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parses one {@code /dev/kmsg} record (kernel/printk/printk.c {@code info_print_ext_header} and
 * {@code msg_print_ext_body}): {@code <prefix>,<seq>,<usec>,<flags>[,…];<text>\n} then continuation lines
 * {@code  KEY=VALUE\n}. The kernel escapes bytes below 0x20 (but tab and newline), 0x7f and the backslash as
 * {@code \xNN}; the parser decodes them, and reads the resulting bytes as UTF-8 with replacement characters, so a
 * driver's non-UTF-8 byte costs one character, never the record. Pure.
 */
public final class KmsgRecordParser {
    /** The longest text kept: the kernel's own record limit (PRINTK_MESSAGE_MAX's 2048 bytes) is far above a line. */
    static final int MAX_TEXT_CHARS = KernelEvents.MAX_TEXT_CHARS;

    private KmsgRecordParser() {
    }

    /**
     * The record in {@code bytes[0, length)}; null when the header is malformed (a cut record, a line that is not a
     * record).
     */
    public static KmsgRecord parse(byte[] bytes, int length) {
        int semicolon = indexOf(bytes, 0, length, (byte) ';');
        if (semicolon < 0) {
            return null;
        }
        String[] header = new String(bytes, 0, semicolon, StandardCharsets.US_ASCII).split(",", -1);
        if (header.length < 4) {
            return null;
        }
        long prefix;
        long seq;
        long micros;
        try {
            prefix = Long.parseLong(header[0]);
            seq = Long.parseLong(header[1]);
            micros = Long.parseLong(header[2]);
        } catch (NumberFormatException e) {
            return null;
        }
        if (prefix < 0 || prefix > Integer.MAX_VALUE || seq < 0 || micros < 0) {
            return null;
        }
        int textEnd = indexOf(bytes, semicolon + 1, length, (byte) '\n');
        if (textEnd < 0) {
            textEnd = length;
        }
        String text = decode(bytes, semicolon + 1, textEnd);
        Map<String, String> dictionary = new LinkedHashMap<>();
        int line = textEnd + 1;
        while (line < length && bytes[line] == ' ') {
            int end = indexOf(bytes, line, length, (byte) '\n');
            if (end < 0) {
                end = length;
            }
            String entry = decode(bytes, line + 1, end);
            int equals = entry.indexOf('=');
            if (equals > 0) {
                dictionary.putIfAbsent(entry.substring(0, equals), entry.substring(equals + 1));
            }
            line = end + 1;
        }
        if (text.length() > MAX_TEXT_CHARS) {
            text = text.substring(0, MAX_TEXT_CHARS);
        }
        return new KmsgRecord((int) (prefix >> 3), (int) (prefix & 7), seq, micros, text, dictionary);
    }

    /**
     * {@code bytes[from, to)} with {@code \xNN} escapes decoded, as UTF-8, malformed bytes and control characters but
     * tab replaced by U+FFFD (a record's text travels to the collector, which refuses unprintable text).
     */
    static String decode(byte[] bytes, int from, int to) {
        ByteArrayOutputStream raw = new ByteArrayOutputStream(to - from);
        for (int i = from; i < to; i++) {
            if (bytes[i] == '\\' && i + 3 < to && bytes[i + 1] == 'x' && hex(bytes[i + 2]) >= 0
                    && hex(bytes[i + 3]) >= 0) {
                raw.write(hex(bytes[i + 2]) << 4 | hex(bytes[i + 3]));
                i += 3;
            } else {
                raw.write(bytes[i]);
            }
        }
        try {
            char[] text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(ByteBuffer.wrap(raw.toByteArray()))
                    .toString().toCharArray();
            for (int i = 0; i < text.length; i++) {
                if (!WireText.printable(text[i]) && text[i] != '\t' && !Character.isSurrogate(text[i])) {
                    text[i] = '\uFFFD';
                }
            }
            return new String(text);
        } catch (CharacterCodingException e) {
            throw new IllegalStateException("a replacing decoder refused input", e);
        }
    }

    private static int hex(byte b) {
        return Character.digit(b, 16);
    }

    static int indexOf(byte[] bytes, int from, int to, byte wanted) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }
}
