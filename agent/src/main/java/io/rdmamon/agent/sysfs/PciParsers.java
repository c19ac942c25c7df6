package io.rdmamon.agent.sysfs;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Pure parsers for the PCIe files of {@code /sys/bus/pci/devices/<address>/} (docs/reference/physical-layer.md §5).
 * Each takes the trimmed
 * file content and throws {@link IllegalArgumentException} quoting what it refused, like {@link SysfsParsers}.
 */
public final class PciParsers {
    /** {@code 0000:3b:00.0}: domain, bus, device, function (sysfs prints them lower-case). */
    public static final Pattern ADDRESS = Pattern.compile("[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
    /** {@code "16.0 GT/s PCIe"} (kernels since about 5.3) or {@code "8 GT/s"}, {@code "2.5 GT/s"} (older ones). */
    private static final Pattern SPEED = Pattern.compile("(\\d+(?:\\.\\d+)?) GT/s(?: PCIe)?");
    private static final long TRANSFERS_PER_GT = 1_000_000_000L;
    private static final String UEVENT_SLOT_NAME = "PCI_SLOT_NAME=";

    private PciParsers() {
    }

    /**
     * {@code current_link_speed} / {@code max_link_speed} in transfers per second ({@code "8.0 GT/s PCIe"} →
     * 8,000,000,000, {@code "2.5 GT/s"} → 2,500,000,000); null for {@code "Unknown"} (new kernels) or
     * {@code "Unknown speed"} (old ones): the link is down or the speed is one the kernel has no name for.
     */
    public static Long parseLinkSpeed(String text) {
        if (text.startsWith("Unknown")) {
            return null;
        }
        Matcher m = SPEED.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("expected \"<n> GT/s PCIe\", \"<n> GT/s\" or \"Unknown\", got "
                    + ProblemText.quote(text));
        }
        try {
            return new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(TRANSFERS_PER_GT)).longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("link speed is not a whole number of transfers per second within 64 bits: "
                    + ProblemText.quote(text));
        }
    }

    /**
     * The address in a PCI function's {@code uevent}, its {@code PCI_SLOT_NAME=0000:3b:00.0} line among
     * {@code DRIVER=}, {@code PCI_CLASS=}, {@code PCI_ID=}, {@code PCI_SUBSYS_ID=}, {@code MODALIAS=}; null when there
     * is
     * no such line (the uevent of a device that is not a PCI function, such as {@code virtioN}).
     */
    public static String parseUeventSlotName(String text) {
        for (String line : text.split("\n")) {
            if (line.startsWith(UEVENT_SLOT_NAME)) {
                String address = line.substring(UEVENT_SLOT_NAME.length()).strip();
                if (!ADDRESS.matcher(address).matches()) {
                    throw new IllegalArgumentException("expected PCI_SLOT_NAME=<dddd:bb:dd.f>, got "
                            + ProblemText.quote(line));
                }
                return address;
            }
        }
        return null;
    }

    /** {@code current_link_width} / {@code max_link_width}: lanes ({@code "%u"}); null for 0 (no link trained). */
    public static Integer parseLinkWidth(String text) {
        int width;
        try {
            width = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a number of lanes, got " + ProblemText.quote(text));
        }
        if (width < 0 || width > 32) {
            throw new IllegalArgumentException("expected 0..32 lanes, got " + ProblemText.quote(text));
        }
        return width == 0 ? null : width;
    }

    /**
     * The total of an {@code aer_dev_correctable} / {@code _nonfatal} / {@code _fatal} file: its
     * {@code TOTAL_ERR_*} line, one {@code "<name> <count>"} per line. Names had spaces on 4.19-era kernels
     * ({@code "Receiver Error 2"}), so the count is the last token and the rest the name. Without a
     * {@code TOTAL_ERR_} line (no kernel is known to omit it) the lines are summed.
     */
    public static long parseAerTotal(String text) {
        long sum = 0;
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            int space = trimmed.lastIndexOf(' ');
            if (space < 1) {
                throw new IllegalArgumentException("expected \"<error name> <count>\" lines, got " + ProblemText.quote(trimmed));
            }
            long count;
            try {
                count = Long.parseUnsignedLong(trimmed.substring(space + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected a count at the end of " + ProblemText.quote(trimmed));
            }
            if (trimmed.startsWith("TOTAL_ERR_")) {
                return count;
            }
            sum += count;
        }
        return sum;
    }
}
