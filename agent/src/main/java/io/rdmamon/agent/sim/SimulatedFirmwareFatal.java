package io.rdmamon.agent.sim;

import java.io.IOException;
import java.util.List;

/**
 * A simulated host under {@link Scenario#FIRMWARE_FATAL}: healthy at start-up, then, {@link #FATAL_AT_SECONDS} into the
 * run, the last NIC's firmware dies as mlx5 reports it (drivers/net/ethernet/mellanox/mlx5/core/health.c): the health
 * poll logs the miss count ({@code poll_health}) and the syndrome ({@code print_health_info}) to the kernel log, and
 * the devlink {@code fw_fatal} reporter goes into error ({@link SimulatedDevlink}).
 *
 * <p>The kernel log is {@code <root>/kmsg} in {@code /dev/kmsg}'s record format (Documentation/ABI/testing/dev-kmsg):
 * facility 0 (the kernel), level 3 ({@code mlx5_core_err}), and the dictionary {@code dev_printk} adds. The firmware
 * dies while the agent watches, since the collector counts a kernel event only when it is logged after the agent's
 * first report.
 */
final class SimulatedFirmwareFatal {
    /** Simulated seconds (warm-up excluded) after which the firmware dies: after the agents' first samples. */
    static final double FATAL_AT_SECONDS = 5;
    private static final String KMSG = "kmsg";
    /** The sequence number of the first record: the boot's earlier records were logged before the agent started. */
    private static final long FIRST_SEQ = 2_000;

    private final HostTree tree;
    private final List<Mlx5Device> nics;
    private final double uptimeSeconds;
    private double clock;

    private SimulatedFirmwareFatal(HostTree tree, List<Mlx5Device> nics, double uptimeSeconds) {
        this.tree = tree;
        this.nics = nics;
        this.uptimeSeconds = uptimeSeconds;
    }

    /** {@code nics}' healthy reporters and an empty kernel log under {@code tree}, booted {@code uptimeSeconds} ago. */
    static SimulatedFirmwareFatal create(HostTree tree, List<Mlx5Device> nics, double uptimeSeconds)
            throws IOException {
        SimulatedDevlink.write(tree, nics, false);
        tree.write(KMSG, "");
        return new SimulatedFirmwareFatal(tree, List.copyOf(nics), uptimeSeconds);
    }

    /** Moves the host's clock by {@code seconds}; the firmware dies when it passes {@link #FATAL_AT_SECONDS}. */
    void advance(double seconds) throws IOException {
        if (clock < FATAL_AT_SECONDS && clock + seconds >= FATAL_AT_SECONDS) {
            String bdf = nics.get(nics.size() - 1).pciAddress();
            long micros = (long) ((uptimeSeconds + FATAL_AT_SECONDS) * 1e6);
            tree.write(KMSG, record(FIRST_SEQ, micros, bdf, "poll_health:852:(pid 0): device's health compromised - "
                    + "reached miss count") + record(FIRST_SEQ + 1, micros, bdf, "print_health_info:458:(pid 0): synd 0x8: "
                    + "unrecoverable hardware error"));
            SimulatedDevlink.write(tree, nics, true);
        }
        clock += seconds;
    }

    /** One record as {@code mlx5_core_err} leaves it: {@code dev_printk}'s prefix, mlx5's location, the text. */
    private static String record(long seq, long micros, String bdf, String text) {
        return "3," + seq + "," + micros + ",-;mlx5_core " + bdf + ": " + text + "\n SUBSYSTEM=pci\n DEVICE=+pci:" + bdf
                + "\n";
    }
}
