package io.rdmamon.nativeio.devlink;

import java.util.Objects;

/**
 * One devlink health reporter ({@code devlink health show}): mlx5 registers {@code fw} and {@code fw_fatal} per device,
 * {@code tx}, {@code rx} (and {@code vnic}) per port.
 *
 * @param bus               the devlink handle's bus, {@code pci}
 * @param device            the handle's device, {@code 0000:3b:00.0}
 * @param port              the devlink port index; null for a device's reporter
 * @param name              the reporter, {@code fw_fatal}
 * @param state             {@code healthy} or {@code error}
 * @param errors            errors reported since the driver loaded
 * @param recovers          successful recoveries
 * @param gracePeriodMillis the minimum time between two automatic recoveries; null when the reporter has none
 * @param autoRecover       whether the reporter recovers by itself; null when not reported
 */
public record HealthReporter(String bus, String device, Integer port, String name, String state, long errors,
                             long recovers, Long gracePeriodMillis, Boolean autoRecover) {
    public static final String HEALTHY = "healthy";
    public static final String ERROR = "error";

    public HealthReporter {
        Objects.requireNonNull(bus, "bus");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(state, "state");
    }
}
