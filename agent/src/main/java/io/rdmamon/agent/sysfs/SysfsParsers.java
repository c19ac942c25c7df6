package io.rdmamon.agent.sysfs;

import java.math.BigDecimal;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Pure parsers for the text of {@code /sys/class/infiniband} attributes (formats in
 * docs/reference/sysfs-and-counters.md §1; kernel ABI: Documentation/ABI/stable/sysfs-class-infiniband). Each takes the
 * trimmed file content and throws {@link IllegalArgumentException} quoting the text it refused
 * ({@link ProblemText#quote}), never another exception: callers turn that into a problem of one file.
 */
public final class SysfsParsers {
    /** What old kernels printed for a PMA counter the device cannot answer (procfs skips it too). */
    static final String NO_PMA = "N/A (no PMA)";

    /** 1 Gb/s in bytes per second (10^9 bits / 8): the unit the {@code rate} file speaks. */
    static final long BYTES_PER_SECOND_PER_GBIT = 125_000_000L;

    private static final Pattern ID_NAME = Pattern.compile("(\\d+): (.+)");
    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?) Gb/sec(?: \\(.*\\))?", Pattern.CASE_INSENSITIVE);
    private static final Pattern GID = Pattern.compile("[0-9a-f]{4}(?::[0-9a-f]{4}){7}");
    private static final Pattern GUID = Pattern.compile("[0-9a-f]{4}(?::[0-9a-f]{4}){3}");
    private static final String EMPTY_GID = "0000:0000:0000:0000:0000:0000:0000:0000";
    /** The link-local prefix with a zero interface id: a placeholder, not an address (show_gids skips it). */
    private static final String EMPTY_LINK_LOCAL_GID = "fe80:0000:0000:0000:0000:0000:0000:0000";
    private static final String IPV4_MAPPED_PREFIX = "0000:0000:0000:0000:0000:ffff:";

    private SysfsParsers() {
    }

    /** {@code "4: ACTIVE"} (state), {@code "5: LinkUp"} (phys_state), {@code "1: CA"} (node_type). */
    public static IdName parseIdName(String text) {
        parseText(text);
        Matcher m = ID_NAME.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("expected \"<id>: <name>\", got " + ProblemText.quote(text));
        }
        try {
            return new IdName(Integer.parseInt(m.group(1)), m.group(2));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("id out of range in " + ProblemText.quote(text));
        }
    }

    /**
     * {@code rate} in bytes per second: {@code "100 Gb/sec (4X EDR)"} → 12,500,000,000;
     * {@code "2.5 Gb/sec (1X SDR)"} → 312,500,000; old kernels' {@code "10 Gb/sec (4X)"} → 1,250,000,000.
     * Decimal arithmetic, because half-Gb/s rates ({@code ".5"}) are exact in bytes.
     */
    public static long parseRateBytesPerSecond(String text) {
        Matcher m = RATE.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("expected \"<n> Gb/sec (<width>X <speed>)\", got " + ProblemText.quote(text));
        }
        try {
            return new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(BYTES_PER_SECOND_PER_GBIT)).longValueExact();
        } catch (ArithmeticException e) {
            // a fraction of a byte per second (0.0000000001 Gb/sec) or beyond a long: no kernel prints that
            throw new IllegalArgumentException("rate is not a whole number of bytes per second within 64 bits: "
                    + ProblemText.quote(text));
        }
    }

    /**
     * A counter file: decimal unsigned 64-bit (kept in a long with unsigned semantics), or null
     * for {@code N/A (no PMA)}, which means "this device has no such counter", not zero.
     */
    public static Long parseCounter(String text) {
        if (NO_PMA.equals(text)) {
            return null;
        }
        try {
            return Long.parseUnsignedLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected an unsigned decimal counter, got " + ProblemText.quote(text));
        }
    }

    /** {@code gids/<i>}, lower-cased; the kernel prints 8 groups of 4 hex digits ({@code %pI6}). */
    public static String parseGid(String text) {
        String gid = text.toLowerCase(Locale.ROOT);
        if (!GID.matcher(gid).matches()) {
            throw new IllegalArgumentException("expected a GID of 8 groups of 4 hex digits, got " + ProblemText.quote(text));
        }
        return gid;
    }

    /** True for the entries a GID table lists but that hold no address (show_gids skips the same two). */
    public static boolean isEmptyGid(String gid) {
        return EMPTY_GID.equals(gid) || EMPTY_LINK_LOCAL_GID.equals(gid);
    }

    /**
     * The dotted IPv4 address of an IPv4-mapped GID ({@code ::ffff:a.b.c.d}, what RoCE uses for
     * IPv4 addresses), e.g. {@code 0000:0000:0000:0000:0000:ffff:c0a8:0102} → {@code 192.168.1.2};
     * null for any other GID.
     */
    public static String ipv4OfGid(String gid) {
        if (!gid.startsWith(IPV4_MAPPED_PREFIX)) {
            return null;
        }
        String tail = gid.substring(IPV4_MAPPED_PREFIX.length()).replace(":", "");
        byte[] b = HexFormat.of().parseHex(tail);
        return (b[0] & 0xff) + "." + (b[1] & 0xff) + "." + (b[2] & 0xff) + "." + (b[3] & 0xff);
    }

    /**
     * The MAC address a node GUID was derived from by EUI-64 ({@code addrconf_addr_eui48}: MAC bytes
     * 0..2 with the universal/local bit 0x02 of byte 0 flipped, {@code ff:fe}, MAC bytes 3..5), as
     * {@code /sys/class/net/<if>/address} prints it; null when the GUID is not of that form.
     * eRDMA sets its node_guid this way, which is how its netdev is found.
     */
    public static String macOfEui64Guid(String nodeGuid) {
        String guid = nodeGuid.toLowerCase(Locale.ROOT);
        if (!GUID.matcher(guid).matches()) {
            return null;
        }
        byte[] g = HexFormat.of().parseHex(guid.replace(":", ""));
        if ((g[3] & 0xff) != 0xff || (g[4] & 0xff) != 0xfe) {
            return null;
        }
        byte[] mac = {(byte) (g[0] ^ 0x02), g[1], g[2], g[5], g[6], g[7]};
        return HexFormat.ofDelimiter(":").formatHex(mac);
    }

    /** {@code /sys/class/net/<if>/dev_port}: decimal, 0-based port of a multi-port function. */
    public static int parseDevPort(String text) {
        try {
            return requireNotNegative(Integer.parseInt(text));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a decimal dev_port, got " + ProblemText.quote(text));
        }
    }

    /** {@code /sys/class/net/<if>/dev_id}: hex with {@code 0x} prefix, 0-based port (older kernels' port index). */
    public static int parseDevId(String text) {
        String digits = text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
        try {
            return requireNotNegative(Integer.parseInt(digits, 16));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a hex dev_id, got " + ProblemText.quote(text));
        }
    }

    /** A port index below 0 would name no port; NumberFormatException so the callers' message quotes the text. */
    private static int requireNotNegative(int index) {
        if (index < 0) {
            throw new NumberFormatException("negative");
        }
        return index;
    }

    /**
     * A text attribute ({@code fw_ver}, {@code board_id}, {@code link_layer}, a GID's type or netdev) as
     * printed, when it is printable text: the kernel prints these with {@code %s} from driver strings,
     * so a NUL byte, a control character or bytes that were not UTF-8 (decoded as U+FFFD) mean a broken
     * file, not a name to pass on to the collector, a terminal or an ioctl.
     */
    public static String parseText(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\ufffd') {
                throw new IllegalArgumentException("expected printable UTF-8 text, got " + ProblemText.quote(text));
            }
        }
        return text;
    }
}
