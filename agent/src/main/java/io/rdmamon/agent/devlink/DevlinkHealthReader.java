package io.rdmamon.agent.devlink;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.nativeio.devlink.HealthReporter;

import java.io.IOException;
import java.util.List;

/**
 * The host's devlink health reporters: the kernel's dump on a live host ({@link NetlinkDevlinkHealthReader}), the
 * capture {@code <root>/devlink/health.json} under a host root ({@link CapturedDevlinkHealthReader}).
 */
public interface DevlinkHealthReader {
    /** What is read, named in the source's statuses ({@code devlink health}, {@code devlink/health.json}). */
    String subject();

    /**
     * Every reporter, in the kernel's order.
     *
     * @throws UnsupportedCapabilityException when the host has no devlink (no family, no capture) or the agent may not
     *                                        ask (EPERM): nothing failed
     * @throws IOException                    naming what failed otherwise
     */
    List<HealthReporter> reporters() throws IOException;
}
