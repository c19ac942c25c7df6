package io.rdmamon.agent.fabric;

/**
 * A port as the diags tools name it: a GUID and a port number. The GUID is a node GUID for a switch's ports, and
 * for an HCA's port either its node GUID or its port GUID, depending on the tool ({@link DiscoveredFabric#resolve}).
 */
record PortKey(String guid, int port) {
    /** {@code 0x}-prefixed, 16 lower-case hex digits, whatever width the tool printed. */
    static String guid(String hex) {
        String digits = hex.startsWith("0x") || hex.startsWith("0X") ? hex.substring(2) : hex;
        return String.format("0x%016x", Long.parseUnsignedLong(digits, 16));
    }
}
