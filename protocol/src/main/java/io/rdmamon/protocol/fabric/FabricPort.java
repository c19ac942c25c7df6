package io.rdmamon.protocol.fabric;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One port of a fabric node as a sweep read it. Widths are lane counts (1, 2, 4, 8, 12); speeds {@link LinkSpeed}
 * names. A list of supported or enabled values that the reader could not learn is empty.
 *
 * @param number          the port number: SMP PortInfo (0x0015) is read with it as attribute modifier; a switch's
 *                        management port is 0
 * @param lid             PortInfo {@code LID} (a switch's ports all answer with port 0's); null when not assigned
 * @param stateId         PortInfo {@code PortState} (1 Down .. 4 Active)
 * @param state           its name ({@link PortState#STATES})
 * @param physStateId     PortInfo {@code PortPhysicalState} (2 Polling, 3 Disabled, 5 LinkUp, ...)
 * @param physState       its name ({@link PortState#PHYS_STATES})
 * @param width           PortInfo {@code LinkWidthActive} in lanes; null when the port is down
 * @param speed           PortInfo {@code LinkSpeedActive} (or {@code LinkSpeedExtActive}); null when down
 * @param widthsSupported PortInfo {@code LinkWidthSupported}, in lanes
 * @param speedsSupported PortInfo {@code LinkSpeedSupported} (and {@code LinkSpeedExtSupported})
 * @param widthsEnabled   PortInfo {@code LinkWidthEnabled}, in lanes
 * @param speedsEnabled   PortInfo {@code LinkSpeedEnabled} (and {@code LinkSpeedExtEnabled})
 * @param remoteGuid      the node GUID at the other end of the cable (NodeInfo {@code NodeGUID} read through this
 *                        port on the directed route), {@code 0x}-prefixed hex; null when nothing is linked
 * @param remotePort      the port number at the other end (NodeInfo {@code LocalPortNum} read through this port)
 * @param counterSets     which PMA attributes answered: {@link PmaCounters#PORT_COUNTERS},
 *                        {@link PmaCounters#PORT_COUNTERS_EXTENDED}; empty when the counters were not read
 * @param counters        PMA counter name ({@link PmaCounters}) → unsigned value; where both sets carry a data
 *                        counter the extended (64-bit) value is the one kept
 */
public record FabricPort(int number, Integer lid, int stateId, String state, int physStateId, String physState,
                         Integer width, LinkSpeed speed, List<Integer> widthsSupported, List<LinkSpeed> speedsSupported,
                         List<Integer> widthsEnabled, List<LinkSpeed> speedsEnabled, String remoteGuid,
                         Integer remotePort, List<String> counterSets, Map<String, Long> counters) {
    /** Ports a node may have: PortInfo's port number is 8 bits, and 255 is reserved. */
    public static final int MAX_PORT = 254;

    public FabricPort {
        if (number < 0 || number > MAX_PORT) {
            throw new IllegalArgumentException("port " + number + " is outside 0.." + MAX_PORT);
        }
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(physState, "physState");
        if ((remoteGuid == null) != (remotePort == null)) {
            throw new IllegalArgumentException("port " + number + ": a remote end needs both its GUID and its port");
        }
        widthsSupported = List.copyOf(widthsSupported);
        speedsSupported = List.copyOf(speedsSupported);
        widthsEnabled = List.copyOf(widthsEnabled);
        speedsEnabled = List.copyOf(speedsEnabled);
        counterSets = List.copyOf(counterSets);
        counters = Collections.unmodifiableMap(new LinkedHashMap<>(counters));
    }

    /** Whether the port is Active and LinkUp. */
    public boolean up() {
        return stateId == PortState.ACTIVE && physStateId == PortState.LINK_UP;
    }

    /** Whether a cable leads from this port to another node. */
    public boolean linked() {
        return remoteGuid != null;
    }

    /** This port with {@code counterSets} and {@code counters} in place of its own. */
    public FabricPort withCounters(List<String> counterSets, Map<String, Long> counters) {
        return new FabricPort(number, lid, stateId, state, physStateId, physState, width, speed, widthsSupported,
                speedsSupported, widthsEnabled, speedsEnabled, remoteGuid, remotePort, counterSets, counters);
    }
}
