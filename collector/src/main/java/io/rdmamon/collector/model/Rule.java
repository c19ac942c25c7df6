package io.rdmamon.collector.model;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The diagnosis rules of docs/architecture.md "Rule ids". {@link #id()} is the contract string (the {@code rule} label
 * of
 * {@code rdma_diagnosis_active} and of the alerts, the name of the runbook page). Severities are those of
 * grafana/rules/rdmamon-alerts.yml. {@link #runbook()} is the short version of docs/runbooks/&lt;id&gt;.md.
 */
public enum Rule {
    ROCE_TRAFFIC_OUTSIDE_LOSSLESS_PRIORITY("roce_traffic_outside_lossless_priority", Severity.CRITICAL, true,
            "RDMA runs on a priority without PFC and is dropped under congestion. Check the traffic class / DSCP "
                    + "the applications use (NCCL_IB_TC, rdma_cm ToS) and the port's trust mode "
                    + "(mlnx_qos -i IF --trust dscp) and DSCP-to-priority map; move RDMA onto the PFC-enabled "
                    + "priority, or enable PFC on the priority it uses, end to end with the switch."),
    PFC_NOT_ENABLED("pfc_not_enabled", Severity.WARNING, true,
            "No priority has PFC, so RoCE is lossy and every drop costs a transport retry. Enable PFC on the "
                    + "fabric's lossless priority (e.g. mlnx_qos -i IF --pfc 0,0,0,1,0,0,0,0), persistently, or let "
                    + "DCBX configure it; a fabric that is lossy on purpose should rely on ECN instead."),
    PFC_PAUSE_STORM("pfc_pause_storm", Severity.CRITICAL, true,
            "A priority is paused nearly all the time, spreading head-of-line blocking through the fabric. "
                    + "tx storm (this host pauses the switch): drain or reboot the host, check driver/firmware, "
                    + "enable PFC storm prevention. rx storm: find the congested switch egress and make ECN/DCQCN "
                    + "slow the senders down before PFC must stop them."),
    ECN_NOT_ENGAGED("ecn_not_engaged", Severity.WARNING, true,
            "The port is paused by PFC but no ECN marks or CNPs flow: DCQCN is not reacting and PFC does all "
                    + "the work. Enable ECN marking on the switch's lossless queue (threshold below PFC XOFF) and "
                    + "NP/RP on the NICs (/sys/class/net/IF/ecn/roce_np|roce_rp/enable/PRIO); give CNPs a "
                    + "priority that is not dropped."),
    CNP_IGNORED("cnp_ignored", Severity.WARNING, true,
            "CNPs arrive but the reaction point ignores them, so senders do not slow down. Enable the RP on "
                    + "the priority the traffic uses (/sys/class/net/IF/ecn/roce_rp/enable/PRIO) and align the "
                    + "CNP priority across the fleet."),
    TRANSPORT_LOSS("transport_loss", Severity.WARNING, true,
            "Packets are lost on a fabric that should be lossless; each loss forces a go-back-N retransmission. "
                    + "Put RDMA on the lossless priority with PFC end to end, replace cables/optics with symbol or "
                    + "CRC errors, and check receive-side drops (rx_out_of_buffer)."),
    LINK_DOWN("link_down", Severity.CRITICAL, false,
            "The port is not ACTIVE. Reseat or replace the cable/optic and check the switch port; bring the "
                    + "netdev up (ip link set IF up); on InfiniBand make sure a subnet manager sees the port."),
    LINK_DEGRADED("link_degraded", Severity.WARNING, false,
            "The link trained below the expected rate or keeps going down and retraining. Reseat or replace "
                    + "the cable/transceiver, clean the optics, check the switch port's speed and FEC settings "
                    + "and the NIC firmware (mlxconfig -d DEV q)."),
    LINK_FLAPPING("link_flapping", Severity.WARNING, Severity.CRITICAL, false,
            "The link keeps going down and up (carrier or link_downed). Look at the flap ledger "
                    + "(GET /api/nodes/NODE/events) for when; then clean or replace the optic/cable, reseat it, check "
                    + "the switch port's log and error counters, and rule out an admin or driver restart. Critical "
                    + "when it flaps all day: drain the node before the next NCCL timeout."),
    PCIE_DEGRADED("pcie_degraded", Severity.WARNING, false,
            "The HCA's PCIe link trained narrower or slower than the card and slot can do, so the host caps the NIC's "
                    + "bandwidth (x8 halves it). Reseat the card, check the slot's wiring (an x16 slot wired x8), "
                    + "the BIOS PCIe speed setting and riser cables; reboot once to retrain, then replace the riser."),
    PCIE_ERRORS("pcie_errors", Severity.WARNING, Severity.CRITICAL, true,
            "The HCA's PCI function reports AER errors. Correctable ones (warning) are retried by the link but "
                    + "cost bandwidth and foretell worse; uncorrectable ones (critical) lose transactions and can "
                    + "reset the device. Check dmesg for AER lines, reseat the card and riser, update firmware; "
                    + "drain the node on uncorrectable errors."),
    MODULE_POWER_OUT_OF_RANGE("module_power_out_of_range", Severity.WARNING, Severity.CRITICAL, false,
            "A lane's optical power is outside the module's own warning range (critical beyond its alarm range): "
                    + "low Rx power is a dirty connector, a bent or bad fiber, or a failing far-end laser; low Tx power "
                    + "or high bias a failing laser. Clean both connectors with a fiber cleaner, reseat, check the "
                    + "patch cable, then replace the optic named by its serial."),
    MODULE_TEMPERATURE_HIGH("module_temperature_high", Severity.WARNING, Severity.CRITICAL, false,
            "The transceiver runs hotter than its own warning threshold (critical beyond its alarm): check the "
                    + "chassis airflow and fans, blanking panels and neighbouring high-power optics; an optic that "
                    + "runs hot alone is failing: replace it."),
    FEC_BER_HIGH("fec_ber_high", Severity.WARNING, Severity.CRITICAL, true,
            "The link's pre-FEC bit error rate is high for its modulation (FEC still corrects, but the margin is "
                    + "going), or errors get past FEC (critical: traffic is lost). Clean or replace the optic/cable "
                    + "and check its Rx power, then the switch port; a BER that keeps rising ends in flaps."),
    GID_NO_ROCEV2("gid_no_rocev2", Severity.WARNING, false,
            "No routable RoCE v2 GID, so RoCE v2 connections (and NCCL_IB_GID_INDEX) have nothing to use. "
                    + "Configure the IP address on the RoCE netdev and bring it up (the kernel then adds the v2 "
                    + "GID); check the device's default RoCE mode; point applications at the v2 index."),
    ERDMA_RATE_LIMITED("erdma_rate_limited", Severity.WARNING, true,
            "The instance drops packets at its bandwidth or packet-rate limit. Move to an instance type with "
                    + "more network capacity or spread the traffic; batch small operations against pps limits; "
                    + "move bulk TCP off the same ENI."),
    QOS_CONFIG_DRIFT("qos_config_drift", Severity.WARNING, false,
            "The port's QoS configuration (trust, PFC priorities, DSCP map, ETS, ECN) differs from the fleet's, "
                    + "typically after a reboot or driver reload (mlx5 settings are not persistent). Apply the "
                    + "commands in the evidence (dcb pfc set / dcb app add / mlnx_qos) and make them persistent "
                    + "(a boot hook or the NIC configuration operator)."),
    QOS_TRUST_NOT_DSCP("qos_trust_not_dscp", Severity.WARNING, false,
            "The RoCE port trusts PCP, but RoCE v2 runs untagged on an L3 fabric, so every RoCE packet lands on "
                    + "priority 0 (lossy). Switch to trust dscp: dcb app add dev IF dscp-prio D:P for the RoCE "
                    + "DSCP (or mlnx_qos -i IF --trust dscp), persistently."),
    ROCE_DSCP_NOT_LOSSLESS("roce_dscp_not_lossless", Severity.CRITICAL, false,
            "The DSCP RoCE is sent with maps to a priority without PFC, so RoCE is dropped under congestion. "
                    + "Map the DSCP to the PFC priority (dcb app add dev IF dscp-prio D:P), or set the ToS "
                    + "(NCCL_IB_TC, traffic_class, default_roce_tos) to a DSCP that maps there."),
    ECN_DISABLED_ON_LOSSLESS("ecn_disabled_on_lossless", Severity.WARNING, false,
            "DCQCN (ECN reaction/notification point) is off on the lossless priority, so PFC alone throttles "
                    + "congestion. Enable it: echo 1 > /sys/class/net/IF/ecn/roce_np/enable/P and roce_rp/enable/P; "
                    + "fleets that run PFC without DCQCN on purpose set ecnRequired false."),
    NCCL_CONF_MISMATCH("nccl_conf_mismatch", Severity.WARNING, false,
            "/etc/nccl.conf sets NCCL_IB_GID_INDEX or NCCL_IB_TC to a value that contradicts the port: a GID "
                    + "that is not RoCE v2 over IPv4, or a ToS whose DSCP maps to a priority without PFC. Use the "
                    + "values of rdmamon nccl-env (GET /api/nodes/NODE/nccl), or remove the line and let NCCL pick."),
    GPUDIRECT_NOT_READY("gpudirect_not_ready", Severity.WARNING, false,
            "A GPU's closest NIC (the one NCCL pairs it with) is not GPUDirect RDMA ready: the path is farther than "
                    + "PXB, ACS redirects P2P on a bridge of it, or no peer memory (nvidia_peermem, DMA-BUF) is there, "
                    + "so NCCL stages through host memory. rdmamon topo (GET /api/nodes/NODE/topology) names the "
                    + "reason; load nvidia-peermem, clear ACS (iommu=pt, BIOS), or fix the card placement."),
    GPU_NIC_CROSS_NUMA("gpu_nic_cross_numa", Severity.WARNING, false,
            "A GPU has no NIC on its own socket: the NIC NCCL pairs it with is across the CPU interconnect (SYS), "
                    + "so NCCL will not use GPUDirect RDMA and every transfer crosses UPI/QPI. Move the NIC to a slot "
                    + "of the GPU's socket, or schedule the GPU with a NIC of its socket (NCCL_IB_HCA)."),
    PCIE_ACS_REDIRECT("pcie_acs_redirect", Severity.WARNING, false,
            "ACS P2P Request/Completion Redirect or Upstream Forwarding is on a PCIe bridge between a GPU and a NIC, "
                    + "so GPUDirect traffic bounces through the root complex. On bare metal boot with iommu=pt and "
                    + "clear ACS in the BIOS or with rdma_topo setpci-acs; check again after BIOS updates."),
    PCIE_RELAXED_ORDERING_OFF("pcie_relaxed_ordering_off", Severity.WARNING, false,
            "Relaxed ordering is off in the NIC's PCIe Device Control, so its DMA writes are strictly ordered (the "
                    + "mlx5e patch measured 10 to 40 GB/s when enabled). Enable it (ethtool --set-priv-flags IF "
                    + "pci_ro_write on, firmware and BIOS settings)."),
    PATH_LOSS("path_loss", Severity.WARNING, Severity.CRITICAL, false,
            "The pingmesh loses probes on the paths behind this port, and the pattern names the culprit: the port "
                    + "(its host or link: check its symbol errors, PFC pauses and transport errors, the cable/optic and "
                    + "the switch port), its group's switch or uplinks, the spine, or one path. Critical from 5 % loss: "
                    + "RoCE retransmits go-back-N, so drain the culprit from jobs before it stalls them."),
    PATH_LATENCY_HIGH("path_latency_high", Severity.WARNING, false,
            "The pingmesh's round trips through this port are slow (p50 above the threshold and several times the "
                    + "fleet's median) without loss. Look for PFC pauses and congestion on the culprit (its switch, the "
                    + "spine), a port trained at a lower rate, or an overloaded host: probe replies wait for the CPU."),
    PORT_UNREACHABLE("port_unreachable", Severity.CRITICAL, false,
            "No peer reaches this port over RDMA: every probe to and from it failed. Check the link (ibv_devinfo, "
                    + "ip link), its RoCE v2 GID and IP address, the switch port and its VLAN/PFC configuration, and "
                    + "that its agent still answers probes; the host's other ports tell host from link."),
    FABRIC_CABLE_ERRORS("fabric_cable_errors", Severity.WARNING, false,
            "Symbol errors, link error recovery or link downed rose on an InfiniBand cable between two sweeps: the "
                    + "cable, an optic or a port at either end is bad. Look at both ends' counters over time (the "
                    + "Fabric view, GET /api/fabric/link), reseat the cable at both ends, clean or replace the optic, "
                    + "then the cable; move the workloads off the hosts behind it if it keeps erring."),
    FABRIC_LINK_DEGRADED("fabric_link_degraded", Severity.WARNING, false,
            "An InfiniBand link trained narrower or slower than both its ends enable and than the other links "
                    + "between the same two tiers run: it carries a fraction of their bandwidth. Reseat the cable, "
                    + "check it is rated for the speed, replace a cable or optic with a bad lane, then check the "
                    + "ports' enabled widths and speeds (ibportstate)."),
    FABRIC_LINK_DOWN("fabric_link_down", Severity.CRITICAL, false,
            "An InfiniBand link that was up is gone from the fabric: the traffic it carried takes other paths or, "
                    + "for a host's link, stops. Check both ports' state (iblinkinfo), the cable and optics, the "
                    + "switch's log, and whether someone disabled the port; the hosts behind it are named."),
    FABRIC_CONGESTION("fabric_congestion", Severity.WARNING, false,
            "A switch port of the InfiniBand fabric spends much of its time with data to send and no credit "
                    + "(PortXmitWait): congestion, spreading back through the fabric. Look at the hot ports and the "
                    + "workloads sending through them; check the routing (a few links carrying an incast), the "
                    + "job placement, and whether a slow receiver or a degraded link downstream backs it up."),
    AGENT_STALE("agent_stale", Severity.WARNING, false,
            "The node's agent stopped delivering fresh samples, or a source fails on it, so part of the node is "
                    + "not watched. Check that the agent runs (systemctl status rdmamon-agent), its token and "
                    + "collector URL, the network path, and dmesg for a hung device read."),
    NODE_NAME_CONFLICT("node_name_conflict", Severity.WARNING, false,
            "A second agent announced a node name that a live connection holds, and was refused: two hosts share "
                    + "a name (a cloned config or image), or something impersonates the node. Find the other host "
                    + "from the collector's log (it names both addresses), give it its own --node name, and bind "
                    + "agent tokens to node names."),
    NIC_FIRMWARE_FATAL("nic_firmware_fatal", Severity.CRITICAL, false,
            "The NIC's driver logged a firmware fatal error (mlx5 \"health compromised\", \"Fatal error N detected\", "
                    + "a syndrome; mlx4 \"Internal error detected\"): the device stops or resets and RDMA traffic on "
                    + "it fails. Drain the node, collect `devlink health dump show` and dmesg, reset the device (or "
                    + "reboot), update the firmware; a repeat means an RMA."),
    NIC_TX_TIMEOUT("nic_tx_timeout", Severity.WARNING, false,
            "The kernel's netdev watchdog found a transmit queue stuck (NETDEV WATCHDOG ... timed out) and reset "
                    + "it: packets were lost and the driver recovered, or the NIC is failing. Check dmesg around it, "
                    + "the tx devlink health reporter, PFC pause storms on the port and the firmware version."),
    NIC_COMMAND_TIMEOUT("nic_command_timeout", Severity.WARNING, false,
            "A firmware command of the NIC timed out (mlx5 \"... timeout. Will cause a leak\"): the firmware is "
                    + "slow or hung, and configuration changes or QP creation fail. Check the fw devlink health "
                    + "reporter and dmesg for a fatal error next; reset the device, update the firmware."),
    NIC_PCIE_POWER_INSUFFICIENT("nic_pcie_power_insufficient", Severity.WARNING, false,
            "The NIC reports that its PCIe slot advertises less power than it needs and may throttle itself. "
                    + "Check the slot's power limit (lspci -vv: SlotPowerLimit), the BIOS slot power setting and the "
                    + "card's auxiliary power; move the card to a slot that powers it."),
    NIC_HEALTH_REPORTER_ERROR("nic_health_reporter_error", Severity.WARNING, false,
            "A devlink health reporter of the NIC (mlx5 fw, fw_fatal, tx, rx) is in error or counted new errors: "
                    + "the driver saw a firmware, transmit or receive fault and tried to recover. Read `devlink health "
                    + "show` and `devlink health diagnose DEV reporter NAME`, keep `devlink health dump show`, check "
                    + "dmesg around it; a reporter that stays in error or keeps counting needs a device reset or a "
                    + "firmware update.");

    private final String id;
    private final Severity severity;
    private final Severity escalation;
    private final boolean fromRates;
    private final String runbook;

    Rule(String id, Severity severity, boolean fromRates, String runbook) {
        this(id, severity, severity, fromRates, runbook);
    }

    /** A rule whose diagnoses rise from {@code severity} to {@code escalation} when their finding says so. */
    Rule(String id, Severity severity, Severity escalation, boolean fromRates, String runbook) {
        this.id = id;
        this.severity = severity;
        this.escalation = escalation;
        this.fromRates = fromRates;
        this.runbook = runbook;
    }

    public String id() {
        return id;
    }

    public Severity severity() {
        return severity;
    }

    /** The severities its diagnoses take: its own, and the one an escalating rule (link_flapping) rises to. */
    public Set<Severity> severities() {
        return EnumSet.of(severity, escalation);
    }

    /**
     * True when the condition is read from counter rates and so needs two samples; such a rule is not
     * evaluated (neither raised nor cleared) on a sample without a usable previous one.
     */
    public boolean fromRates() {
        return fromRates;
    }

    /** Short text with the usual fixes. */
    public String runbook() {
        return runbook;
    }

    /** {@code docs/runbooks/<id>.md}, relative to the repository root. */
    public String runbookPath() {
        return "docs/runbooks/" + id + ".md";
    }

    /**
     * {@code /runbooks/<id>}: the collector serves the page itself (RunbookPages), and the link is relative so that
     * it resolves on whatever host and scheme the dashboard or API client reached the collector by.
     */
    public String runbookUrl() {
        return "/runbooks/" + id;
    }

    /**
     * The rule with this id.
     *
     * @throws IllegalArgumentException naming the value and listing the valid ids
     */
    public static Rule fromId(String id) {
        for (Rule rule : values()) {
            if (rule.id.equals(id)) {
                return rule;
            }
        }
        throw new IllegalArgumentException("unknown rule '" + id + "'; valid: " + validIds());
    }

    public static String validIds() {
        return Arrays.stream(values()).map(Rule::id).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return id;
    }
}
