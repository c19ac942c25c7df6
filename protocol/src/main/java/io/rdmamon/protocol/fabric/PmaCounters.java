package io.rdmamon.protocol.fabric;

import java.util.List;
import java.util.Set;

/**
 * The PMA (performance management, class 0x04) counter names of a fabric port, as the IBTA spec vol. 1 §16.1.3
 * names the fields, which are also the names {@code perfquery} prints and ibsim's {@code PerformanceSet} takes.
 */
public final class PmaCounters {
    /** The counter set read with PortCounters (attribute 0x0012); {@code PortXmitWait} is its optional last field. */
    public static final String PORT_COUNTERS = "PortCounters";
    /** The counter set read with PortCountersExtended (attribute 0x001D): 64-bit data counters. */
    public static final String PORT_COUNTERS_EXTENDED = "PortCountersExtended";

    /** PortCounters' error counters, narrow (8 to 16 bits) and saturating. */
    public static final List<String> ERRORS = List.of("SymbolErrorCounter", "LinkErrorRecoveryCounter",
            "LinkDownedCounter", "PortRcvErrors", "PortRcvRemotePhysicalErrors", "PortRcvSwitchRelayErrors",
            "PortXmitDiscards", "PortXmitConstraintErrors", "PortRcvConstraintErrors", "LocalLinkIntegrityErrors",
            "ExcessiveBufferOverrunErrors", "VL15Dropped");
    /** Ticks in which the port had data to send and no flow-control credit: congestion (PortCounters, 32-bit). */
    public static final String PORT_XMIT_WAIT = "PortXmitWait";
    /** The data counters: 32-bit in PortCounters, 64-bit in PortCountersExtended (data in 4-byte words). */
    public static final List<String> DATA = List.of("PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts");
    /** PortCountersExtended's packet counters by cast. */
    public static final List<String> EXTENDED_PACKETS = List.of("PortUnicastXmitPkts", "PortUnicastRcvPkts",
            "PortMulticastXmitPkts", "PortMulticastRcvPkts");
    /** The counters that say a cable or its ends are bad (the rule {@code fabric_cable_errors}). */
    public static final Set<String> CABLE_ERRORS = Set.of("SymbolErrorCounter", "LinkErrorRecoveryCounter",
            "LinkDownedCounter");

    private PmaCounters() {
    }

    /** Whether {@code name} counts errors (one of {@link #ERRORS}). */
    public static boolean isError(String name) {
        return ERRORS.contains(name);
    }
}
