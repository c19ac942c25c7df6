package io.rdmamon.protocol.exposition;

import java.util.List;

/**
 * Every fixed {@code rdma_*} family of docs/architecture.md "Metric names", in one table: the node families that the
 * agent's own
 * {@code /metrics} and the collector render alike ({@link NodeRenderer}), and the families only the collector
 * has (probes, diagnoses). The per-counter families ({@code rdma_port_*}, {@code rdma_hw_*}) are named from
 * the counter files by {@link MetricNames}.
 */
public final class MetricFamilies {
    public static final Family AGENT_UP = Family.gauge("rdma_agent_up",
            "1 when the agent's last sample arrived within the staleness window");
    public static final Family LAST_SAMPLE = Family.gauge("rdma_agent_last_sample_timestamp_seconds",
            "Time the agent took its last sample (agent clock)");
    public static final Family SOURCE_SUCCESS = Family.gauge("rdma_source_success",
            "1 when the agent read every subject of the source without error in its last sample (a subject that "
                    + "lacks the capability is not an error)");
    public static final Family SOURCE_SUPPORTED = Family.gauge("rdma_source_supported",
            "0 when a subject of the source lacks the capability it reads (e.g. a NIC without DCB), 1 otherwise, in "
                    + "the agent's last sample");
    public static final Family DEVICE_INFO = Family.info("rdma_device",
            "Device attributes (sysfs fw_ver, hca_type, board_id, node_guid, node_type)");
    public static final Family DEVICE_RESOURCES = Family.gauge("rdma_device_resources",
            "Current count of each RDMA resource type of the device (RDMA netlink RES_GET summary, as rdma resource "
                    + "show prints it: pd, cq, qp, cm_id, mr, ctx, srq)");
    public static final Family WORKLOAD_INFO = Family.info("rdma_port_workload",
            "A workload holding QPs on the port (docs/workloads.md): its pod, container and process, how it was "
                    + "attributed (device, process, none) and why not fully; at most 8 per port plus one summing the rest");
    public static final Family WORKLOAD_QPS = Family.gauge("rdma_port_workload_qps",
            "QPs the workload holds on the port (RDMA netlink RES_QP_GET, grouped by owner)");
    public static final Family PORT_STATE = Family.gauge("rdma_port_state_id",
            "Port state (sysfs state: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE)");
    public static final Family PHYS_STATE = Family.gauge("rdma_port_physical_state_id",
            "Physical port state (sysfs phys_state: 2 Polling, 3 Disabled, 5 LinkUp)");
    public static final Family PORT_RATE = Family.gauge("rdma_port_rate_bytes_per_second",
            "Port rate (sysfs rate, Gb/s x 125000000)");
    public static final Family PORT_INFO = Family.info("rdma_port",
            "Port attributes; lossless_priorities are the PFC-enabled priorities of the netdev, from its DCB "
                    + "configuration (lossless_source config) or from which pause counters exist (counters)");
    public static final Family PORT_FEC_INFO = Family.info("rdma_port_fec",
            "FEC encoding of the port's netdev (ethtool --show-fec: active, and the configured encodings)");
    public static final Family PORT_NEIGHBOR_INFO = Family.info("rdma_port_neighbor",
            "The switch port the port's netdev is cabled to, as its LLDP neighbour announces it (lldpctl -f json: "
                    + "chassis id, system name, port id); the pingmesh groups ports by it");
    public static final Family GID_INFO = Family.info("rdma_gid",
            "Non-empty GID table entries (sysfs gids/, gid_attrs/)");
    public static final Family PRIO_BYTES = Family.counter("rdma_prio_bytes",
            "Bytes per 802.1p priority (ethtool rx/tx_prioN_bytes)");
    public static final Family PRIO_PACKETS = Family.counter("rdma_prio_packets",
            "Packets per 802.1p priority (ethtool rx/tx_prioN_packets)");
    public static final Family PAUSE_FRAMES = Family.counter("rdma_pfc_pause_frames",
            "PFC pause frames per priority (ethtool rx/tx_prioN_pause)");
    // the driver counts pause duration in microseconds; Prometheus wants seconds
    public static final Family PAUSE_DURATION = Family.counter("rdma_pfc_pause_duration_seconds",
            "PFC pause duration per priority (ethtool rx/tx_prioN_pause_duration, us / 1e6)");
    public static final Family PAUSE_TRANSITIONS = Family.counter("rdma_pfc_pause_transitions",
            "PFC pause state transitions (ethtool rx_prioN_pause_transition)");
    public static final Family CARRIER_CHANGES = Family.counter("rdma_port_carrier_changes",
            "Carrier changes of the port's netdev, up and down (sysfs net/IF/carrier_changes)");
    public static final Family CARRIER_UP_CHANGES = Family.counter("rdma_port_carrier_up_changes",
            "Carrier on transitions of the port's netdev (sysfs net/IF/carrier_up_count)");
    public static final Family CARRIER_DOWN_CHANGES = Family.counter("rdma_port_carrier_down_changes",
            "Carrier off transitions (flaps, admin down included) of the port's netdev (sysfs net/IF/carrier_down_count)");
    public static final Family PCIE_LINK_WIDTH = Family.gauge("rdma_pcie_link_width",
            "Lanes the PCI function of the port's device trained at (sysfs current_link_width; of the PF for a VF)");
    public static final Family PCIE_LINK_WIDTH_MAX = Family.gauge("rdma_pcie_link_width_max",
            "Lanes the PCI function and its slot can do (sysfs max_link_width)");
    public static final Family PCIE_LINK_SPEED = Family.gauge("rdma_pcie_link_speed_transfers_per_second",
            "PCIe link speed trained (sysfs current_link_speed, GT/s x 1e9)");
    public static final Family PCIE_LINK_SPEED_MAX = Family.gauge("rdma_pcie_link_speed_transfers_per_second_max",
            "Highest PCIe link speed of the function (sysfs max_link_speed, GT/s x 1e9)");
    public static final Family PCIE_AER_ERRORS = Family.counter("rdma_pcie_aer_errors",
            "PCIe AER errors of the function by severity (sysfs aer_dev_correctable/nonfatal/fatal, TOTAL_ERR_* line)");
    public static final Family MODULE_INFO = Family.info("rdma_module",
            "The transceiver in the port's netdev cage (module EEPROM: vendor, part number, serial, type)");
    public static final Family MODULE_TEMPERATURE = Family.gauge("rdma_module_temperature_celsius",
            "Transceiver temperature (module EEPROM DOM)");
    public static final Family MODULE_VOLTAGE = Family.gauge("rdma_module_voltage_volts",
            "Transceiver supply voltage (module EEPROM DOM)");
    public static final Family MODULE_RX_POWER = Family.gauge("rdma_module_rx_power_watts",
            "Received optical power per lane (module EEPROM DOM; lanes numbered from 1 as ethtool -m prints channels)");
    public static final Family MODULE_TX_POWER = Family.gauge("rdma_module_tx_power_watts",
            "Transmitted optical power per lane (module EEPROM DOM)");
    public static final Family MODULE_TX_BIAS = Family.gauge("rdma_module_tx_bias_amperes",
            "Laser bias current per lane (module EEPROM DOM)");
    public static final Family MODULE_TEMPERATURE_THRESHOLD = Family.gauge("rdma_module_temperature_threshold_celsius",
            "The module's own temperature thresholds (threshold: high_alarm, low_alarm, high_warning, low_warning)");
    public static final Family MODULE_VOLTAGE_THRESHOLD = Family.gauge("rdma_module_voltage_threshold_volts",
            "The module's own supply voltage thresholds");
    public static final Family MODULE_RX_POWER_THRESHOLD = Family.gauge("rdma_module_rx_power_threshold_watts",
            "The module's own Rx power thresholds (the same for every lane)");
    public static final Family MODULE_TX_POWER_THRESHOLD = Family.gauge("rdma_module_tx_power_threshold_watts",
            "The module's own Tx power thresholds");
    public static final Family MODULE_TX_BIAS_THRESHOLD = Family.gauge("rdma_module_tx_bias_threshold_amperes",
            "The module's own laser bias thresholds");
    public static final Family PHY_CORRECTED_BITS = Family.counter("rdma_port_phy_corrected_bits",
            "Bits the PHY's FEC corrected on the port's netdev (ethtool rx_corrected_bits_phy, mlx5)");
    public static final Family PHY_SYMBOL_ERRORS = Family.counter("rdma_port_phy_symbol_errors",
            "Symbol errors FEC did not correct, or any when FEC is off (ethtool rx_pcs_symbol_err_phy, mlx5)");
    public static final Family PHY_RECEIVED_BITS = Family.counter("rdma_port_phy_received_bits",
            "Bits the PHY received (ethtool rx_bits_phy, where the driver has it)");
    public static final Family QOS_PFC_ENABLED = Family.gauge("rdma_qos_pfc_enabled",
            "1 when the netdev's DCB configuration has PFC on the priority (ieee_pfc pfc_en bit), else 0");
    public static final Family QOS_INFO = Family.info("rdma_qos",
            "DCB configuration of the netdev: trust (dscp/pcp), dcbx bits (hex), where it was read (netlink/capture)");
    public static final Family QOS_PRIORITY_TC = Family.gauge("rdma_qos_priority_tc",
            "Traffic class the priority is mapped to (ieee_ets prio_tc)");
    public static final Family QOS_TC_BANDWIDTH = Family.gauge("rdma_qos_tc_bandwidth_percent",
            "Transmit bandwidth share of the traffic class (ieee_ets tc_tx_bw, percent)");
    public static final Family QOS_ECN_ENABLED = Family.gauge("rdma_qos_ecn_enabled",
            "1 when DCQCN is on for the priority (MLNX_OFED ecn/roce_np or roce_rp/enable/<prio>; role np or rp)");
    public static final Family GPU_NIC_PATH_INFO = Family.info("rdma_gpu_nic_path",
            "PCIe path class of a GPU/NIC pair as nvidia-smi topo -m prints it (path: PIX, PXB, PHB, NODE, SYS; "
                    + "docs/topology.md)");
    public static final Family KERNEL_EVENTS = Family.counter("rdma_kernel_events",
            "Kernel log records about the NIC since the agent started, by kind and severity (/dev/kmsg, the agent's"
                    + " versioned pattern table)");
    public static final Family NIC_HEALTH_REPORTER_STATE = Family.gauge("rdma_nic_health_reporter_state",
            "1 while the devlink health reporter is healthy, 0 while it is in error (devlink health show)");
    public static final Family NIC_HEALTH_REPORTER_ERRORS = Family.counter("rdma_nic_health_reporter_errors",
            "Errors the devlink health reporter counted since the driver loaded (devlink health show: error)");
    public static final Family GPUDIRECT_READY = Family.gauge("rdma_gpudirect_ready",
            "1 when the GPU/NIC pair's GPUDirect RDMA verdict is ready, 0 when degraded or not_ready "
                    + "(path, ACS, peermem, link, relaxed ordering, IOMMU; docs/topology.md)");

