package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.LldpNeighbor;
import io.rdmamon.protocol.model.PciFunction;
import io.rdmamon.protocol.model.RdmaResources;
import io.rdmamon.protocol.model.FecMode;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.VerbsPortAttributes;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The structure of a {@link HostSample} without its counter values: devices, ports, their
 * descriptive attributes, GIDs and the ordered names of every counter. Sent once per connection
 * and again only when it changes, so that each {@link Frame.Values} carries numbers only.
 *
 * @param devices  devices in sample order
 * @param ncclConf the host's {@code /etc/nccl.conf} ({@link HostSample#ncclConf()}); null when not read (and in
 *                 protocol 1 and 2 layouts)
 * @param topology the host's GPU↔NIC topology ({@link HostSample#topology()}); null when none (and in protocol 1 and
 *                 2 layouts)
 */
public record HostLayout(List<DeviceLayout> devices, Map<String, String> ncclConf, GpuTopology topology) {
    public HostLayout {
        devices = List.copyOf(devices);
        // ordered as in the file, unmodifiable
        ncclConf = ncclConf == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(ncclConf));
    }

    /** A layout without a GPU topology. */
    public HostLayout(List<DeviceLayout> devices, Map<String, String> ncclConf) {
        this(devices, ncclConf, null);
    }

    /** A layout without host-wide settings. */
    public HostLayout(List<DeviceLayout> devices) {
        this(devices, null, null);
    }

    /** The layout of {@code sample}. */
    public static HostLayout of(HostSample sample) {
        return new HostLayout(sample.devices().stream().map(DeviceLayout::of).toList(), sample.ncclConf(),
                sample.topology());
    }

    /** Number of value slots a {@link Frame.Values} for this layout carries. */
    public int slotCount() {
        return devices.stream().mapToInt(DeviceLayout::slotCount).sum();
    }

    /**
     * {@link IbDevice} without its ports' values. {@code pci} (protocol 3, optional) is its PCI function without
     * the AER counters, whose slots follow those of the device's ports. {@code resources} (protocol 3, optional) are
     * its RDMA netlink resource counts and QP list: whole in the layout, no slots, because a QP created or destroyed
     * changes both the list and the counts, and the list is no number.
     */
    public record DeviceLayout(String name, int nodeTypeId, String nodeType, String nodeGuid, String sysImageGuid,
                               String fwVersion, String hcaType, String boardId, List<PortLayout> ports,
                               PciLayout pci, RdmaResources resources) {
        public DeviceLayout {
            ports = List.copyOf(ports);
        }

        /** A device without RDMA netlink resources. */
        public DeviceLayout(String name, int nodeTypeId, String nodeType, String nodeGuid, String sysImageGuid,
                            String fwVersion, String hcaType, String boardId, List<PortLayout> ports, PciLayout pci) {
            this(name, nodeTypeId, nodeType, nodeGuid, sysImageGuid, fwVersion, hcaType, boardId, ports, pci, null);
        }

        /** A device without a PCI function (every protocol 1 and 2 layout). */
        public DeviceLayout(String name, int nodeTypeId, String nodeType, String nodeGuid, String sysImageGuid,
                            String fwVersion, String hcaType, String boardId, List<PortLayout> ports) {
            this(name, nodeTypeId, nodeType, nodeGuid, sysImageGuid, fwVersion, hcaType, boardId, ports, null);
        }

        static DeviceLayout of(IbDevice device) {
            return new DeviceLayout(device.name(), device.nodeTypeId(), device.nodeType(), device.nodeGuid(),
                    device.sysImageGuid(), device.fwVersion(), device.hcaType(), device.boardId(),
                    device.ports().stream().map(PortLayout::of).toList(),
                    device.pci() == null ? null : PciLayout.of(device.pci()), device.resources());
        }

        public int slotCount() {
            return ports.stream().mapToInt(PortLayout::slotCount).sum() + (pci == null ? 0 : pci.aerNames().size());
        }
    }

    /**
     * {@link TransceiverModule} without its readings (protocol 3): identity, thresholds and lane count, which change
     * when the module does; the readings (temperature, voltage, then per lane Rx power, Tx power, Tx bias) are value
     * slots holding the IEEE 754 bits of each double (every 64-bit pattern is a valid u64 slot), absent when null.
     */
    public record ModuleLayout(TransceiverModule module) {
        /** Temperature and voltage, before the lanes. */
        static final int MODULE_READINGS = 2;
        static final int LANE_READINGS = 3;

        public ModuleLayout {
            List<TransceiverModule.Lane> lanes = module.lanes().stream()
                    .map(l -> new TransceiverModule.Lane(l.lane(), null, null, null)).toList();
            module = new TransceiverModule(module.standard(), module.identifier(), module.type(), module.vendor(),
                    module.part(), module.revision(), module.serial(), module.date(), null, null, lanes,
                    module.thresholds(), module.notes());
        }

        static ModuleLayout of(TransceiverModule module) {
            return new ModuleLayout(module);
        }

        public int slotCount() {
            return MODULE_READINGS + LANE_READINGS * module.lanes().size();
        }

        /** The readings of {@code m} in slot order. */
        static Double[] readings(TransceiverModule m) {
            Double[] values = new Double[MODULE_READINGS + LANE_READINGS * m.lanes().size()];
            values[0] = m.temperatureCelsius();
            values[1] = m.voltageVolts();
            for (int i = 0; i < m.lanes().size(); i++) {
                TransceiverModule.Lane lane = m.lanes().get(i);
                values[MODULE_READINGS + LANE_READINGS * i] = lane.rxPowerWatts();
                values[MODULE_READINGS + LANE_READINGS * i + 1] = lane.txPowerWatts();
                values[MODULE_READINGS + LANE_READINGS * i + 2] = lane.txBiasAmperes();
            }
            return values;
        }

        /** This layout's module with the readings of {@code values[from ..]} ({@code absent}: null). */
        TransceiverModule withReadings(long[] values, BitSet absent, int from) {
            IntFunction<Double> at = i -> absent.get(from + i) ? null
                    : Double.longBitsToDouble(values[from + i]);
            List<TransceiverModule.Lane> lanes = new ArrayList<>(module.lanes().size());
            for (int i = 0; i < module.lanes().size(); i++) {
                int base = MODULE_READINGS + LANE_READINGS * i;
                lanes.add(new TransceiverModule.Lane(module.lanes().get(i).lane(), at.apply(base), at.apply(base + 1),
                        at.apply(base + 2)));
            }
            return new TransceiverModule(module.standard(), module.identifier(), module.type(), module.vendor(),
                    module.part(), module.revision(), module.serial(), module.date(), at.apply(0), at.apply(1), lanes,
                    module.thresholds(), module.notes());
        }
    }

    /**
     * {@link PciFunction} with the names of its AER counters instead of their values: the function's
     * address and link rarely change (a change is worth a new layout), its error counters do.
     */
    public record PciLayout(PciFunction function, List<String> aerNames) {
        public PciLayout {
            function = function.withAerErrors(Map.of());
            aerNames = List.copyOf(aerNames);
        }

        static PciLayout of(PciFunction function) {
            return new PciLayout(function, List.copyOf(function.aerErrors().keySet()));
        }
    }

    /**
     * {@link IbPort} with counter names instead of counter maps. State and rate belong here: they
     * change rarely, and a change is worth a new layout. So does the QoS configuration ({@code qos}, protocol 3;
     * null when not read): a change of it is a layout change, never part of a values frame. {@code netdevCounterNames}
     * (protocol 3) are the {@link io.rdmamon.protocol.model.NetdevCounters} the port's netdev has, and {@code module}
     * its transceiver; their slots follow the ethtool ones. {@code hwCountersSource} (protocol 3, optional) says
     * where the hw counters were read ({@link IbPort#hwCountersSource()}), and {@code gidsDropped} (protocol 3,
     * optional, absent = 0) how many GID entries the agent left out ({@link IbPort#gidsDropped()}). {@code neighbor}
     * (protocol 3, optional, absent = none known) is the port's LLDP neighbour ({@link IbPort#neighbor()}): text that
     * changes when the cabling does, so it belongs to the layout like the netdev.
     */
    public record PortLayout(int port, int stateId, String state, int physStateId, String physState, String rate,
                             Long rateBytesPerSecond, String linkLayer, String lid, String netdev,
                             List<String> counterNames, List<String> hwCounterNames, List<GidEntry> gids,
                             EthtoolLayout ethtool, VerbsPortAttributes verbs, QosConfig qos,
                             List<String> netdevCounterNames, ModuleLayout module, FecMode fec,
                             String hwCountersSource, int gidsDropped, LldpNeighbor neighbor) {
        public PortLayout {
            counterNames = List.copyOf(counterNames);
            hwCounterNames = List.copyOf(hwCounterNames);
            gids = List.copyOf(gids);
            netdevCounterNames = netdevCounterNames == null ? List.of() : List.copyOf(netdevCounterNames);
        }

        /**
         * The layout of {@code port}: its attributes and the names of its counters, whose values the values frames
         * carry in this order.
         */
        public static PortLayout of(IbPort port) {
            return new PortLayout(port.port(), port.stateId(), port.state(), port.physStateId(), port.physState(),
                    port.rate(), port.rateBytesPerSecond(), port.linkLayer(), port.lid(), port.netdev(),
                    List.copyOf(port.counters().keySet()), List.copyOf(port.hwCounters().keySet()), port.gids(),
                    port.ethtool() == null ? null : EthtoolLayout.of(port.ethtool()), port.verbs(), port.qos(),
                    List.copyOf(port.netdevCounters().keySet()),
                    port.module() == null ? null : ModuleLayout.of(port.module()), port.fec(),
                    port.hwCountersSource(), port.gidsDropped(), port.neighbor());
        }

        public int slotCount() {
            return counterNames.size() + hwCounterNames.size() + (ethtool == null ? 0 : ethtool.slotCount())
                    + netdevCounterNames.size() + (module == null ? 0 : module.slotCount());
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
