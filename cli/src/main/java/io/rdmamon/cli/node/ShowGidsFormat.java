package io.rdmamon.cli.node;

import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code rdmamon gids}: the GID table in the exact layout of Mellanox's {@code show_gids}
 * (mlnx-tools {@code sbin/show_gids}), so scripts that parse show_gids keep working: a header, a
 * dashes line, one tab-separated row per GID and {@code n_gids_found=N}. Pure: no I/O.
 *
 * <p>Differences, on purpose: rows are in numeric index order (show_gids uses {@code ls} order,
 * 0, 1, 10, 11, ..., 2), and the IPv4 column shows the reader's IPv4 for IPv4-mapped GIDs only.
 */
public final class ShowGidsFormat {
    static final String HEADER = "DEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4  \t\tVER\tDEV";
    static final String RULE = "---\t----\t-----\t---\t\t\t\t\t------------  \t---\t---";

    private static final Pattern VERSION = Pattern.compile("(?<![A-Za-z])[Vv].*");
    private static final String ZERO_GID = "0000:0000:0000:0000:0000:0000:0000:0000";
    /** show_gids also hides the link-local prefix with a zero interface id (a placeholder entry). */
    private static final String EMPTY_LINK_LOCAL_GID = "fe80:0000:0000:0000:0000:0000:0000:0000";

    private ShowGidsFormat() {
    }

    public static String table(List<IbDevice> devices) {
        StringBuilder out = new StringBuilder();
        out.append(HEADER).append('\n').append(RULE).append('\n');
        int found = 0;
        for (IbDevice device : devices) {
            for (IbPort port : device.ports()) {
                for (GidEntry gid : port.gids()) {
                    if (!isShown(gid)) {
                        continue;
                    }
                    out.append(device.name()).append('\t')
                            .append(port.port()).append('\t')
                            .append(gid.index()).append('\t')
                            .append(gid.gid()).append('\t');
                    // show_gids: "$ipv4  \t" when it has an IPv4, else one more tab instead
                    out.append(gid.ipv4() == null ? "\t\t" : gid.ipv4() + "  \t");
                    out.append(version(gid.type())).append('\t')
                            .append(gid.netdev() == null ? "" : gid.netdev()).append('\n');
                    found++;
                }
            }
        }
        out.append("n_gids_found=").append(found).append('\n');
        return out.toString();
    }

    /** show_gids hides all-zero GIDs and the {@code fe80::} placeholder; so does devinfo's gid_count. */
    static boolean isShown(GidEntry gid) {
        return !gid.gid().equals(ZERO_GID) && !gid.gid().equals(EMPTY_LINK_LOCAL_GID);
    }

    /**
     * show_gids' {@code grep -o "[Vv].*"} of the type ({@code v1}, {@code v2}), except that the v must
     * start a word: grep would turn the kernel's {@code Invalid GID type} into {@code valid GID type}.
     * Empty when unknown.
     */
    static String version(String type) {
        if (type == null) {
            return "";
        }
        Matcher m = VERSION.matcher(type);
        return m.find() ? m.group() : "";
    }
}