    public static final Family DIAGNOSIS_ACTIVE = Family.gauge("rdma_diagnosis_active",
            "1 while the diagnosis engine holds the rule active at the place (docs/diagnosis.md)");
    public static final Family PROBE_BANDWIDTH = Family.gauge("rdma_probe_bandwidth_bits_per_second",
            "Average bandwidth of the last finished probe of the pair (perftest BW average)");
    public static final Family PROBE_SUCCESS = Family.gauge("rdma_probe_success", "1 when the last finished probe "
            + "of the pair reached the pass ratio of the link rate, 0 when it failed or fell short");
    public static final Family PROBE_TIMESTAMP = Family.gauge("rdma_probe_timestamp_seconds",
            "Time the last finished probe of the pair finished");
    public static final Family PINGMESH_RTT = Family.gauge("rdma_pingmesh_rtt_seconds",
            "Pingmesh round trip quantile over the window, from the probes the port took part in at either end, "
                    + "towards its own group (scope group) or the other groups (scope rest)");
    public static final Family PINGMESH_LOSS = Family.gauge("rdma_pingmesh_loss_ratio",
            "Share of the pingmesh round trips lost over the window (a round trip that waited for a retransmission, or "
                    + "every one of a probe that never got through), probes the port took part in at either end, by scope");
    public static final Family PINGMESH_GROUP_RTT = Family.gauge("rdma_pingmesh_group_rtt_seconds",
            "Pingmesh round trip quantile over the window of the probes from src_group's ports to dst_group's");
    public static final Family PINGMESH_GROUP_LOSS = Family.gauge("rdma_pingmesh_group_loss_ratio",
            "Share of the pingmesh round trips lost over the window, probes from src_group's ports to dst_group's");

