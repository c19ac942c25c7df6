package io.rdmamon.agent.sim;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What the simulated fabric does wrong. Each value except {@link #MIXED} is also the fault a single node carries
 * ({@link SimulatedNode#fault()}: for {@link #TOR_UPLINK_LOSS}, a switch's fault, the nodes under that switch, whose
 * counters show it); {@link #HEALTHY} means none. docs/simulator.md says which diagnosis rule (docs/architecture.md
 * "Rule ids") each one
 * should trigger.
 */
public enum Scenario {
    /** Lossless priority carries the RDMA traffic, PFC and ECN behave, links are clean. */
    HEALTHY("healthy"),
    /** RDMA traffic on a priority without PFC while PFC is enabled on the lossless one (all RoCE nodes). */
    WRONG_PRIORITY("wrong-priority"),
    /** One RoCE node transmits pause frames almost continuously on the lossless priority. */
    PFC_STORM("pfc-storm"),
    /** DCQCN disabled on all RoCE nodes: sustained pauses, no ECN marks, no CNPs. */
    ECN_OFF("ecn-off"),
    /** One port of one RoCE node trained at half rate and flapping. */
    LINK_DEGRADED("link-degraded"),
    /** One RoCE port without a RoCE v2 IPv4 GID (its netdev has no IPv4 address). */
    GID_MISSING("gid-missing"),
    /** One lane of one RoCE port's optic loses light (a dirty connector): its Rx power falls and the BER rises. */
    DIRTY_OPTIC("dirty-optic"),
    /** One mlx5 device of one node trained its PCIe link at x8 of x16 (after a reboot). */
    PCIE_X8("pcie-x8"),
    /** All eRDMA nodes hit their instance bandwidth / packet-rate limits and drop. */
    ERDMA_RATELIMIT("erdma-ratelimit"),
    /**
     * One RoCE node after a reboot or driver reload lost its QoS configuration: PFC off everywhere, the APP table
     * empty (so trust pcp), ETS back to the driver's defaults; its RoCE traffic lands on a lossy priority.
     */
    PFC_LOST("pfc-lost"),
    /** One RoCE node trusts pcp (no DSCP APP entries) on the L3 fabric; PFC is still right, but unused. */
    TRUST_PCP("trust-pcp"),
    /** One RoCE node's DSCP map sends the fleet's RoCE DSCP to a priority without PFC. */
    DSCP_MAP_WRONG("dscp-map-wrong"),
    /**
     * One RoCE GPU node's GPUs sit on the other socket (NUMA node 1, their own host bridge) from its NICs: every GPU's
     * closest NIC is SYS, so NCCL runs without GPUDirect RDMA (gpudirect_not_ready, gpu_nic_cross_numa).
     */
    GPU_FAR_NIC("gpu-far-nic"),
    /**
     * One RoCE GPU node's root ports have ACS P2P Request/Completion Redirect on (as after a BIOS update): GPUDirect
     * between each GPU and its NIC bounces through the root complex (pcie_acs_redirect, gpudirect_not_ready).
     */
    ACS_REDIRECT("acs-redirect"),
    /** One RoCE GPU node has no nvidia_peermem and runs the proprietary driver (no DMA-BUF): gpudirect_not_ready. */
    NO_PEERMEM("no-peermem"),
    /**
     * The uplink of leaf-01 (the top-of-rack switch of nodes 1 and 2, {@link SimulatedRacks}) drops about 10 % of
     * packets: latency probes between a leaf-01 node and a node of another leaf wait out a retransmission (the QP's
     * ACK timeout) that often; pairs under leaf-01 and among the other leaves stay clean. The switch is at fault
     * (path_loss naming leaf-01); the two nodes under it carry the fault in that their retransmission counters rise
     * (transport_loss). Needs at least 6 RoCE nodes (3 leaves).
     */
    TOR_UPLINK_LOSS("tor-uplink-loss"),
    /**
     * One RoCE port's transceiver is replaced {@link Mlx5Device#CHANGE_AT_SECONDS} into the run: the module's serial
     * changes (a module_swapped change in the collector's timeline, docs/collector.md "Change log"). No rule.
     */
    MODULE_SWAP("module-swap"),
    /**
     * One RoCE node reboots {@link Mlx5Device#CHANGE_AT_SECONDS} into the run (each port's link goes down and up) and
     * comes back with its QoS configuration lost as in {@link #PFC_LOST}: link flaps and qos_change entries in the
     * collector's timeline, then pfc-lost's rules. Only the configuration changes: the traffic model stays.
     */
    REBOOT_QOS("reboot-qos"),
    /**
     * The last mlx5 NIC of one RoCE node has a firmware fatal error {@link SimulatedFirmwareFatal#FATAL_AT_SECONDS}
     * into the run: the kernel logs mlx5's health compromised and syndrome lines for its PCI function (the node's
     * {@code kmsg}), and its devlink {@code fw_fatal} health reporter goes into error (1 error, not recovered) in the
     * node's {@code devlink/health.json}, beside its NICs' healthy {@code fw}, {@code tx} and {@code rx} reporters
     * (nic_firmware_fatal, nic_health_reporter_error).
     */
    FIRMWARE_FATAL("firmware-fatal"),
    /** A realistic fleet: most nodes healthy, a few (about a quarter) with one of the faults above. */
    MIXED("mixed");

    private final String cliName;

    Scenario(String cliName) {
        this.cliName = cliName;
    }

    /** The name used on the command line ({@code rdmamon demo --scenario NAME}). */
    public String cliName() {
        return cliName;
    }

    /**
     * The scenario with this command-line name (case-insensitive).
     *
     * @throws IllegalArgumentException naming the bad value and listing the valid ones
     */
    public static Scenario fromCliName(String name) {
        String wanted = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        for (Scenario scenario : values()) {
            if (scenario.cliName.equals(wanted)) {
                return scenario;
            }
        }
        throw new IllegalArgumentException("unknown scenario '" + name + "'; valid scenarios: " + validNames());
    }

    /** Every command-line name, comma separated, in declaration order. */
    public static String validNames() {
        return Arrays.stream(values()).map(Scenario::cliName).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return cliName;
    }
}
