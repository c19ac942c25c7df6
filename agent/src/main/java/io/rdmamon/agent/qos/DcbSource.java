package io.rdmamon.agent.qos;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.protocol.model.QosConfig;

import java.io.IOException;
import java.util.List;

/**
 * Where a netdev's DCB configuration comes from: DCB netlink ({@code RTM_GETDCB}/{@code DCB_CMD_IEEE_GET}) on a
 * real host, or the {@code dcb -j <obj> show dev <if>} captures under {@code <root>/dcb/<if>/} (docs/architecture.md
 * "Host root").
 */
@FunctionalInterface
public interface DcbSource {

    /**
     * The DCB part of {@code ifname}'s QoS configuration: a {@link QosConfig} with {@code source}, {@code dcbx},
     * {@code pfc}, {@code ets}, {@code app}, {@code trustOrder}, {@code buffer} and {@code tcMaxrateKbits} filled as
     * far as the driver answers; {@code ecn}, {@code trafficClass} and {@code defaultRoceTos} are null (other files).
     *
     * @throws UnsupportedCapabilityException when the netdev has no DCB (no dcbnl_ops: veth, virtio-net, an mlx5 VF),
     *                                         e.g. {@code no DCB support on vethA (EOPNOTSUPP)}
     * @throws IOException                     naming the interface and why, e.g. {@code no such interface nosuch0
     *                                         (ENODEV)}, or the capture file at fault
     */
    QosConfig read(String ifname) throws IOException;

    /**
     * What one read gave: the configuration and the parts the netdev does not support although it has DCB (e.g. a
     * capture whose {@code pfc} object printed nothing: {@code dcb} said "not supported"), each naming the part; empty
     * when all were read. A part that exists and cannot be read fails the whole read instead.
     */
    record Reading(QosConfig config, List<String> unsupported) {
        public Reading {
            unsupported = List.copyOf(unsupported);
        }
    }

    /** {@link #read} with the unsupported single parts; a source that reads all parts at once keeps this default. */
    default Reading readParts(String ifname) throws IOException {
        return new Reading(read(ifname), List.of());
    }

    /**
     * No configuration was captured for the interface (a host root without {@code dcb/<if>/}): nothing is known, and
     * nothing failed either, so the reader reports neither a configuration nor a status.
     */
    final class NotCapturedException extends IOException {
        public NotCapturedException(String message) {
            super(message);
        }
    }

    /** A source that always fails with {@code reason}: when the real one could not even be set up. */
    static DcbSource unavailable(String reason) {
        return ifname -> {
            throw new IOException(ifname + ": " + reason);
        };
    }
}
