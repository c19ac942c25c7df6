package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.CounterMap;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PciFunction;
import io.rdmamon.protocol.model.TransceiverModule;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.wire.HostLayout.DeviceLayout;
import io.rdmamon.protocol.wire.HostLayout.EthtoolLayout;
import io.rdmamon.protocol.wire.HostLayout.PortLayout;

import java.util.BitSet;
import java.util.List;

/**
 * The order of values in a {@link Frame.Values}: for each device, for each port, in layout order:
 * {@code counters}, {@code hw_counters}, then (with ethtool) the raw statistics, then (protocol 3) the netdev
 * counters, then (protocol 3) the transceiver's readings as double bits; after a device's ports (protocol 3) the AER
 * counters of its PCI function. Each counter has one
 * slot: the typed ethtool view is derived from the raw statistics on decoding ({@link EthtoolStats.Derivation}).
 * A protocol 1 frame carries the typed copies after the raw statistics
 * ({@link EthtoolLayout#v1CopySlots()}); they are skipped.
 * A null value is a set bit in the absent set (every 64-bit pattern is a valid unsigned counter,
 * so no sentinel value exists).
 */
public final class ValueSlots {
    private final long[] values;
    private final BitSet absent;
    private int next;

    private ValueSlots(long[] values, BitSet absent) {
        this.values = values;
        this.absent = absent;
    }

    /** The values of {@code sample} in the slot order of {@code layout} (which must be {@code HostLayout.of(sample)}). */
    public static Frame.Values flatten(HostLayout layout, int layoutId, long seq, HostSample sample) {
        ValueSlots slots = new ValueSlots(new long[layout.slotCount()], new BitSet());
        for (IbDevice device : sample.devices()) {
            for (IbPort port : device.ports()) {
                port.counters().values().forEach(slots::put);
                port.hwCounters().values().forEach(slots::put);
                if (port.ethtool() != null) {
                    port.ethtool().raw().values().forEach(slots::put);
                }
                port.netdevCounters().values().forEach(slots::put);
                if (port.module() != null) {
                    for (Double reading : HostLayout.ModuleLayout.readings(port.module())) {
                        slots.put(reading == null ? null : Double.doubleToRawLongBits(reading));
                    }
                }
            }
            if (device.pci() != null) {
                device.pci().aerErrors().values().forEach(slots::put);
            }
        }
        return new Frame.Values(layoutId, seq, sample.timestampMillis(), slots.values, slots.absent, sample.sources());
    }

    /**
     * The sample {@code values} describe under {@code layout}. A connection decodes many frames with one
     * layout: {@link Plan} does the per-layout work once.
     *
     * @throws FrameException when the number of values does not match the layout
     */
    public static HostSample rebuild(String node, HostLayout layout, Frame.Values frame) throws FrameException {
        return new Plan(layout).rebuild(node, frame);
    }

    /**
     * The rebuild of samples under one layout: the counter names and their index ({@link CounterMap.Keys})
     * and the name rules of the typed ethtool view ({@link EthtoolStats.Derivation}) are resolved once here,
     * so that a sample costs its values only (one {@code long[]} per counter map, no boxed values, no map
     * copied on the way into the model records, no look-up by name).
     */
    static final class Plan {
        private final HostLayout layout;
        private final int slotCount;
        private final List<List<PortPlan>> devices;
        /** Per device: the keys of its PCI function's AER counters; null without a PCI function. */
        private final List<CounterMap.Keys> aer;

        private record PortPlan(PortLayout port, CounterMap.Keys counters, CounterMap.Keys hwCounters,
                                CounterMap.Keys raw, EthtoolStats.Derivation ethtool, CounterMap.Keys netdevCounters) {
        }

