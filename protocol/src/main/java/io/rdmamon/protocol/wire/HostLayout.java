package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.VerbsPortAttributes;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The structure of a {@link HostSample} without its counter values: devices, ports, their
 * descriptive attributes, GIDs and the ordered names of every counter. Sent once per connection
 * and again only when it changes, so that each {@link Frame.Values} carries numbers only.
 *
 * @param devices  devices in sample order
 * @param ncclConf the host's {@code /etc/nccl.conf} ({@link HostSample#ncclConf()}); null when not read (and in
 *                 protocol 1 and 2 layouts)
 */
public record HostLayout(List<DeviceLayout> devices, Map<String, String> ncclConf) {
    public HostLayout {
        devices = List.copyOf(devices);
        // ordered as in the file, unmodifiable
        ncclConf = ncclConf == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(ncclConf));
    }

    /** A layout without host-wide settings. */
    public HostLayout(List<DeviceLayout> devices) {
        this(devices, null);
    }

    /** The layout of {@code sample}. */
    public static HostLayout of(HostSample sample) {
        return new HostLayout(sample.devices().stream().map(DeviceLayout::of).toList(), sample.ncclConf());
    }

    /** Number of value slots a {@link Frame.Values} for this layout carries. */
    public int slotCount() {
        return devices.stream().flatMap(d -> d.ports().stream()).mapToInt(PortLayout::slotCount).sum();
    }

    /** {@link IbDevice} without its ports' values. */
    public record DeviceLayout(String name, int nodeTypeId, String nodeType, String nodeGuid, String sysImageGuid,
                               String fwVersion, String hcaType, String boardId, List<PortLayout> ports) {
        public DeviceLayout {
            ports = List.copyOf(ports);
        }

        static DeviceLayout of(IbDevice device) {
            return new DeviceLayout(device.name(), device.nodeTypeId(), device.nodeType(), device.nodeGuid(),
                    device.sysImageGuid(), device.fwVersion(), device.hcaType(), device.boardId(),
                    device.ports().stream().map(PortLayout::of).toList());
        }
    }

    /**
     * {@link IbPort} with counter names instead of counter maps. State and rate belong here: they
     * change rarely, and a change is worth a new layout. So does the QoS configuration ({@code qos}, protocol 3;
     * null when not read): a change of it is a layout change, never part of a values frame.
     */
    public record PortLayout(int port, int stateId, String state, int physStateId, String physState, String rate,
                             Long rateBytesPerSecond, String linkLayer, String lid, String netdev,
                             List<String> counterNames, List<String> hwCounterNames, List<GidEntry> gids,
                             EthtoolLayout ethtool, VerbsPortAttributes verbs, QosConfig qos) {
        public PortLayout {
            counterNames = List.copyOf(counterNames);
            hwCounterNames = List.copyOf(hwCounterNames);
            gids = List.copyOf(gids);
        }

        /** A port layout without QoS configuration. */
        public PortLayout(int port, int stateId, String state, int physStateId, String physState, String rate,
                          Long rateBytesPerSecond, String linkLayer, String lid, String netdev,
                          List<String> counterNames, List<String> hwCounterNames, List<GidEntry> gids,
                          EthtoolLayout ethtool, VerbsPortAttributes verbs) {
            this(port, stateId, state, physStateId, physState, rate, rateBytesPerSecond, linkLayer, lid, netdev,
                    counterNames, hwCounterNames, gids, ethtool, verbs, null);
        }

        static PortLayout of(IbPort port) {
            return new PortLayout(port.port(), port.stateId(), port.state(), port.physStateId(), port.physState(),
                    port.rate(), port.rateBytesPerSecond(), port.linkLayer(), port.lid(), port.netdev(),
                    List.copyOf(port.counters().keySet()), List.copyOf(port.hwCounters().keySet()), port.gids(),
                    port.ethtool() == null ? null : EthtoolLayout.of(port.ethtool()), port.verbs(), port.qos());
        }

        public int slotCount() {
            return counterNames.size() + hwCounterNames.size() + (ethtool == null ? 0 : ethtool.slotCount());
        }
    }

    /**
     * {@link EthtoolStats} without values: the names of its raw statistics. Its typed view is not on the wire: the
     * decoder derives it from the raw statistics ({@link EthtoolStats.Derivation}), as the agent does.
     *
     * @param netdev       interface name
     * @param rawNames     statistic names in kernel order, one slot each
     * @param v1CopySlots  slots a protocol 1 values frame carries after the raw statistics: the typed copies of
     *                     them a protocol 1 agent sends (ten per priority, then the vport RDMA statistics and the
     *                     pause storm events), which the decoder skips; 0 in protocol 2
     */
    public record EthtoolLayout(String netdev, List<String> rawNames, int v1CopySlots) {
        /** Typed copies per priority in protocol 1: the ten Long fields of {@code PriorityCounters}. */
        public static final int V1_SLOTS_PER_PRIORITY = 10;
        /** Most typed copies a protocol 1 port carries: 8 priorities of 10, 8 vport RDMA statistics, 2 events. */
        public static final int MAX_V1_COPY_SLOTS = EthtoolStats.PRIORITY_COUNT * V1_SLOTS_PER_PRIORITY
                + EthtoolStats.VPORT_RDMA_NAMES.size() + 2;

        public EthtoolLayout {
            rawNames = List.copyOf(rawNames);
            if (v1CopySlots < 0 || v1CopySlots > MAX_V1_COPY_SLOTS) {
                throw new IllegalArgumentException("v1CopySlots " + v1CopySlots + " is outside 0.." + MAX_V1_COPY_SLOTS);
            }
        }

        /** A protocol 2 layout: raw statistics only. */
        public EthtoolLayout(String netdev, List<String> rawNames) {
            this(netdev, rawNames, 0);
        }

        static EthtoolLayout of(EthtoolStats stats) {
            return new EthtoolLayout(stats.netdev(), List.copyOf(stats.raw().keySet()));
        }

        public int slotCount() {
            return rawNames.size() + v1CopySlots;
        }
    }
}
