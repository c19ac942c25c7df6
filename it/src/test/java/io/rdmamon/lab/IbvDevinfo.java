package io.rdmamon.lab;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads {@code ibv_devinfo -v} text (rdma-core's {@code ibv_devinfo.c}) into a flat map: the device's keys as
 * printed ({@code node_guid}), each port's as {@code port<N>.<key>}, and GID lines as {@code port<N>.gid.<index>}.
 */
final class IbvDevinfo {
    private IbvDevinfo() {
    }

    static Map<String, String> parse(String text) {
        Map<String, String> values = new LinkedHashMap<>();
        String prefix = "";
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).strip();
            String value = line.substring(colon + 1).strip();
            if (key.startsWith("GID[")) {
                values.put(prefix + "gid." + Integer.parseInt(key.substring(4, key.indexOf(']')).strip()), value);
            } else if (key.equals("port")) {
                prefix = "port" + value + ".";
            } else {
                values.put(prefix + key, value);
            }
        }
        return values;
    }

    /** Port 1's GIDs by index, as printed: {@code fe80::5054:ff:fe77:1, RoCE v2}. */
    static Map<Integer, String> gids(Map<String, String> devinfo) {
        Map<Integer, String> gids = new TreeMap<>();
        devinfo.forEach((key, value) -> {
            if (key.startsWith("port1.gid.")) {
                gids.put(Integer.parseInt(key.substring("port1.gid.".length())), value);
            }
        });
        return gids;
    }

    /** The number in parentheses ({@code PORT_ACTIVE (4)} is 4), or the whole value when it is a bare number. */
    static int enumValue(String printed) {
        int open = printed.lastIndexOf('(');
        return Integer.parseInt(open < 0 ? printed.strip() : printed.substring(open + 1, printed.indexOf(')', open)));
    }

    /**
     * A port's rate from verbs' {@code active_width} and {@code active_speed} enums (printed or bare), as
     * {@code ibv_devinfo} and the kernel's sysfs {@code rate} compute it: lanes × per-lane Gb/s, in bytes per second.
     */
    static long rateBytesPerSecond(String width, String speed) {
        int lanes = switch (enumValue(width)) {
            case 1 -> 1;
            case 2 -> 4;
            case 4 -> 8;
            case 8 -> 12;
            case 16 -> 2;
            default -> throw new IllegalArgumentException("unknown active_width " + width);
        };
        double laneGbps = switch (enumValue(speed)) {
            case 1 -> 2.5;
            case 2 -> 5;
            case 4, 8 -> 10;
            case 16 -> 14;
            case 32 -> 25;
            case 64 -> 50;
            case 128 -> 100;
            case 256 -> 200;
            default -> throw new IllegalArgumentException("unknown active_speed " + speed);
        };
        return Math.round(lanes * laneGbps * 1e9 / 8);
    }
}