    public static final Family FABRIC_LINK_INFO = Family.info("rdma_fabric_link",
            "A fabric port as the last sweep read it (SMP PortInfo: active and supported width and speed, state), "
                    + "labelled with both ends of its link");
    public static final Family FABRIC_NODES = Family.gauge("rdma_fabric_nodes",
            "Nodes of the fabric by type (CA, SWITCH, ROUTER), as the last topology sweep found them");
    public static final Family FABRIC_SWEEP_DURATION = Family.gauge("rdma_fabric_sweep_duration_seconds",
            "How long the sweeper's last sweep of the fabric took");
    public static final Family FABRIC_SWEEP_SUCCESS = Family.gauge("rdma_fabric_sweep_success",
            "1 when every node answered the sweeper's last sweep of the fabric and every answer was understood");

    /**
     * The families of one node not named after a counter file, as the agent and the collector both export
     * them; a counter file that maps onto one of these names is dropped ({@link NodeRenderer}).
     */
    public static final List<Family> NODE = List.of(AGENT_UP, LAST_SAMPLE, SOURCE_SUCCESS, SOURCE_SUPPORTED, DEVICE_INFO,
            DEVICE_RESOURCES, WORKLOAD_INFO, WORKLOAD_QPS, PORT_STATE, PHYS_STATE, PORT_RATE, PORT_INFO, PORT_FEC_INFO,
            PORT_NEIGHBOR_INFO, GID_INFO, PRIO_BYTES,
            PRIO_PACKETS, PAUSE_FRAMES, PAUSE_DURATION, PAUSE_TRANSITIONS, CARRIER_CHANGES, CARRIER_UP_CHANGES,
            CARRIER_DOWN_CHANGES, PCIE_LINK_WIDTH, PCIE_LINK_WIDTH_MAX, PCIE_LINK_SPEED, PCIE_LINK_SPEED_MAX, PCIE_AER_ERRORS, MODULE_INFO, MODULE_TEMPERATURE,
            MODULE_VOLTAGE, MODULE_RX_POWER, MODULE_TX_POWER, MODULE_TX_BIAS, MODULE_TEMPERATURE_THRESHOLD,
            MODULE_VOLTAGE_THRESHOLD, MODULE_RX_POWER_THRESHOLD, MODULE_TX_POWER_THRESHOLD, MODULE_TX_BIAS_THRESHOLD,
            PHY_CORRECTED_BITS, PHY_SYMBOL_ERRORS, PHY_RECEIVED_BITS, QOS_PFC_ENABLED, QOS_INFO, QOS_PRIORITY_TC,
            QOS_TC_BANDWIDTH, QOS_ECN_ENABLED, GPU_NIC_PATH_INFO, GPUDIRECT_READY, KERNEL_EVENTS,
            NIC_HEALTH_REPORTER_STATE, NIC_HEALTH_REPORTER_ERRORS);
    /** The fleet families only the collector knows (it runs the probes, the pingmesh and the diagnosis engine). */
    public static final List<Family> COLLECTOR = List.of(DIAGNOSIS_ACTIVE, PROBE_BANDWIDTH, PROBE_SUCCESS,
            PROBE_TIMESTAMP, PINGMESH_RTT, PINGMESH_LOSS, PINGMESH_GROUP_RTT, PINGMESH_GROUP_LOSS);
    /**
     * The InfiniBand fabric's fixed families (the collector's, from the {@code --fabric} agents' sweeps); each PMA
     * counter is a family of its own besides ({@link MetricNames#fabricPortCounterFamily}).
     */
    public static final List<Family> FABRIC = List.of(FABRIC_LINK_INFO, FABRIC_NODES, FABRIC_SWEEP_DURATION,
            FABRIC_SWEEP_SUCCESS);

    private MetricFamilies() {
    }
}
