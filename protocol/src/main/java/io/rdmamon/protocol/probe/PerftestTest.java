package io.rdmamon.protocol.probe;

import io.rdmamon.protocol.text.WireText;

/**
 * Which perftest program a probe runs. Bandwidth probes (an operator's request) run {@code ib_write_bw}; the
 * pingmesh's latency probes run {@code ib_send_lat}, a send/receive ping-pong that prints every round trip.
 */
public enum PerftestTest {
    WRITE_BW("write_bw", "ib_write_bw"),
    SEND_LAT("send_lat", "ib_send_lat");

    private final String wireName;
    private final String program;

    PerftestTest(String wireName, String program) {
        this.wireName = wireName;
        this.program = program;
    }

    public String wireName() {
        return wireName;
    }

    /** The perftest binary's name, as Debian's {@code perftest} package installs it. */
    public String program() {
        return program;
    }

    public boolean latency() {
        return this == SEND_LAT;
    }

    /** The test named {@code name} on the wire, or an exception naming the valid ones. */
    public static PerftestTest fromWire(String name) {
        for (PerftestTest test : values()) {
            if (test.wireName.equals(name)) {
                return test;
            }
        }
        throw new IllegalArgumentException("unknown perftest test " + WireText.quote(name)
                + " (expected write_bw or send_lat)");
    }
}
