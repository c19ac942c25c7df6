package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PriorityCounters;
import io.rdmamon.protocol.model.VerbsPortAttributes;

import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The structure of a {@link HostSample} without its counter values: devices, ports, their
 * descriptive attributes, GIDs and the ordered names of every counter. Sent once per connection
 * and again only when it changes, so that each {@link Frame.Values} carries numbers only.
 *
 * @param devices devices in sample order
 */
public record HostLayout(List<DeviceLayout> devices) {
    public HostLayout {
        devices = List.copyOf(devices);
    }

    /** The layout of {@code sample}. */
    public static HostLayout of(HostSample sample) {
        return new HostLayout(sample.devices().stream().map(DeviceLayout::of).toList());
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
     * change rarely, and a change is worth a new layout.
     */
    public record PortLayout(int port, int stateId, String state, int physStateId, String physState, String rate,
                             Long rateBytesPerSecond, String linkLayer, String lid, String netdev,
                             List<String> counterNames, List<String> hwCounterNames, List<GidEntry> gids,
                             EthtoolLayout ethtool, VerbsPortAttributes verbs) {
        public PortLayout {
            counterNames = List.copyOf(counterNames);
            hwCounterNames = List.copyOf(hwCounterNames);
            gids = List.copyOf(gids);
        }

        static PortLayout of(IbPort port) {
            return new PortLayout(port.port(), port.stateId(), port.state(), port.physStateId(), port.physState(),
                    port.rate(), port.rateBytesPerSecond(), port.linkLayer(), port.lid(), port.netdev(),
                    List.copyOf(port.counters().keySet()), List.copyOf(port.hwCounters().keySet()), port.gids(),
                    port.ethtool() == null ? null : EthtoolLayout.of(port.ethtool()), port.verbs());
        }

        public int slotCount() {
            return counterNames.size() + hwCounterNames.size() + (ethtool == null ? 0 : ethtool.slotCount());
        }
    }

    /**
     * {@link EthtoolStats} without values.
     *
     * @param priorities              priorities that have a {@link PriorityCounters} entry, in sample order;
     *                                each contributes {@link #PRIORITY_SLOTS} slots
     * @param pauseStormWarningEvents whether {@code tx_pause_storm_warning_events} has a slot
     * @param pauseStormErrorEvents   whether {@code tx_pause_storm_error_events} has a slot
     */
    public record EthtoolLayout(String netdev, List<String> rawNames, List<Integer> priorities,
                                SortedSet<Integer> pfcEnabledPriorities, List<String> vportRdmaNames,
                                boolean pauseStormWarningEvents, boolean pauseStormErrorEvents) {
        /** The ten Long fields of {@link PriorityCounters}, in record order. */
        public static final int PRIORITY_SLOTS = 10;

        public EthtoolLayout {
            rawNames = List.copyOf(rawNames);
            priorities = List.copyOf(priorities);
            pfcEnabledPriorities = Collections.unmodifiableSortedSet(new TreeSet<>(pfcEnabledPriorities));
            vportRdmaNames = List.copyOf(vportRdmaNames);
        }

        static EthtoolLayout of(EthtoolStats stats) {
            return new EthtoolLayout(stats.netdev(), List.copyOf(stats.raw().keySet()),
                    stats.priorities().stream().map(PriorityCounters::priority).toList(),
                    stats.pfcEnabledPriorities(), List.copyOf(stats.vportRdma().keySet()),
                    stats.pauseStormWarningEvents() != null, stats.pauseStormErrorEvents() != null);
        }

        public int slotCount() {
            return rawNames.size() + priorities.size() * PRIORITY_SLOTS + vportRdmaNames.size()
                    + (pauseStormWarningEvents ? 1 : 0) + (pauseStormErrorEvents ? 1 : 0);
        }
    }
}
