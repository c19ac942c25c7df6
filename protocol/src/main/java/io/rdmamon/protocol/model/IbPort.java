package io.rdmamon.protocol.model;

import io.rdmamon.protocol.text.WireLimits;

import java.util.List;
import java.util.Map;

/**
 * {@code /sys/class/infiniband/<dev>/ports/<port>/} plus what other sources know about the
 * same port (its netdev's ethtool statistics, libibverbs port attributes).
 *
 * <p>Absent is not zero: a counter file that does not exist or cannot be read is missing from
 * the maps, and an optional value that cannot be read is null.
 *
 * @param port               port number (1-based)
 * @param stateId            {@code state} id (4 = ACTIVE); -1 when unreadable
 * @param state              {@code state} name; null when unreadable
 * @param physStateId        {@code phys_state} id (5 = LinkUp); -1 when unreadable
 * @param physState          {@code phys_state} name; null when unreadable
 * @param rate               {@code rate} text as the kernel prints it, e.g. {@code 100 Gb/sec (4X EDR)}
 * @param rateBytesPerSecond {@code rate} in bytes per second (Gb/s × 125,000,000); null when unreadable
 * @param linkLayer          {@code link_layer}: InfiniBand, Ethernet, Unknown; null when unreadable
 * @param lid                {@code lid} as printed ({@code 0x0} on RoCE); null when absent
 * @param netdev             the Ethernet netdev of this port (RoCE, eRDMA); null when none is found
 * @param counters           {@code counters/<name>} values by file name, in counter units except
 *                           {@code port_rcv_data}/{@code port_xmit_data}, which are already in bytes
 *                           (the kernel prints octets / 4)
 * @param hwCounters         {@code hw_counters/<name>} values by file name, without {@code lifespan}
 * @param gids               non-empty GID table entries sorted by index
 * @param ethtool            statistics of {@link #netdev}; null when there is no netdev or it could not be read
 * @param verbs              libibverbs port attributes; null when verbs are unavailable
 * @param qos                the QoS configuration of {@link #netdev}; null when it was not read (not RoCE, no
 *                           netdev, or not yet read on the slow cadence)
 * @param netdevCounters     {@link NetdevCounters} of {@link #netdev} by file name, read every sample; empty when
 *                           there is no netdev (absent files are missing)
 * @param module             the transceiver in {@link #netdev}'s cage, read on the slow cadence; null when there is
 *                           none, it could not be read, or it was not read
 * @param fec                {@link #netdev}'s FEC encoding, read on the slow cadence; null when the driver has none
 *                           or it was not read
 * @param hwCountersSource   where {@link #hwCounters} came from: {@link #HW_COUNTERS_NETLINK} (one RDMA netlink
 *                           {@code STAT_GET}) or {@link #HW_COUNTERS_SYSFS} (the {@code hw_counters/} files); null when
 *                           not recorded (agents before it was carried)
 * @param gidsDropped        entries of the port's GID table beyond the first {@link GidEntry#MAX_PER_PORT} non-empty
 *                           ones, neither read nor sent (the table was truncated); 0 for every real table
 * @param neighbor           the switch port {@link #netdev} is cabled to, from LLDP, read on the slow cadence; null
 *                           when none is known (no netdev, no LLDP capture or daemon, no neighbour, or not read)
 */
