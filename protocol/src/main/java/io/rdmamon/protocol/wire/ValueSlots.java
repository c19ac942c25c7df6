package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.CounterMap;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PriorityCounters;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.wire.HostLayout.DeviceLayout;
import io.rdmamon.protocol.wire.HostLayout.EthtoolLayout;
import io.rdmamon.protocol.wire.HostLayout.PortLayout;

import java.util.BitSet;
import java.util.List;

/**
 * The order of values in a {@link Frame.Values}: for each device, for each port, in layout order:
 * {@code counters}, {@code hw_counters}, then (with ethtool) the raw statistics, ten slots per
 * priority (the Long fields of {@link PriorityCounters} in record order), the vport RDMA
 * statistics, the pause storm warning and error events when the layout has them.
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
                EthtoolStats ethtool = port.ethtool();
                if (ethtool != null) {
                    ethtool.raw().values().forEach(slots::put);
                    for (PriorityCounters p : ethtool.priorities()) {
                        for (Long value : priorityValues(p)) {
                            slots.put(value);
                        }
                    }
                    ethtool.vportRdma().values().forEach(slots::put);
                    if (ethtool.pauseStormWarningEvents() != null) {
                        slots.put(ethtool.pauseStormWarningEvents());
                    }
                    if (ethtool.pauseStormErrorEvents() != null) {
                        slots.put(ethtool.pauseStormErrorEvents());
                    }
                }
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
     * are built once here, so that a sample costs its values only (one {@code long[]} per counter map, no
     * boxed values, no map copied on the way into the model records).
     */
    static final class Plan {
        private final HostLayout layout;
        private final int slotCount;
        private final List<List<PortPlan>> devices;

        private record PortPlan(PortLayout port, CounterMap.Keys counters, CounterMap.Keys hwCounters,
                                CounterMap.Keys raw, CounterMap.Keys vportRdma) {
        }

        Plan(HostLayout layout) {
            this.layout = layout;
            this.slotCount = layout.slotCount();
            this.devices = layout.devices().stream().map(d -> d.ports().stream().map(p -> {
                EthtoolLayout e = p.ethtool();
                return new PortPlan(p, new CounterMap.Keys(p.counterNames()), new CounterMap.Keys(p.hwCounterNames()),
                        e == null ? null : new CounterMap.Keys(e.rawNames()),
                        e == null ? null : new CounterMap.Keys(e.vportRdmaNames()));
            }).toList()).toList();
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
                        ethtool = ethtool(plan, values, absent, slot);
                        slot += p.ethtool().slotCount();
                    }
                    ports[i] = new IbPort(p.port(), p.stateId(), p.state(), p.physStateId(), p.physState(), p.rate(),
                            p.rateBytesPerSecond(), p.linkLayer(), p.lid(), p.netdev(), counters, hwCounters, p.gids(),
                            ethtool, p.verbs());
                }
                rebuilt[d] = new IbDevice(device.name(), device.nodeTypeId(), device.nodeType(), device.nodeGuid(),
                        device.sysImageGuid(), device.fwVersion(), device.hcaType(), device.boardId(), List.of(ports));
            }
            return new HostSample(node, frame.timestampMillis(), List.of(rebuilt), frame.sources());
        }

        private static EthtoolStats ethtool(PortPlan plan, long[] values, BitSet absent, int from) {
            EthtoolLayout layout = plan.port().ethtool();
            int slot = from;
            CounterMap raw = CounterMap.of(plan.raw(), values, absent, slot);
            slot += plan.raw().width();
            PriorityCounters[] priorities = new PriorityCounters[layout.priorities().size()];
            for (int i = 0; i < priorities.length; i++) {
                int s = slot;
                priorities[i] = new PriorityCounters(layout.priorities().get(i), value(values, absent, s),
                        value(values, absent, s + 1), value(values, absent, s + 2), value(values, absent, s + 3),
                        value(values, absent, s + 4), value(values, absent, s + 5), value(values, absent, s + 6),
                        value(values, absent, s + 7), value(values, absent, s + 8), value(values, absent, s + 9));
                slot += EthtoolLayout.PRIORITY_SLOTS;
            }
            CounterMap vportRdma = CounterMap.of(plan.vportRdma(), values, absent, slot);
            slot += plan.vportRdma().width();
            Long warning = layout.pauseStormWarningEvents() ? value(values, absent, slot++) : null;
            Long error = layout.pauseStormErrorEvents() ? value(values, absent, slot) : null;
            return new EthtoolStats(layout.netdev(), raw, List.of(priorities), layout.pfcEnabledPriorities(),
                    vportRdma, warning, error);
        }

        private static Long value(long[] values, BitSet absent, int slot) {
            return absent.get(slot) ? null : values[slot];
        }
    }

    private static Long[] priorityValues(PriorityCounters p) {
        return new Long[] {p.rxBytes(), p.rxPackets(), p.rxDiscards(), p.txBytes(), p.txPackets(),
                p.rxPauseFrames(), p.rxPauseDurationMicros(), p.txPauseFrames(), p.txPauseDurationMicros(),
                p.rxPauseTransitions()};
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
