package io.rdmamon.protocol.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.IntStream;

/**
 * What a RoCE port's netdev is configured to do (docs/reference/qos-dcb.md): the DCB configuration
 * ({@code DCB_CMD_IEEE_GET} over netlink, or the {@code dcb -j} captures under a host root) plus the
 * MLNX_OFED and rdma_cm settings that exist only on some hosts. It changes rarely: the agent reads it
 * on a slow cadence, and it travels in the layout, not in every values frame.
 *
 * <p>Absent is not default: a part that could not be read (no DCB support on a VF, no OFED files,
 * no configfs directory) is null, and the agent's source status says why.
 *
 * @param source         where the DCB part was read: {@link #SOURCE_NETLINK} or {@link #SOURCE_CAPTURE}
 * @param dcbx           {@code DCB_ATTR_DCBX} bits ({@code DCB_CAP_DCBX_*}: 0x01 host, 0x02 LLD managed,
 *                       0x04 CEE, 0x08 IEEE, 0x10 static); null when not read
 * @param pfc            {@code struct ieee_pfc}; null when not read
 * @param ets            {@code struct ieee_ets}; null when not read
 * @param app            the APP table ({@code DCB_ATTR_IEEE_APP_TABLE}) in kernel order; empty when it holds
 *                       nothing (then trust is pcp on mlx5), never null when DCB was read
 * @param trustOrder     the apptrust table as selector names ({@code dscp}, {@code pcp}, ...) in trust order,
 *                       where the driver has one (mlx5 has none); null when absent
 * @param buffer         {@code struct dcbnl_buffer}; null when not read
 * @param tcMaxrateKbits {@code struct ieee_maxrate} per TC in kbit/s (0 = unlimited), 8 entries; null when not read
 * @param ecn            MLNX_OFED {@code /sys/class/net/<if>/ecn/}; null where those files do not exist
 * @param trafficClass   MLNX_OFED {@code tc/<port>/traffic_class} (the ToS of every verbs QP); null when absent
 *                       or unset
 * @param defaultRoceTos configfs {@code rdma_cm/<dev>/ports/<port>/default_roce_tos}; null when the directory
 *                       does not exist (the agent never creates it)
 */
