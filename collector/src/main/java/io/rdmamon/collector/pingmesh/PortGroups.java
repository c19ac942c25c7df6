package io.rdmamon.collector.pingmesh;

import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.LldpNeighbor;

import java.util.List;
import java.util.Locale;

/**
 * A port's group, where it came from: the first configured group whose glob matches the node ({@code config}), else
 * the switch its LLDP neighbour names ({@code lldp}: the system name, else the chassis id), else the whole fleet
 * ({@code fleet}: one group, which the planner samples). Configuration wins over LLDP so that an operator can fix what
 * LLDP gets wrong (a switch pair that announces two names for one rack, a fleet without lldpd).
 */
public final class PortGroups {
    /** The group of every port nothing else places. */
    public static final String FLEET = "fleet";
    /**
     * Put before a switch's name that would be taken for {@link #FLEET} (a switch named {@code fleet}) or for an
     * escaped name (one that starts with this), so that such a switch stays a group of its own: names without the
     * prefix are kept, so no two switches share a group and none merges into the fleet.
     */
    static final String LLDP_ESCAPE = "lldp:";

    public enum Source {
        CONFIG, LLDP, FLEET;

        /** {@code config}, {@code lldp}, {@code fleet}. */
        public String jsonName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A port's group and how it was found. */
    public record Group(String name, Source source) {
    }

    private static final Group WHOLE_FLEET = new Group(FLEET, Source.FLEET);
    private final List<GroupRule> configured;

    /** @param configured the {@code pingmesh.groups} rules, in file order */
    public PortGroups(List<GroupRule> configured) {
        this.configured = List.copyOf(configured);
    }

    public Group of(String node, IbPort port) {
        for (GroupRule rule : configured) {
            if (rule.matches(node)) {
                return new Group(rule.name(), Source.CONFIG);
            }
        }
        String neighbour = lldpSwitch(port.neighbor());
        if (neighbour != null && !neighbour.isBlank()) {
            return new Group(lldpGroupName(neighbour.strip()), Source.LLDP);
        }
        return WHOLE_FLEET;
    }

    static String lldpGroupName(String switchName) {
        return switchName.equals(FLEET) || switchName.startsWith(LLDP_ESCAPE) ? LLDP_ESCAPE + switchName : switchName;
    }

    /** The switch an LLDP neighbour names: its system name, readable, else its chassis id; null when none. */
    private static String lldpSwitch(LldpNeighbor neighbor) {
        if (neighbor == null) {
            return null;
        }
        return neighbor.systemName() != null ? neighbor.systemName() : neighbor.chassisId();
    }
}
