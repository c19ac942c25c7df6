package io.rdmamon.protocol.model;

import io.rdmamon.protocol.text.WireLimits;

/**
 * The switch port a port's netdev is cabled to, as its LLDP neighbour announces it and {@code lldpctl -f json} shows it
 * (lldpd's {@code src/client/display.c}: a chassis {@code id} with its {@code type}, the chassis {@code name}, a port
 * {@code id} with its {@code type}, the port {@code descr}). The pingmesh groups ports by it (issue 24: the chassis is
 * the port's top-of-rack switch). Read on the slow cadence; null on a port when no neighbour is known.
 *
 * <p>Every field may be null: lldpd leaves out what the neighbour did not send (a switch without a system name, a port
 * without a description) and prints an empty string for an id it could not render. Blank values are null.
 *
 * @param chassisId       the chassis id as lldpctl renders it ({@code 1c:34:da:12:00:01} for a MAC); null when empty
 * @param chassisIdType   lldpd's name of the chassis id subtype: {@code mac}, {@code ip}, {@code ifname},
 *                        {@code ifalias}, {@code local}, ...; null when not printed
 * @param systemName      the system name TLV ({@code leaf-01}); null when the neighbour sent none
 * @param portId          the port id ({@code Ethernet8} for type {@code ifname}); null when empty
 * @param portIdType      lldpd's name of the port id subtype: {@code ifname}, {@code mac}, {@code local}, ...; null
 *                        when not printed
 * @param portDescription the port description TLV; null when the neighbour sent none
 */
public record LldpNeighbor(String chassisId, String chassisIdType, String systemName, String portId, String portIdType,
                           String portDescription) {
    /**
     * Most characters of a field the agent sends. The values come from a switch (LLDP strings reach 255 bytes, and
     * lldpctl prints an unknown id subtype as hex, three characters a byte); 64 is the least {@code ingest.maxNameLength}
     * a collector accepts, so a long value costs its tail, never the node's stream.
     */
    public static final int MAX_FIELD_CHARS = WireLimits.MIN_NAME_CHARS;

    public LldpNeighbor {
        chassisId = blankToNull(chassisId);
        chassisIdType = blankToNull(chassisIdType);
        systemName = blankToNull(systemName);
        portId = blankToNull(portId);
        portIdType = blankToNull(portIdType);
        portDescription = blankToNull(portDescription);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
