package io.rdmamon.agent.qos;

import io.rdmamon.protocol.wire.QosWire;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Pure parsers of the optional QoS files of a host (docs/reference/qos-dcb.md §3.1, §4): MLNX_OFED's ECN and traffic
 * class files,
 * rdma_cm's configfs {@code default_roce_tos} and {@code /etc/nccl.conf}. Input is the file's text as read (sysfs reads
 * are trimmed); a refusal is an {@link IllegalArgumentException} saying what was found, the caller names the file.
 */
public final class QosFileParsers {
    /** {@code traffic_class_show}: {@code "Global tclass=%d\n"} then per-destination rule lines. */
    private static final Pattern GLOBAL_TCLASS = Pattern.compile("Global tclass=(-?\\d{1,4})");
    /**
     * NCCL copies a key or value into a 1024-byte buffer ({@code src/misc/param.cc setEnvFile}); the wire's limit is
     * the same, so a setting read is one the collector accepts.
     */
    static final int NCCL_MAX_FIELD_CHARS = QosWire.MAX_NCCL_CONF_CHARS;
    /** Entries kept from one nccl.conf: NCCL reads about 100 variables; a file with more lines is not a config. */
    public static final int NCCL_MAX_ENTRIES = QosWire.MAX_NCCL_CONF_ENTRIES;

    private QosFileParsers() {
    }

    /**
     * {@code ecn/roce_{np,rp}/enable/<prio>}: {@code "1"} or {@code "0"}; null for an empty read, which the OFED driver
     * returns when its firmware query fails (docs/reference/qos-dcb.md §3.1), so the state is unknown.
     */
    public static Boolean ecnEnabled(String text) {
        return switch (text.strip()) {
            case "" -> null;
            case "1" -> true;
            case "0" -> false;
            default -> throw new IllegalArgumentException("expected 0 or 1, got \"" + shown(text) + "\"");
        };
    }

    /** {@code roce_np/cnp_dscp} (0..63) and {@code cnp_802p_prio} (0..7); null for an empty read. */
    public static Integer integerIn(String text, int min, int max) {
        String value = text.strip();
        if (value.isEmpty()) {
            return null;
        }
        int parsed;
        try {
            parsed = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected an integer " + min + ".." + max + ", got \"" + shown(text) + "\"");
        }
        if (parsed < min || parsed > max) {
            throw new IllegalArgumentException(parsed + " is outside " + min + ".." + max);
        }
        return parsed;
    }

    /**
     * MLNX_OFED {@code tc/<port>/traffic_class}: the ToS on the {@code Global tclass=N} line; null when the file is
     * empty (never set: the driver keeps -1 and prints nothing) or holds -1. Any other first line is a format this
     * reader does not know, refused rather than guessed.
     */
    public static Integer trafficClass(String text) {
        String first = text.strip().lines().findFirst().orElse("").strip();
        if (first.isEmpty()) {
            return null;
        }
        Matcher m = GLOBAL_TCLASS.matcher(first);
        if (!m.matches()) {
            throw new IllegalArgumentException("unknown traffic_class format \"" + shown(first)
                    + "\" (expected \"Global tclass=N\")");
        }
        int tclass = Integer.parseInt(m.group(1));
        if (tclass == -1) {
            return null;
        }
        if (tclass < 0 || tclass > 255) {
            throw new IllegalArgumentException("Global tclass " + tclass + " is outside 0..255");
        }
        return tclass;
    }

    /** configfs {@code default_roce_tos}: {@code "%u"}, a ToS byte. */
    public static Integer defaultRoceTos(String text) {
        Integer tos = integerIn(text, 0, 255);
        if (tos == null) {
            throw new IllegalArgumentException("empty, expected a ToS 0..255");
        }
        return tos;
    }

    /**
     * {@code /etc/nccl.conf} as NCCL reads it ({@code setEnvFile}): lines starting with {@code #} and lines without
     * {@code =} are skipped, the key is everything before the first {@code =} and the value everything after it,
     * neither trimmed (NCCL does not trim either: {@code "NCCL_IB_TC = 106"} sets a variable named
     * {@code "NCCL_IB_TC "}, which is what a diagnosis should see); a repeated key keeps its first value
     * ({@code setenv(..., 0)}). At most {@link #NCCL_MAX_ENTRIES} entries.
     */
    public static Map<String, String> ncclConf(String text) {
        Map<String, String> entries = new LinkedHashMap<>();
        int lineNumber = 0;
        for (String line : text.split("\n", -1)) {
            lineNumber++;
            if (line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
            int eq = line.indexOf('=');
            if (line.startsWith("#") || eq < 0) {
                continue;
            }
            String key = line.substring(0, eq);
            String value = line.substring(eq + 1);
            if (key.isEmpty()) {
                throw new IllegalArgumentException("line " + lineNumber + ": no name before '='");
            }
            if (key.length() > NCCL_MAX_FIELD_CHARS || value.length() > NCCL_MAX_FIELD_CHARS) {
                throw new IllegalArgumentException("line " + lineNumber + ": longer than the " + NCCL_MAX_FIELD_CHARS
                        + " characters NCCL reads");
            }
            if (!entries.containsKey(key) && entries.size() == NCCL_MAX_ENTRIES) {
                throw new IllegalArgumentException("more than " + NCCL_MAX_ENTRIES + " settings");
            }
            entries.putIfAbsent(key, value);
        }
        return entries;
    }

    private static String shown(String text) {
        String stripped = text.strip();
        return stripped.length() > 40 ? stripped.substring(0, 40) + "..." : stripped;
    }
}
