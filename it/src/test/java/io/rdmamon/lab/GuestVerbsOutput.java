package io.rdmamon.lab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads the lines {@link GuestVerbs} prints. */
final class GuestVerbsOutput {
    private GuestVerbsOutput() {
    }

    static List<String> devices(String text) {
        List<String> devices = new ArrayList<>();
        text.lines().filter(l -> l.startsWith("device ")).forEach(l -> devices.add(l.split(" ")[1]));
        return devices;
    }

    /** The {@code key=value} pairs of the line {@code port DEV/P …}. */
    static Map<String, String> port(String text, String port) {
        return pairs(line(text, "port " + port + " "));
    }

    /** Non-empty GIDs of {@code DEV/P} by index, as hex without separators. */
    static Map<Integer, String> gids(String text, String port) {
        Map<Integer, String> gids = new TreeMap<>();
        text.lines().filter(l -> l.startsWith("gid " + port + "/")).forEach(l -> {
            String subject = l.split(" ")[1];
            gids.put(Integer.parseInt(subject.substring(subject.lastIndexOf('/') + 1)), pairs(l).get("gid"));
        });
        return gids;
    }

    static String gidAttribute(String text, String gid, String key) {
        return pairs(line(text, "gid " + gid + " ")).get(key);
    }

    private static String line(String text, String start) {
        return text.lines().filter(l -> l.startsWith(start)).findFirst()
                .orElseThrow(() -> new AssertionError("no line starting '" + start + "' in: " + text));
    }

    private static Map<String, String> pairs(String line) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String field : line.split(" ")) {
            int eq = field.indexOf('=');
            if (eq > 0) {
                pairs.put(field.substring(0, eq), field.substring(eq + 1));
            }
        }
        return pairs;
    }
}
