package io.rdmamon.protocol.fabric;

import java.util.Arrays;
import java.util.Optional;

/**
 * A lane speed of an IB link: SMP PortInfo {@code LinkSpeedActive}/{@code LinkSpeedExtActive} (and their
 * {@code Supported}/{@code Enabled} fields), IBTA spec vol. 1 §14.2.5.6. The name is the one written on the wire and
 * in labels; {@link #gbps()} is the per-lane signalling rate that iblinkinfo prints ("2.5 Gbps").
 */
public enum LinkSpeed {
    SDR("2.5"), DDR("5.0"), QDR("10.0"), FDR10("10.3125"), FDR("14.0625"), EDR("25.78125"), HDR("53.125"),
    NDR("106.25"), XDR("212.5");

    private final String gbps;

    LinkSpeed(String gbps) {
        this.gbps = gbps;
    }

    /** The lane rate as infiniband-diags prints it, without the unit. */
    public String gbps() {
        return gbps;
    }

    /** The speed whose lane rate infiniband-diags prints as {@code gbps} ("10.0"), if any. */
    public static Optional<LinkSpeed> ofGbps(String gbps) {
        return Arrays.stream(values()).filter(s -> s.gbps.equals(gbps)).findFirst();
    }

    /** The speed named {@code name} ("QDR"), case-insensitive, if any. */
    public static Optional<LinkSpeed> ofName(String name) {
        return Arrays.stream(values()).filter(s -> s.name().equalsIgnoreCase(name)).findFirst();
    }
}
