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

    /** Every NIC healthy but the last, whose {@code fw_fatal} reporter is in error ({@link Scenario#FIRMWARE_FATAL}). */
    static void writeFirmwareFatal(HostTree tree, List<Mlx5Device> nics) throws IOException {
        List<String> handles = new ArrayList<>();
        for (int i = 0; i < nics.size(); i++) {
            String function = nics.get(i).pciFunctionPath();
            String bdf = function.substring(function.lastIndexOf('/') + 1);
            boolean fatal = i == nics.size() - 1;
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
