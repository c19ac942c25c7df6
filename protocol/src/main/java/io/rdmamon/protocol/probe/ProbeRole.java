package io.rdmamon.protocol.probe;

import io.rdmamon.protocol.text.WireText;

/** Which side of a perftest pair an agent runs. */
public enum ProbeRole {
    /** perftest without a host argument: waits for one client on a TCP port (the destination). */
    SERVER("server"),
    /** perftest with the server's address: generates the traffic (the source). */
    CLIENT("client");

    private final String wireName;

    ProbeRole(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The role named {@code name} on the wire, or an exception naming the valid ones. */
    public static ProbeRole fromWire(String name) {
        for (ProbeRole role : values()) {
            if (role.wireName.equals(name)) {
                return role;
            }
        }
        throw new IllegalArgumentException("unknown probe role " + WireText.quote(name) + " (expected server or client)");
    }
}
