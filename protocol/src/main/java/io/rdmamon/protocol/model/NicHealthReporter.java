package io.rdmamon.protocol.model;

import java.util.Objects;

/**
 * One devlink health reporter of a NIC ({@code devlink health show}; the kernel's
 * Documentation/networking/devlink/devlink-health.rst), placed on the RDMA device and port of its devlink handle.
 * mlx5 registers {@code fw} and {@code fw_fatal} per PCI function and {@code tx}, {@code rx} (and {@code vnic}) per
 * port.
 *
 * @param device            the RDMA device on the handle's PCI function; empty when the host has none there
 * @param port              the port number of a port reporter on a device with one port; empty for a device's
 *                          reporter, or when the port cannot be told
 * @param handle            the devlink handle as devlink prints it, {@code pci/0000:3b:00.0} or
 *                          {@code pci/0000:3b:00.0/65535}
 * @param reporter          the reporter's name, {@code fw_fatal}
 * @param state             {@link #HEALTHY} or {@link #ERROR}
 * @param errors            errors reported since the driver loaded
 * @param recovers          successful recoveries since the driver loaded
 * @param gracePeriodMillis the least time between two automatic recoveries; null when the reporter has none
 */
public record NicHealthReporter(String device, String port, String handle, String reporter, String state, long errors,
                                long recovers, Long gracePeriodMillis) {
    public static final String HEALTHY = "healthy";
    public static final String ERROR = "error";
    /** The most reporters an agent sends (and a collector takes): a host of 16 dual-function NICs has about 100. */
    public static final int MAX_PER_HOST = 512;

    public NicHealthReporter {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(port, "port");
        Objects.requireNonNull(handle, "handle");
        Objects.requireNonNull(reporter, "reporter");
        Objects.requireNonNull(state, "state");
    }

    /** The reporter is in error (its last error was not recovered). */
    public boolean inError() {
        return ERROR.equals(state);
    }
}
