package io.rdmamon.protocol.fabric;

import java.util.List;

/**
 * The IB names of SMP PortInfo (attribute 0x0015) {@code PortState} and {@code PortPhysicalState} values (IBTA spec
 * vol. 1 §14.2.5.6), as infiniband-diags prints them (libibmad {@code mad_dump_portstate}, {@code mad_dump_physportstate}).
 */
public final class PortState {
    /** PortState 1..4; 0 is "no state change" and never read back. */
    public static final List<String> STATES = List.of("NoChange", "Down", "Initialize", "Armed", "Active");
    /** PortPhysicalState 0..7. */
    public static final List<String> PHYS_STATES = List.of("NoChange", "Sleep", "Polling", "Disabled",
            "PortConfigurationTraining", "LinkUp", "LinkErrorRecovery", "PhyTest");
    /** PortState Active: the only state in which a port passes data. */
    public static final int ACTIVE = 4;
    /** PortPhysicalState LinkUp. */
    public static final int LINK_UP = 5;

    private PortState() {
    }

    /** The name of PortState {@code id}, or {@code "unknown(N)"}. */
    public static String stateName(int id) {
        return id >= 0 && id < STATES.size() ? STATES.get(id) : "unknown(" + id + ")";
    }

    /** The name of PortPhysicalState {@code id}, or {@code "unknown(N)"}. */
    public static String physStateName(int id) {
        return id >= 0 && id < PHYS_STATES.size() ? PHYS_STATES.get(id) : "unknown(" + id + ")";
    }
}
