package io.rdmamon.protocol.testing;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.model.VerbsPortAttributes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fluent builders for the model records, shared with every module's tests through the protocol's test jar.
 * Each builder starts from what a reader would produce for that kind of hardware and changes only what a test
 * names, e.g. {@code Samples.rocePort().counters(ordered("port_rcv_data", 8L)).withPriorityBytes(3, 10, 20).build()}.
 *
 * <p>The ethtool statistics are given raw only: {@link PortBuilder#build()} derives the typed view with
 * {@link EthtoolStats#of}, as the agent and the collector do, so raw and typed parts cannot disagree.
 */
public final class Samples {
    public static final String LINK_LOCAL_GID = "fe80:0000:0000:0000:0e42:a1ff:fe12:3456";
    public static final String IPV4_MAPPED_GID = "0000:0000:0000:0000:0000:ffff:c0a8:0102";
    public static final String MLX5_GUID = "0a7f:bc12:45ef:d23b";
    public static final String ERDMA_GUID = "0216:3eff:fe01:0203";

    private Samples() {
    }

    /**
     * An active mlx5 RoCE port 1 on {@code eth2} at 100 Gb/s with a link-local RoCE v1 GID and an IPv4-mapped
     * RoCE v2 GID (192.168.1.2); no counters, no ethtool statistics.
     */
    public static PortBuilder rocePort() {
        return new PortBuilder().gids(new GidEntry(0, LINK_LOCAL_GID, "IB/RoCE v1", "eth2", null),
                new GidEntry(3, IPV4_MAPPED_GID, "RoCE v2", "eth2", "192.168.1.2"));
    }

    /** An active InfiniBand port 1 (LID 0x5, no netdev) with its link-local GID. */
    public static PortBuilder ibPort() {
        return new PortBuilder().linkLayer("InfiniBand").lid("0x5").netdev(null)
                .gids(new GidEntry(0, "fe80:0000:0000:0000:" + MLX5_GUID, "IB/RoCE v1", null, null));
    }

    /** An active eRDMA port 1 on {@code eth0} at 2.5 Gb/s with one GID without a type, as erdma reports it. */
    public static PortBuilder erdmaPort() {
        return new PortBuilder().rate("2.5 Gb/sec (1X SDR)", 312_500_000L).netdev("eth0")
                .gids(new GidEntry(0, "0016:3e01:0203:0000:0000:0000:0000:0000", null, null, null));
    }

    /** A port none of whose files could be read. */
    public static IbPort unreadablePort(int number) {
        return IbPort.builder().port(number).build();
    }

    /** A ConnectX device {@code mlx5_0} (node type CA) without ports. */
    public static DeviceBuilder mlx5Device() {
        return new DeviceBuilder("mlx5_0", IbDevice.NODE_TYPE_CA, "CA", MLX5_GUID, MLX5_GUID, "14.28.2006", "MT4123",
                "MT_0000000010");
    }

    /** An Alibaba eRDMA device {@code erdma_0} (node type RNIC, no sys_image_guid, hca_type or board_id). */
    public static DeviceBuilder erdmaDevice() {
        return new DeviceBuilder("erdma_0", IbDevice.NODE_TYPE_RNIC, "RNIC", ERDMA_GUID, null, "0.2.0", null, null);
    }

    /** A sample of {@code node} at {@code timestampMillis} without devices or sources. */
    public static HostBuilder host(String node, long timestampMillis) {
        return new HostBuilder(node, timestampMillis);
    }

    /** An insertion-ordered map from alternating name, value arguments (a value may be null: absent). */
    public static Map<String, Long> ordered(Object... nameValue) {
        if (nameValue.length % 2 != 0) {
            throw new IllegalArgumentException("ordered needs name, value pairs; got " + nameValue.length + " arguments");
        }
        Map<String, Long> map = new LinkedHashMap<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            map.put((String) nameValue[i], (Long) nameValue[i + 1]);
        }
        return map;
    }

    /** Builds an {@link IbPort}; {@link #build()} may be called again after further changes. */
    public static final class PortBuilder {
        private int number = 1;
        private int stateId = IbPort.STATE_ACTIVE;
        private String rate = "100 Gb/sec (4X EDR)";
        private Long rateBytesPerSecond = 12_500_000_000L;
        private String linkLayer = "Ethernet";
        private String lid = "0x0";
        private String netdev = "eth2";
        private Map<String, Long> counters = Map.of();
        private Map<String, Long> hwCounters = Map.of();
        private List<GidEntry> gids = List.of();
        private Map<String, Long> ethtool;
        private VerbsPortAttributes verbs;
        private QosConfig qos;

        private PortBuilder() {
        }

        public PortBuilder number(int port) {
            this.number = port;
            return this;
        }

        /** The {@code state} id; its name and the physical state (LinkUp when active, else Disabled) follow. */
        public PortBuilder state(int id) {
            this.stateId = id;
            return this;
        }

        public PortBuilder rate(String text, Long bytesPerSecond) {
            this.rate = text;
            this.rateBytesPerSecond = bytesPerSecond;
            return this;
        }

        public PortBuilder linkLayer(String linkLayer) {
            this.linkLayer = linkLayer;
            return this;
        }

        public PortBuilder lid(String lid) {
            this.lid = lid;
            return this;
        }

        /** The netdev; also the netdev of the ethtool statistics. */
        public PortBuilder netdev(String netdev) {
            this.netdev = netdev;
            return this;
        }

        /** {@code counters/} values; port_rcv_data and port_xmit_data in bytes, as the reader gives them. */
        public PortBuilder counters(Map<String, Long> counters) {
            this.counters = counters;
            return this;
        }

        public PortBuilder hwCounters(Map<String, Long> hwCounters) {
            this.hwCounters = hwCounters;
            return this;
        }

        public PortBuilder gids(GidEntry... entries) {
            return gids(List.of(entries));
        }

        public PortBuilder gids(List<GidEntry> entries) {
            this.gids = entries;
            return this;
        }

        /** The raw {@code ethtool -S} statistics of the netdev in kernel order; null: none were read. */
        public PortBuilder ethtool(Map<String, Long> raw) {
            this.ethtool = raw == null ? null : new LinkedHashMap<>(raw);
            return this;
        }

        /** Adds (or sets) {@code rx_prioN_bytes} and {@code tx_prioN_bytes} to the raw ethtool statistics. */
        public PortBuilder withPriorityBytes(int priority, long rxBytes, long txBytes) {
            if (ethtool == null) {
                ethtool = new LinkedHashMap<>();
            }
            ethtool.put("rx_prio" + priority + "_bytes", rxBytes);
            ethtool.put("tx_prio" + priority + "_bytes", txBytes);
            return this;
        }

        public PortBuilder verbs(VerbsPortAttributes verbs) {
            this.verbs = verbs;
            return this;
        }

        public PortBuilder withQos(QosConfig qos) {
            this.qos = qos;
            return this;
        }

        public IbPort build() {
            if (ethtool != null && netdev == null) {
                throw new IllegalStateException("ethtool statistics without a netdev: set netdev(...) too");
            }
            boolean active = stateId == IbPort.STATE_ACTIVE || stateId == IbPort.STATE_ACTIVE_DEFER;
            return IbPort.builder().port(number).stateId(stateId).state(stateName(stateId)).physStateId(active ? 5 : 3)
                    .physState(active ? "LinkUp" : "Disabled").rate(rate).rateBytesPerSecond(rateBytesPerSecond)
                    .linkLayer(linkLayer).lid(lid).netdev(netdev).counters(counters).hwCounters(hwCounters).gids(gids)
                    .ethtool(ethtool == null ? null : EthtoolStats.of(netdev, ethtool)).verbs(verbs).qos(qos).build();
        }

        private static String stateName(int id) {
            return switch (id) {
                case 1 -> "DOWN";
                case 2 -> "INIT";
                case 3 -> "ARMED";
                case 4 -> "ACTIVE";
                case 5 -> "ACTIVE_DEFER";
                default -> "NOP";
            };
        }
    }

    /** Builds an {@link IbDevice}. */
    public static final class DeviceBuilder {
        private final String name;
        private final int nodeTypeId;
        private final String nodeType;
        private final String nodeGuid;
        private String sysImageGuid;
        private String fwVersion;
        private String hcaType;
        private String boardId;
        private List<IbPort> ports = List.of();

        private DeviceBuilder(String name, int nodeTypeId, String nodeType, String nodeGuid, String sysImageGuid,
                              String fwVersion, String hcaType, String boardId) {
            this.name = name;
            this.nodeTypeId = nodeTypeId;
            this.nodeType = nodeType;
            this.nodeGuid = nodeGuid;
            this.sysImageGuid = sysImageGuid;
            this.fwVersion = fwVersion;
            this.hcaType = hcaType;
            this.boardId = boardId;
        }

        public DeviceBuilder sysImageGuid(String guid) {
            this.sysImageGuid = guid;
            return this;
        }

        public DeviceBuilder fwVersion(String fwVersion) {
            this.fwVersion = fwVersion;
            return this;
        }

        public DeviceBuilder hcaType(String hcaType) {
            this.hcaType = hcaType;
            return this;
        }

        public DeviceBuilder boardId(String boardId) {
            this.boardId = boardId;
            return this;
        }

        public DeviceBuilder ports(IbPort... ports) {
            this.ports = List.of(ports);
            return this;
        }

        public IbDevice build() {
            return new IbDevice(name, nodeTypeId, nodeType, nodeGuid, sysImageGuid, fwVersion, hcaType, boardId, ports);
        }
    }

    /** Builds a {@link HostSample}. */
    public static final class HostBuilder {
        private final String node;
        private final long timestampMillis;
        private final List<IbDevice> devices = new ArrayList<>();
        private List<SourceStatus> sources = List.of();
        private Map<String, String> ncclConf;

        private HostBuilder(String node, long timestampMillis) {
            this.node = node;
            this.timestampMillis = timestampMillis;
        }

        public HostBuilder devices(IbDevice... devices) {
            this.devices.addAll(List.of(devices));
            return this;
        }

        public HostBuilder sources(SourceStatus... sources) {
            return sources(List.of(sources));
        }

        public HostBuilder sources(List<SourceStatus> sources) {
            this.sources = sources;
            return this;
        }

        /** {@code /etc/nccl.conf} as KEY=VALUE pairs in file order; null: not read. */
        public HostBuilder withNcclConf(Map<String, String> ncclConf) {
            this.ncclConf = ncclConf;
            return this;
        }

        public HostSample build() {
            return new HostSample(node, timestampMillis, devices, sources, ncclConf);
        }
    }
}
