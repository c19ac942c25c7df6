package io.rdmamon.agent.qos;

import io.rdmamon.protocol.model.QosConfig;

import java.io.IOException;

/**
 * Where a netdev's DCB configuration comes from: DCB netlink ({@code RTM_GETDCB}/{@code DCB_CMD_IEEE_GET}) on a
 * real host, or the {@code dcb -j <obj> show dev <if>} captures under {@code <root>/dcb/<if>/} (DESIGN.md §2).
 */
@FunctionalInterface
public interface DcbSource {

    /**
     * The DCB part of {@code ifname}'s QoS configuration: a {@link QosConfig} with {@code source}, {@code dcbx},
     * {@code pfc}, {@code ets}, {@code app}, {@code trustOrder}, {@code buffer} and {@code tcMaxrateKbits} filled as
     * far as the driver answers; {@code ecn}, {@code trafficClass} and {@code defaultRoceTos} are null (other files).
     *
     * @throws IOException naming the interface and why, e.g. {@code no DCB support on vethA (EOPNOTSUPP)},
     *                     {@code no such interface nosuch0 (ENODEV)}, or the capture file at fault
     */
    QosConfig read(String ifname) throws IOException;

    /** A source that always fails with {@code reason}: when the real one could not even be set up. */
    static DcbSource unavailable(String reason) {
        return ifname -> {
            throw new IOException(ifname + ": " + reason);
        };
    }
}
