package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.fabric.FabricStore;
import io.rdmamon.collector.fabric.HostPorts;
import io.rdmamon.collector.fabric.LinkEnds;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.LldpNeighbor;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A port's group, where it came from: the first configured group whose glob matches the node ({@code config}), else
 * the switch its LLDP neighbour names ({@code lldp}: the system name, else the chassis id), else for an InfiniBand
 * port the leaf switch a swept fabric cables it to ({@code fabric}: {@code ib:<the switch's NodeDescription, else its
 * GUID>}), else the whole fleet ({@code fleet}: one group, which the planner samples). Configuration wins over LLDP so that an operator can fix what
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
        CONFIG, LLDP, FABRIC, FLEET;

        /** {@code config}, {@code lldp}, {@code fabric}, {@code fleet}. */
        public String jsonName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A port's group and how it was found. */
    public record Group(String name, Source source) {
    }

    /** Put before an InfiniBand leaf switch's name: its group can be told from an LLDP switch's of the same name. */
    static final String FABRIC_PREFIX = "ib:";
    private static final Group WHOLE_FLEET = new Group(FLEET, Source.FLEET);
    private final List<GroupRule> configured;
    private final FabricStore fabrics;

    /** @param configured the {@code pingmesh.groups} rules, in file order */
    public PortGroups(List<GroupRule> configured) {
        this(configured, null);
    }

    /** Also groups InfiniBand ports by the leaf switch {@code fabrics} cables them to (null: no fabric). */
    public PortGroups(List<GroupRule> configured, FabricStore fabrics) {
        this.configured = List.copyOf(configured);
        this.fabrics = fabrics;
    }

    /** The group of {@code device}'s {@code port} on {@code node}. */
    public Group of(String node, IbDevice device, IbPort port) {
        Group group = of(node, port);
        if (group.source() != Source.FLEET || fabrics == null) {
            return group;
        }
        String guid = HostPorts.fabricGuid(device.nodeGuid());
        Optional<LinkEnds.End> leaf = guid == null ? Optional.empty() : fabrics.switchPortOf(guid, port.port());
        return leaf.map(end -> new Group(FABRIC_PREFIX + (end.description().isBlank() ? end.guid()
                : end.description().strip()), Source.FABRIC)).orElse(group);
    }

    /** The group of {@code port} on {@code node} by configuration or LLDP, else the fleet. */
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
        return switchName.equals(FLEET) || switchName.startsWith(LLDP_ESCAPE) || switchName.startsWith(FABRIC_PREFIX)
                ? LLDP_ESCAPE + switchName : switchName;
    }

    /** The switch an LLDP neighbour names: its system name, readable, else its chassis id; null when none. */
    private static String lldpSwitch(LldpNeighbor neighbor) {
        if (neighbor == null) {
            return null;
        }
        return neighbor.systemName() != null ? neighbor.systemName() : neighbor.chassisId();
    }
}
