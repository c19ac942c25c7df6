package io.rdmamon.agent.fabric;

import io.rdmamon.protocol.fabric.LinkSpeed;
import io.rdmamon.protocol.fabric.PortState;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code iblinkinfo -l} (infiniband-diags {@code iblinkinfo.c}, line mode): one line per port of every node,
 * {@code GUID "desc" LID PORT[ext] ==( 4X 2.5 Gbps Active/ LinkUp)==> RGUID RLID RPORT[ext] "rdesc" (Could be ...)},
 * where GUID is a switch's node GUID or an HCA's port GUID, and a port with nothing linked ends in
 * {@code ==( Down/ Polling)==> [ ] "" ( )}. The state and physical state names are libibmad's, as
 * {@link PortState} lists them. Pure.
 */
final class IbLinkInfoText {
    /**
     * @param width        active lanes; null when none printed (a port that is down)
     * @param speed        active speed; null when none printed, or one this build does not know
     * @param couldBeWidth the wider width iblinkinfo says both ends support ("Could be 12X"); null when none
     * @param couldBeSpeed likewise the faster speed; null when none
     */
    record Line(int lid, int stateId, int physStateId, Integer width, LinkSpeed speed, Integer couldBeWidth,
                LinkSpeed couldBeSpeed) {
    }

    private static final Pattern LINE = Pattern.compile("^(0x[0-9a-fA-F]+)\\s+\"(.*)\"\\s+(\\d+)\\s+(\\d+)\\[[^\\]]*]"
            + "\\s+==\\(\\s*(?:(\\d+)X\\s+([\\d.]+) Gbps\\s+)?(\\w+)/\\s*(\\w+)\\)==>(.*)$");
    private static final Pattern COULD_BE_WIDTH = Pattern.compile("Could be (\\d+)X");
    private static final Pattern COULD_BE_SPEED = Pattern.compile("Could be ([\\d.]+) Gbps");

    private IbLinkInfoText() {
    }

    /** Every port's line by the GUID and port the line names. */
    static Map<PortKey, Line> parse(String text) throws FabricTextException {
        Map<PortKey, Line> lines = new LinkedHashMap<>();
        int lineNumber = 0;
        for (String line : text.split("\n", -1)) {
            lineNumber++;
            if (line.isBlank()) {
                continue;
            }
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                throw new FabricTextException("iblinkinfo", lineNumber, line, "not a port line");
            }
            int stateId = PortState.STATES.indexOf(m.group(7));
            int physStateId = PortState.PHYS_STATES.indexOf(m.group(8));
            if (stateId < 0 || physStateId < 0) {
                throw new FabricTextException("iblinkinfo", lineNumber, line, "unknown port state "
                        + m.group(7) + "/" + m.group(8));
            }
            String rest = m.group(9);
            Matcher cw = COULD_BE_WIDTH.matcher(rest);
            Matcher cs = COULD_BE_SPEED.matcher(rest);
            lines.put(new PortKey(PortKey.guid(m.group(1)), Integer.parseInt(m.group(4))),
                    new Line(Integer.parseInt(m.group(3)), stateId, physStateId,
                            m.group(5) == null ? null : Integer.valueOf(m.group(5)), speed(m.group(6)),
                            cw.find() ? Integer.valueOf(cw.group(1)) : null, cs.find() ? speed(cs.group(1)) : null));
        }
        return lines;
    }

    private static LinkSpeed speed(String gbps) {
        return gbps == null ? null : LinkSpeed.ofGbps(gbps).orElse(null);
    }
}
