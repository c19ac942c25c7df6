package io.rdmamon.agent.devlink;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.devlink.HealthReporter;
import io.rdmamon.nativeio.devlink.NetlinkDevlinkHealth;
import io.rdmamon.nativeio.netlink.JnrNetlink;
import io.rdmamon.nativeio.netlink.NetlinkException;

import java.io.IOException;
import java.util.List;

/**
 * The live host's reporters: one {@code DEVLINK_CMD_HEALTH_REPORTER_GET} dump ({@link NetlinkDevlinkHealth}). A kernel
 * without the devlink family (ENOENT), a refused request (EPERM, EACCES) or a binding that cannot load is unsupported.
 * Blocking: call it on a worker.
 */
public final class NetlinkDevlinkHealthReader implements DevlinkHealthReader {
    private static final String SUBJECT = "devlink health";

    private final NetlinkDevlinkHealth devlink;
    /** Why the binding did not load; null when it did. */
    private final String unavailable;

    NetlinkDevlinkHealthReader(NetlinkDevlinkHealth devlink, String unavailable) {
        this.devlink = devlink;
        this.unavailable = unavailable;
    }

    /** The reader over the jnr-ffi netlink binding, or one that says why it could not load. */
    public static DevlinkHealthReader loadNative() {
        try {
            return new NetlinkDevlinkHealthReader(new NetlinkDevlinkHealth(new JnrNetlink()), null);
        } catch (RuntimeException | LinkageError e) {
            return new NetlinkDevlinkHealthReader(null, "devlink netlink unavailable: " + e.getMessage());
        }
    }

    @Override
    public String subject() {
        return SUBJECT;
    }

    @Override
    public List<HealthReporter> reporters() throws IOException {
        if (unavailable != null) {
            throw new UnsupportedCapabilityException(unavailable);
        }
        try {
            return devlink.reporters();
        } catch (NetlinkException e) {
            if (e.errno() == Errno.ENOENT) {
                throw new UnsupportedCapabilityException("the kernel has no devlink generic netlink family (ENOENT)");
            }
            if (e.errno() == Errno.EPERM || e.errno() == Errno.EACCES) {
                throw new UnsupportedCapabilityException("devlink health dump refused: " + e.getMessage());
            }
            throw e;
        } catch (LinkageError e) {
            throw new IOException(SUBJECT + ": devlink netlink unavailable: " + e, e);
        }
    }
}
