package io.rdmamon.agent.fabric;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sweeping port's subnet, from {@code smpquery portinfo} (libibmad's PortInfo dump, {@code GidPrefix:....0xfe80...}
 * and {@code SMLid:.....1}). Pure.
 *
 * @param subnetPrefix PortInfo GidPrefix, {@code 0x} and 16 hex digits
 * @param smLid        PortInfo MasterSMLID; null when 0 (no SM)
 */
record PortInfoText(String subnetPrefix, Integer smLid) {
    private static final Pattern PREFIX = Pattern.compile("(?m)^GidPrefix:\\.*(0x[0-9a-fA-F]+)\\s*$");
    private static final Pattern SM_LID = Pattern.compile("(?m)^SMLid:\\.*(\\d+)\\s*$");

    static PortInfoText parse(String text) throws FabricTextException {
        Matcher prefix = PREFIX.matcher(text);
        if (!prefix.find()) {
            throw new FabricTextException("smpquery portinfo", 1, text.lines().findFirst().orElse(""),
                    "no GidPrefix line");
        }
        Matcher sm = SM_LID.matcher(text);
        Integer smLid = sm.find() ? Integer.valueOf(sm.group(1)) : null;
        return new PortInfoText(PortKey.guid(prefix.group(1)), smLid == null || smLid == 0 ? null : smLid);
    }
}
