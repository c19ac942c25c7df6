package io.rdmamon.agent.ethtool;

import io.rdmamon.protocol.model.FecMode;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Parses what {@code ethtool --show-fec IF} prints (ethtool {@code ethtool.c} {@code do_gfec}/netlink {@code fec.c}),
 * the capture format of {@code <root>/ethtool/<if>/fec}:
 * <pre>
 * FEC parameters for ens1f0np0:
 * Supported/Configured FEC encodings: Auto RS
 * Active FEC encoding: RS
 * </pre>
 * ethtool 5.x prints "Configured FEC encodings:", newer versions "Supported/Configured FEC encodings:"; both are read.
 * Pure.
 */
public final class FecText {
    private static final Set<String> NAMES = Set.of("None", "Auto", "Off", "RS", "BaseR", "LLRS");

    private FecText() {
    }

    /**
     * The modes of {@code text}; an "Active FEC encoding: None" is a null active mode.
     *
     * @throws IllegalArgumentException naming the line and the word that is not an ethtool FEC name, or saying that
     *                                  the active line is missing
     */
    public static FecMode parse(String text) {
        String active = null;
        boolean activeSeen = false;
        List<String> configured = List.of();
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            int colon = trimmed.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = trimmed.substring(0, colon).strip();
            if (key.equals("Active FEC encoding")) {
                activeSeen = true;
                List<String> words = names(trimmed.substring(colon + 1), trimmed);
                active = words.isEmpty() || words.get(0).equals("None") ? null : words.get(0);
            } else if (key.endsWith("Configured FEC encodings")) {
                configured = names(trimmed.substring(colon + 1), trimmed);
            }
        }
        if (!activeSeen) {
            throw new IllegalArgumentException("no \"Active FEC encoding:\" line: not an ethtool --show-fec capture");
        }
        return new FecMode(active, configured);
    }

    private static List<String> names(String value, String line) {
        List<String> words = Arrays.stream(value.strip().split("\\s+")).filter(w -> !w.isEmpty()).toList();
        for (String word : words) {
            if (!NAMES.contains(word)) {
                throw new IllegalArgumentException("\"" + word + "\" in \"" + line
                        + "\" is not an ethtool FEC encoding (None, Auto, Off, RS, BaseR, LLRS)");
            }
        }
        return words;
    }
}
