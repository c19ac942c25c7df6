package io.rdmamon.agent.kmsg;

import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The versioned table that maps kernel records to {@link KernelEvent}s. A record counts only when the kernel wrote it
 * ({@link KmsgRecord#fromKernel()}): a line a process writes to {@code /dev/kmsg} imitating a driver is ignored.
 *
 * <p>Every entry cites the kernel file that prints the line. The texts are matched without the {@code %s:%d:(pid %d): }
 * location mlx5 prepends ({@code mlx5_core_err} in drivers/net/ethernet/mellanox/mlx5/core/mlx5_core.h), which changes
 * with every build. Raise {@link #VERSION} when an entry changes, so a count can be traced to the table that made it.
 */
public final class KernelEventPatterns {
    /** The table's version; exposed so events can be traced to the table that classified them. */
    public static final int VERSION = 1;

    public static final String CRITICAL = "critical";
    public static final String WARNING = "warning";
    public static final String INFO = "info";

    private static final Set<String> MLX5 = Set.of("mlx5_core", "mlx5_ib");
    private static final Set<String> MLX4 = Set.of("mlx4_core", "mlx4_en", "mlx4_ib");
    private static final Set<String> ERDMA = Set.of("erdma");
    private static final Set<String> RXE = Set.of("rdma_rxe");
    private static final Set<String> ANY = Set.of();

    /**
     * {@code dev_printk}'s prefix (drivers/base/core.c {@code dev_printk_emit}): {@code <driver> <device>: }; and
     * {@code netdev_printk}'s (net/core/dev.c {@code __netdev_printk}) and {@code ibdev_printk}'s
     * (drivers/infiniband/core/device.c) with a third name: {@code <driver> <parent> <netdev or ibdev>: }.
     */
    private static final Pattern DEVICE_PREFIX = Pattern.compile(
            "^(?<driver>[\\w.-]+) (?<device>\\S+?)(?: (?<name>[^\\s:]+))?: (?<text>.*)$", Pattern.DOTALL);
    /** {@code pr_fmt(fmt) KBUILD_MODNAME ": " fmt}: {@code <module>: }. */
    private static final Pattern MODULE_PREFIX = Pattern.compile("^(?<driver>[\\w-]+): (?<text>.*)$", Pattern.DOTALL);
    private static final Pattern PCI_ADDRESS = Pattern.compile("[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]");

    /**
     * One entry: the drivers whose prefix the line carries, and the text after that prefix; or, with no drivers (a line
     * any driver's device may print, or one without a device prefix), the text anywhere in the whole line. And where
     * the kernel prints it.
     */
    private record Entry(String kind, String severity, Set<String> drivers, Pattern text, String source) {
        Entry(String kind, String severity, Set<String> drivers, String text, String source) {
            this(kind, severity, drivers, Pattern.compile(text), source);
        }
    }

    private static final List<Entry> ENTRIES = List.of(
            // drivers/net/ethernet/mellanox/mlx5/core/health.c
            new Entry("firmware_fatal", CRITICAL, MLX5, "Fatal error \\d+ detected",
                    "mlx5/core/health.c mlx5_health_check_fatal_sensors caller"),
            new Entry("firmware_fatal", CRITICAL, MLX5, "device's health compromised - reached miss count",
                    "mlx5/core/health.c poll_health"),
            new Entry("firmware_fatal", CRITICAL, MLX5, "FW is unable to respond to initialization segment reads",
                    "mlx5/core/health.c mlx5_health_try_recover"),
            new Entry("firmware_fatal", CRITICAL, MLX5, "synd 0x[0-9a-fA-F]+: ", "mlx5/core/health.c print_health_info"),
            new Entry("firmware_health", WARNING, MLX5, "Health issue observed, ", "mlx5/core/health.c print_health_info"),
            // drivers/net/ethernet/mellanox/mlx5/core/cmd.c
            new Entry("command_timeout", WARNING, MLX5, "\\(0x[0-9a-fA-F]+\\) timeout\\. Will cause a leak",
                    "mlx5/core/cmd.c wait_func"),
            new Entry("command_timeout", WARNING, MLX5, "\\(0x[0-9a-fA-F]+\\) canceled on out of queue timeout",
                    "mlx5/core/cmd.c cmd_work_handler"),
            new Entry("command_timeout", WARNING, MLX5, "\\(0x[0-9a-fA-F]+\\) No done completion",
                    "mlx5/core/cmd.c wait_func"),
            // drivers/net/ethernet/mellanox/mlx5/core/events.c
            new Entry("pcie_power_insufficient", WARNING, MLX5, "Detected insufficient power on the PCIe slot",
                    "mlx5/core/events.c mlx5_pcie_event"),
            new Entry("module_error", WARNING, MLX5, "Port module event\\[error\\]: ",
                    "mlx5/core/events.c port_module"),
            new Entry("module_event", INFO, MLX5, "Port module event: ", "mlx5/core/events.c port_module"),
            new Entry("thermal", WARNING, MLX5, "High temperature on sensors", "mlx5/core/events.c temp_warn"),
            // drivers/net/ethernet/mellanox/mlx4/catas.c and cmd.c
            new Entry("firmware_fatal", CRITICAL, MLX4, "Internal error detected", "mlx4/catas.c mlx4_handle_error_state"),
            new Entry("command_timeout", WARNING, MLX4, "command 0x[0-9a-fA-F]+ timed out",
                    "mlx4/cmd.c mlx4_cmd_wait"),
            // drivers/infiniband/hw/erdma/erdma_cmdq.c
            new Entry("command_timeout", WARNING, ERDMA, "cmdq.*time(d )?out", "erdma/erdma_cmdq.c"),
            // drivers/infiniband/sw/rxe/rxe.c and rxe_net.c
            new Entry("driver_loaded", INFO, RXE, "^loaded$", "sw/rxe/rxe.c rxe_module_init"),
            new Entry("driver_unloaded", INFO, RXE, "^unloaded$", "sw/rxe/rxe.c rxe_module_exit"),
            new Entry("port_state", INFO, Set.of("infiniband"), "^set (active|down)$", "sw/rxe/rxe_net.c rxe_port_up/rxe_port_down"),
            // net/sched/sch_generic.c dev_watchdog: "%s (%s): transmit queue %u timed out" before 6.8,
            // netdev_crit "NETDEV WATCHDOG: CPU: %d: transmit queue %u timed out %u ms" since
            new Entry("tx_timeout", CRITICAL, ANY, "NETDEV WATCHDOG: .*transmit queue \\d+ timed out",
                    "net/sched/sch_generic.c dev_watchdog"),
            // drivers/pci/pcie/aer.c aer_print_error: "PCIe Bus Error: severity=%s, type=%s, (%s)"
            new Entry("pcie_aer_fatal", CRITICAL, ANY, "PCIe Bus Error: severity=Uncorrect\\w* \\(Fatal\\)",
                    "pci/pcie/aer.c aer_print_error"),
            new Entry("pcie_aer_nonfatal", WARNING, ANY, "PCIe Bus Error: severity=Uncorrect\\w* \\(Non-Fatal\\)",
                    "pci/pcie/aer.c aer_print_error"),
            new Entry("pcie_aer_corrected", INFO, ANY, "PCIe Bus Error: severity=Correct", "pci/pcie/aer.c aer_print_error"),
            // drivers/infiniband/core/cache.c ib_cache_update
            new Entry("port_query_failed", WARNING, ANY, "ib_query_port failed",
                    "infiniband/core/cache.c ib_cache_update"));

    /** The old watchdog line names the netdev itself: {@code NETDEV WATCHDOG: eth2 (mlx5_core): transmit queue}. */
    private static final Pattern WATCHDOG_NETDEV = Pattern.compile("NETDEV WATCHDOG: ([^\\s:]+) \\(");

    private KernelEventPatterns() {
    }

    /** The event {@code record} is; null when it is not the kernel's or matches no entry. */
    public static KernelEvent classify(KmsgRecord record) {
        if (!record.fromKernel()) {
            return null;
        }
        Matcher prefixed = DEVICE_PREFIX.matcher(record.text());
        boolean device = prefixed.matches();
        Matcher matcher = device ? prefixed : MODULE_PREFIX.matcher(record.text());
        String driver = matcher.matches() ? matcher.group("driver") : "";
        String text = matcher.matches() ? matcher.group("text") : record.text();
        for (Entry entry : ENTRIES) {
            boolean matches = entry.drivers().isEmpty() ? entry.text().matcher(record.text()).find()
                    : entry.drivers().contains(driver) && entry.text().matcher(text).find();
            if (matches) {
                return new KernelEvent(entry.kind(), entry.severity(), subject(record, device ? prefixed : null),
                        record);
            }
        }
        return null;
    }

    /** Where the kernel print each kind comes from, for docs and tests: {@code kind -> source}, in table order. */
    static List<String> sources() {
        return ENTRIES.stream().map(e -> e.kind() + " <- " + e.source()).toList();
    }

    /**
     * The device a record names: the dictionary's {@code DEVICE=+pci:…} or {@code +infiniband:…} first, then the
     * prefix's names.
     */
    private static KernelEvent.Subject subject(KmsgRecord record, Matcher prefix) {
        String pci = null;
        String ibDevice = null;
        String netdev = null;
        String device = record.device();
        if (device != null && device.startsWith("+pci:")) {
            pci = device.substring("+pci:".length());
        } else if (device != null && device.startsWith("+infiniband:")) {
            ibDevice = device.substring("+infiniband:".length());
        }
        if (prefix != null) {
            String first = prefix.group("device");
            String name = prefix.group("name");
            if (pci == null && PCI_ADDRESS.matcher(first).matches()) {
                pci = first;
            }
            if ("infiniband".equals(prefix.group("driver")) && ibDevice == null) {
                ibDevice = first;
            } else if (name != null) {
                // netdev_printk names the netdev third, ibdev_printk the RDMA device: the subsystem says which
                if ("infiniband".equals(record.dictionary().get("SUBSYSTEM"))) {
                    ibDevice = ibDevice == null ? name : ibDevice;
                } else {
                    netdev = name;
                }
            }
        }
        Matcher watchdog = WATCHDOG_NETDEV.matcher(record.text());
        if (netdev == null && watchdog.find()) {
            netdev = watchdog.group(1);
        }
        return pci == null && ibDevice == null && netdev == null ? KernelEvent.Subject.NONE
                : new KernelEvent.Subject(pci, ibDevice, netdev);
    }
}