public record QosConfig(
        String source,
        Integer dcbx,
        Pfc pfc,
        Ets ets,
        List<AppEntry> app,
        List<String> trustOrder,
        Buffer buffer,
        List<Long> tcMaxrateKbits,
        Ecn ecn,
        Integer trafficClass,
        Integer defaultRoceTos) {
    /** Read over DCB netlink from the live host. */
    public static final String SOURCE_NETLINK = "netlink";
    /** Read from {@code <root>/dcb/<if>/*.json} captures. */
    public static final String SOURCE_CAPTURE = "capture";
    /** Priorities (and traffic classes) of 802.1Q: 0..7. */
    public static final int PRIORITIES = 8;
    /** {@code IEEE_8021QAZ_APP_SEL_DSCP}: an APP entry mapping a DSCP (protocol 0..63) to a priority. */
    public static final int SELECTOR_DSCP = 5;
    /** {@code DCB_CAP_DCBX_HOST}: the OS, not the firmware or a switch, owns the DCB configuration. */
    public static final int DCBX_HOST = 0x01;

    public QosConfig {
        Objects.requireNonNull(source, "source");
        app = List.copyOf(app);
        trustOrder = trustOrder == null ? null : List.copyOf(trustOrder);
        tcMaxrateKbits = tcMaxrateKbits == null ? null : List.copyOf(tcMaxrateKbits);
    }

    /**
     * The trust state as mlnx_qos derives it (docs/reference/qos-dcb.md §2, §3): the first of {@code dscp}/{@code pcp}
     * in the
     * apptrust table where the driver has one, else {@code dscp} iff the APP table holds DSCP entries (mlx5 switches
     * firmware trust to DSCP with the first such entry and back to PCP with the last).
     */
    public String trust() {
        if (trustOrder != null) {
            for (String selector : trustOrder) {
                if (selector.equals("dscp") || selector.equals("pcp")) {
                    return selector;
                }
            }
        }
        return app.stream().anyMatch(AppEntry::isDscp) ? "dscp" : "pcp";
    }

    /**
     * The priority DSCP {@code dscp} is classified to, from the APP table; null when no entry maps it. Several entries
     * for one DSCP are legal; the kernel's {@code dcb_ieee_getapp_prio_dscp_mask_map} keeps the highest priority.
     */
    public Integer priorityOfDscp(int dscp) {
        Integer priority = null;
        for (AppEntry entry : app) {
            if (entry.isDscp() && entry.protocol() == dscp && entry.priority() < PRIORITIES
                    && (priority == null || entry.priority() > priority)) {
                priority = entry.priority();
            }
        }
        return priority;
    }

    /** Priorities with PFC on, ascending; empty when PFC is off everywhere or was not read. */
    public List<Integer> pfcPriorities() {
        return pfc == null ? List.of() : pfc.enabledPriorities();
    }

    /**
     * {@code struct ieee_pfc} without the frame counts (those travel as ethtool counters).
     *
     * @param capability  {@code pfc_cap}: how many traffic classes may have PFC
     * @param enabledMask {@code pfc_en}: bit p set = PFC on priority p
     * @param delay       {@code delay}; mlx5 reports the cable length in metres there
     */
    public record Pfc(int capability, int enabledMask, int delay) {
        public boolean enabled(int priority) {
            return (enabledMask >> priority & 1) == 1;
        }

        public List<Integer> enabledPriorities() {
            return IntStream.range(0, PRIORITIES).filter(this::enabled).boxed().toList();
        }
    }

    /**
     * {@code struct ieee_ets}, the fields a host operator sets.
     *
     * @param willing              accepts the peer's configuration (DCBX)
     * @param capability           {@code ets_cap}: number of traffic classes
     * @param tcBandwidthPercent   {@code tc_tx_bw} per TC, 8 entries
     * @param tcTsa                transmission selection per TC, 8 entries: {@code strict}, {@code cbs},
     *                             {@code ets}, {@code vendor} (codes 0, 1, 2, 255; another code as {@code ???},
     *                             as iproute2 prints it)
     * @param priorityTc           {@code prio_tc}: index = priority, value = TC, 8 entries
     */
    public record Ets(boolean willing, int capability, List<Integer> tcBandwidthPercent, List<String> tcTsa,
                      List<Integer> priorityTc) {
        public Ets {
            tcBandwidthPercent = List.copyOf(tcBandwidthPercent);
            tcTsa = List.copyOf(tcTsa);
            priorityTc = List.copyOf(priorityTc);
        }
    }

    /**
     * {@code struct dcb_app}: one APP table entry.
     *
     * @param selector {@code IEEE_8021QAZ_APP_SEL_*} (1 ethertype, 2 stream, 3 dgram, 4 any, 5 DSCP), 255 PCP
     * @param priority the priority the traffic is classified to
     * @param protocol DSCP 0..63, ethertype, port number or PCP+DEI, by selector
     */
    public record AppEntry(int selector, int priority, int protocol) {
        public boolean isDscp() {
            return selector == SELECTOR_DSCP && protocol < 64;
        }
    }

    /**
     * {@code struct dcbnl_buffer}.
     *
     * @param priorityBuffer  {@code prio2buffer}: index = priority, value = receive buffer, 8 entries
     * @param bufferSizeBytes {@code buffer_size} per buffer, 8 entries
     * @param totalSizeBytes  {@code total_size}
     */
    public record Buffer(List<Integer> priorityBuffer, List<Long> bufferSizeBytes, long totalSizeBytes) {
        public Buffer {
            priorityBuffer = List.copyOf(priorityBuffer);
            bufferSizeBytes = List.copyOf(bufferSizeBytes);
        }
    }

    /**
     * MLNX_OFED {@code /sys/class/net/<if>/ecn/}: DCQCN per priority and the CNPs this host sends.
     *
     * @param notificationPoint {@code roce_np/enable/<prio>} by priority (the receiver that sends CNPs); only the
     *                          files that were readable
     * @param reactionPoint     {@code roce_rp/enable/<prio>} by priority (the sender that slows down on CNPs)
     * @param cnpDscp           {@code roce_np/cnp_dscp}; null when absent
     * @param cnpPriority       {@code roce_np/cnp_802p_prio}; null when absent
     */
    public record Ecn(Map<Integer, Boolean> notificationPoint, Map<Integer, Boolean> reactionPoint, Integer cnpDscp,
                      Integer cnpPriority) {
        public Ecn {
            notificationPoint = Maps.copyOrdered(notificationPoint);
            reactionPoint = Maps.copyOrdered(reactionPoint);
        }
    }
}
