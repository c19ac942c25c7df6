package io.rdmamon.collector.pingmesh;

import io.rdmamon.protocol.model.IbPort;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A port's group, where it came from: the first configured group whose glob matches the node ({@code config}), else
 * the switch its LLDP neighbour names ({@code lldp}: the system name, else the chassis id), else the whole fleet
 * ({@code fleet}: one group, which the planner samples). Configuration wins over LLDP so that an operator can fix what
 * LLDP gets wrong (a switch pair that announces two names for one rack, a fleet without lldpd).
 */
public final class PortGroups {
    /** The group of every port nothing else places. */
    public static final String FLEET = "fleet";

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
    private final Function<IbPort, String> lldpSwitch;

    /**
     * @param configured the {@code pingmesh.groups} rules, in file order
     * @param lldpSwitch the switch a port's LLDP neighbour names (system name, else chassis id); null when unknown
     */
    public PortGroups(List<GroupRule> configured, Function<IbPort, String> lldpSwitch) {
        this.configured = List.copyOf(configured);
        this.lldpSwitch = lldpSwitch;
    }

    public Group of(String node, IbPort port) {
        for (GroupRule rule : configured) {
            if (rule.matches(node)) {
                return new Group(rule.name(), Source.CONFIG);
            }
        }
        String neighbour = lldpSwitch.apply(port);
        if (neighbour != null && !neighbour.isBlank()) {
            return new Group(neighbour.strip(), Source.LLDP);
        }
        return WHOLE_FLEET;
    }
}