        Plan(HostLayout layout) {
            this.layout = layout;
            this.slotCount = layout.slotCount();
            this.devices = layout.devices().stream().map(d -> d.ports().stream().map(p -> {
                EthtoolLayout e = p.ethtool();
                CounterMap.Keys raw = e == null ? null : CounterMap.Keys.shared(e.rawNames());
                return new PortPlan(p, CounterMap.Keys.shared(p.counterNames()), CounterMap.Keys.shared(p.hwCounterNames()),
                        raw, raw == null ? null : new EthtoolStats.Derivation(raw),
                        CounterMap.Keys.shared(p.netdevCounterNames()));
            }).toList()).toList();
            this.aer = layout.devices().stream()
                    .map(d -> d.pci() == null ? null : CounterMap.Keys.shared(d.pci().aerNames())).toList();
        }

        HostSample rebuild(String node, Frame.Values frame) throws FrameException {
            long[] values = frame.sharedValues();
            BitSet absent = frame.sharedAbsent();
            if (values.length != slotCount) {
                throw new FrameException("values frame seq " + frame.seq() + " carries " + values.length
                        + " values but layout " + frame.layoutId() + " has " + slotCount + " slots");
            }
            if (absent.length() > values.length) {
                throw new FrameException("values frame seq " + frame.seq() + " marks slot "
                        + (absent.length() - 1) + " absent but has only " + values.length + " slots");
            }
            int slot = 0;
            IbDevice[] rebuilt = new IbDevice[devices.size()];
            for (int d = 0; d < rebuilt.length; d++) {
                DeviceLayout device = layout.devices().get(d);
                List<PortPlan> plans = devices.get(d);
                IbPort[] ports = new IbPort[plans.size()];
                for (int i = 0; i < ports.length; i++) {
                    PortPlan plan = plans.get(i);
                    PortLayout p = plan.port();
                    CounterMap counters = CounterMap.of(plan.counters(), values, absent, slot);
                    slot += plan.counters().width();
                    CounterMap hwCounters = CounterMap.of(plan.hwCounters(), values, absent, slot);
                    slot += plan.hwCounters().width();
                    EthtoolStats ethtool = null;
                    if (p.ethtool() != null) {
                        ethtool = plan.ethtool().derive(p.ethtool().netdev(),
                                CounterMap.of(plan.raw(), values, absent, slot));
                        slot += p.ethtool().slotCount(); // and past a protocol 1 frame's typed copies
                    }
                    CounterMap netdevCounters = CounterMap.of(plan.netdevCounters(), values, absent, slot);
                    slot += plan.netdevCounters().width();
                    TransceiverModule module = null;
                    if (p.module() != null) {
                        module = p.module().withReadings(values, absent, slot);
                        slot += p.module().slotCount();
                    }
                    ports[i] = IbPort.builder().port(p.port()).stateId(p.stateId()).state(p.state())
                            .physStateId(p.physStateId()).physState(p.physState()).rate(p.rate())
                            .rateBytesPerSecond(p.rateBytesPerSecond()).linkLayer(p.linkLayer()).lid(p.lid())
                            .netdev(p.netdev()).counters(counters).hwCounters(hwCounters).gids(p.gids())
                            .ethtool(ethtool).verbs(p.verbs()).qos(p.qos()).netdevCounters(netdevCounters)
                            .module(module).fec(p.fec()).hwCountersSource(p.hwCountersSource())
                            .gidsDropped(p.gidsDropped()).neighbor(p.neighbor()).build();
                }
                PciFunction pci = null;
                if (device.pci() != null) {
                    CounterMap.Keys aerKeys = aer.get(d);
                    pci = device.pci().function().withAerErrors(CounterMap.of(aerKeys, values, absent, slot));
                    slot += aerKeys.width();
                }
                rebuilt[d] = new IbDevice(device.name(), device.nodeTypeId(), device.nodeType(), device.nodeGuid(),
                        device.sysImageGuid(), device.fwVersion(), device.hcaType(), device.boardId(), List.of(ports),
                        pci, device.resources());
            }
            return new HostSample(node, frame.timestampMillis(), List.of(rebuilt), frame.sources(), layout.ncclConf(),
                    layout.topology());
        }
    }

    private void put(Long value) {
        if (value == null) {
            absent.set(next);
        } else {
            values[next] = value;
        }
        next++;
    }
}
