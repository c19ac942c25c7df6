package io.rdmamon.agent.sim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code devlink/health.json} of a simulated host, as {@code devlink -j health show} prints mlx5's reporters
 * (iproute2 devlink/devlink.c {@code pr_out_health}): {@code fw} and {@code fw_fatal} per PCI function, {@code tx} and
 * {@code rx} on its uplink port (devlink port index 65535).
 */
final class SimulatedDevlink {
    private SimulatedDevlink() {
    }

    /**
     * Every NIC's reporters healthy, but the last NIC's {@code fw_fatal} in error (1 error, not recovered) when {@code
     * lastFatal} ({@link SimulatedFirmwareFatal}).
     */
    static void write(HostTree tree, List<Mlx5Device> nics, boolean lastFatal) throws IOException {
        List<String> handles = new ArrayList<>();
        for (int i = 0; i < nics.size(); i++) {
            String bdf = nics.get(i).pciAddress();
            boolean fatal = lastFatal && i == nics.size() - 1;
            handles.add("\"pci/" + bdf + "\":[" + reporter("fw", false, null) + ","
                    + reporter("fw_fatal", fatal, 1_200_000L) + "]");
            handles.add("\"pci/" + bdf + "/65535\":[" + reporter("tx", false, 500L) + "," + reporter("rx", false, 500L)
                    + "]");
        }
        tree.write("devlink/health.json", "{\"health\":{" + String.join(",", handles) + "}}\n");
    }

    private static String reporter(String name, boolean error, Long gracePeriodMillis) {
        return "{\"reporter\":\"" + name + "\",\"state\":\"" + (error ? "error" : "healthy") + "\",\"error\":"
                + (error ? 1 : 0) + ",\"recover\":0"
                + (gracePeriodMillis == null ? "" : ",\"grace_period\":" + gracePeriodMillis + ",\"auto_recover\":true")
                + ",\"auto_dump\":true}";
    }
}
