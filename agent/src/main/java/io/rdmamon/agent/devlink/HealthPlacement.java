package io.rdmamon.agent.devlink;

import io.rdmamon.nativeio.devlink.HealthReporter;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.NicHealthReporter;

import java.util.ArrayList;
import java.util.List;

/**
 * Places devlink reporters on the host's RDMA devices: a {@code pci/BDF} handle on the device whose PCI function is
 * that BDF (an mlx5 RDMA device and its devlink instance share the function). A devlink port index is not an RDMA
 * port number (mlx5's uplink is 65535), so a port reporter is placed on the device's port only when the device has one
 * port (every mlx5 function does); a device reporter ({@code fw}, {@code fw_fatal}) has no port. Pure.
 */
public final class HealthPlacement {
    private static final String PCI = "pci";

    private HealthPlacement() {
    }

    /** {@code reporters} in their order, placed on {@code devices}; the first {@link NicHealthReporter#MAX_PER_HOST}. */
    public static List<NicHealthReporter> place(List<IbDevice> devices, List<HealthReporter> reporters) {
        List<NicHealthReporter> placed = new ArrayList<>(Math.min(reporters.size(), NicHealthReporter.MAX_PER_HOST));
        for (HealthReporter r : reporters) {
            if (placed.size() == NicHealthReporter.MAX_PER_HOST) {
                break;
            }
            IbDevice device = device(devices, r);
            String port = r.port() != null && device != null && device.ports().size() == 1
                    ? Integer.toString(device.ports().get(0).port()) : "";
            placed.add(new NicHealthReporter(device == null ? "" : device.name(), port, handle(r), r.name(), r.state(),
                    r.errors(), r.recovers(), r.gracePeriodMillis()));
        }
        return placed;
    }

    /** The handle as devlink prints it: {@code pci/0000:3b:00.0}, {@code pci/0000:3b:00.0/65535}. */
    static String handle(HealthReporter r) {
        return r.bus() + "/" + r.device() + (r.port() == null ? "" : "/" + r.port());
    }

    private static IbDevice device(List<IbDevice> devices, HealthReporter r) {
        if (!PCI.equals(r.bus())) {
            return null;
        }
        for (IbDevice device : devices) {
            if (device.pci() != null && r.device().equals(device.pci().address())) {
                return device;
            }
        }
        return null;
    }
}
