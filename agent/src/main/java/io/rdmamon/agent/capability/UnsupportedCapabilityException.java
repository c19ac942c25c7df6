package io.rdmamon.agent.capability;

import java.io.IOException;

/**
 * The device, driver or kernel lacks the optional capability a source reads: a netdev without DCB (EOPNOTSUPP from
 * DCB netlink, or a capture where {@code dcb} said "not supported"), a driver without ethtool statistics. Nothing
 * failed and there is nothing to read; the host reader turns it into an {@code unsupported} source status with this
 * message as the reason, never a failed one. Thrown only for "not supported" answers: any other errno, a file that does
 * not parse or a read that hangs is a failure.
 */
public final class UnsupportedCapabilityException extends IOException {
    public UnsupportedCapabilityException(String reason) {
        super(reason);
    }
}