public record IbPort(
        int port,
        int stateId,
        String state,
        int physStateId,
        String physState,
        String rate,
        Long rateBytesPerSecond,
        String linkLayer,
        String lid,
        String netdev,
        Map<String, Long> counters,
        Map<String, Long> hwCounters,
        List<GidEntry> gids,
        EthtoolStats ethtool,
        VerbsPortAttributes verbs,
        QosConfig qos,
        Map<String, Long> netdevCounters,
        TransceiverModule module,
        FecMode fec,
        String hwCountersSource,
        int gidsDropped,
        LldpNeighbor neighbor) {
    /**
     * Most names one counter group of a port (its {@code counters/}, {@code hw_counters/}, its netdev's ethtool
     * statistics) sends: the collector's default {@code ingest.maxCountersPerGroup}, about three times the most a real
     * mlx5 netdev lists (1,000 to 3,000 ethtool statistics). Beyond it the agent keeps the first ones and logs it once,
     * so that one odd group costs its extra counters, not the node's stream.
     */
    public static final int MAX_COUNTERS_PER_GROUP = WireLimits.MAX_COUNTERS_PER_GROUP;
    public static final String HW_COUNTERS_NETLINK = "netlink";
    public static final String HW_COUNTERS_SYSFS = "sysfs";
    /** {@code state} 4: ACTIVE. */
    public static final int STATE_ACTIVE = 4;
    /** {@code state} 5: ACTIVE_DEFER, an active port whose transition the SM deferred; it carries traffic. */
    public static final int STATE_ACTIVE_DEFER = 5;

    public IbPort {
        counters = Maps.copyOrdered(counters);
        hwCounters = Maps.copyOrdered(hwCounters);
        gids = List.copyOf(gids);
        netdevCounters = Maps.copyOrdered(netdevCounters);
        if (gidsDropped < 0) {
            throw new IllegalArgumentException("gidsDropped is negative: " + gidsDropped);
        }
    }

    /**
     * A port built by component name: a component not set is absent (null, an empty map or list, {@code -1} for the
     * state ids, 0 GID entries dropped).
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from this port, to change some of its components. */
    public Builder toBuilder() {
        return new Builder().port(port).stateId(stateId).state(state).physStateId(physStateId).physState(physState)
                .rate(rate).rateBytesPerSecond(rateBytesPerSecond).linkLayer(linkLayer).lid(lid).netdev(netdev)
                .counters(counters).hwCounters(hwCounters).gids(gids).ethtool(ethtool).verbs(verbs).qos(qos)
                .netdevCounters(netdevCounters).module(module).fec(fec).hwCountersSource(hwCountersSource)
                .gidsDropped(gidsDropped).neighbor(neighbor);
    }

    /** This port with {@code values} as its hw counters, read from {@code source}. */
    public IbPort withHwCounters(Map<String, Long> values, String source) {
        return toBuilder().hwCounters(values).hwCountersSource(source).build();
    }

    /** This port with {@code neighbor} as its LLDP neighbour (null: none known). */
    public IbPort withNeighbor(LldpNeighbor neighbor) {
        return toBuilder().neighbor(neighbor).build();
    }

    /** The port carries traffic: {@code state} ACTIVE or ACTIVE_DEFER (an unreadable state is not active). */
    public boolean isActive() {
        return stateId == STATE_ACTIVE || stateId == STATE_ACTIVE_DEFER;
    }

    /** Sets {@link IbPort}'s components by name; {@link #build()} copies and checks them once. */
    public static final class Builder {
        private int port;
        private int stateId = -1;
        private String state;
        private int physStateId = -1;
        private String physState;
        private String rate;
        private Long rateBytesPerSecond;
        private String linkLayer;
        private String lid;
        private String netdev;
        private Map<String, Long> counters = Map.of();
        private Map<String, Long> hwCounters = Map.of();
        private List<GidEntry> gids = List.of();
        private EthtoolStats ethtool;
        private VerbsPortAttributes verbs;
        private QosConfig qos;
        private Map<String, Long> netdevCounters = Map.of();
        private TransceiverModule module;
        private FecMode fec;
        private String hwCountersSource;
        private int gidsDropped;
        private LldpNeighbor neighbor;

        private Builder() {
        }

        public Builder port(int port) {
            this.port = port;
            return this;
        }

        public Builder stateId(int stateId) {
            this.stateId = stateId;
            return this;
        }

        public Builder state(String state) {
            this.state = state;
            return this;
        }

        public Builder physStateId(int physStateId) {
            this.physStateId = physStateId;
            return this;
        }

        public Builder physState(String physState) {
            this.physState = physState;
            return this;
        }

        public Builder rate(String rate) {
            this.rate = rate;
            return this;
        }

        public Builder rateBytesPerSecond(Long rateBytesPerSecond) {
            this.rateBytesPerSecond = rateBytesPerSecond;
            return this;
        }

        public Builder linkLayer(String linkLayer) {
            this.linkLayer = linkLayer;
            return this;
        }

        public Builder lid(String lid) {
            this.lid = lid;
            return this;
        }

        public Builder netdev(String netdev) {
            this.netdev = netdev;
            return this;
        }

        public Builder counters(Map<String, Long> counters) {
            this.counters = counters;
            return this;
        }

        public Builder hwCounters(Map<String, Long> hwCounters) {
            this.hwCounters = hwCounters;
            return this;
        }

        public Builder gids(List<GidEntry> gids) {
            this.gids = gids;
            return this;
        }

        public Builder ethtool(EthtoolStats ethtool) {
            this.ethtool = ethtool;
            return this;
        }

        public Builder verbs(VerbsPortAttributes verbs) {
            this.verbs = verbs;
            return this;
        }

        public Builder qos(QosConfig qos) {
            this.qos = qos;
            return this;
        }

        public Builder netdevCounters(Map<String, Long> netdevCounters) {
            this.netdevCounters = netdevCounters;
            return this;
        }

        public Builder module(TransceiverModule module) {
            this.module = module;
            return this;
        }

        public Builder fec(FecMode fec) {
            this.fec = fec;
            return this;
        }

        public Builder hwCountersSource(String hwCountersSource) {
            this.hwCountersSource = hwCountersSource;
            return this;
        }

        public Builder gidsDropped(int gidsDropped) {
            this.gidsDropped = gidsDropped;
            return this;
        }

        public Builder neighbor(LldpNeighbor neighbor) {
            this.neighbor = neighbor;
            return this;
        }

        public IbPort build() {
            return new IbPort(port, stateId, state, physStateId, physState, rate, rateBytesPerSecond, linkLayer, lid,
                    netdev, counters, hwCounters, gids, ethtool, verbs, qos, netdevCounters, module, fec,
                    hwCountersSource, gidsDropped, neighbor);
        }
    }
}
