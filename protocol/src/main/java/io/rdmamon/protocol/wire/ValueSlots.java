package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PriorityCounters;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.wire.HostLayout.DeviceLayout;
import io.rdmamon.protocol.wire.HostLayout.EthtoolLayout;
import io.rdmamon.protocol.wire.HostLayout.PortLayout;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
     * The sample {@code values} describe under {@code layout}.
     *
     * @throws FrameException when the number of values does not match the layout
     */
    public static HostSample rebuild(String node, HostLayout layout, Frame.Values frame) throws FrameException {
        long[] values = frame.values();
        if (values.length != layout.slotCount()) {
            throw new FrameException("values frame seq " + frame.seq() + " carries " + values.length
                    + " values but layout " + frame.layoutId() + " has " + layout.slotCount() + " slots");
        }
        if (frame.absent().length() > values.length) {
            throw new FrameException("values frame seq " + frame.seq() + " marks slot "
                    + (frame.absent().length() - 1) + " absent but has only " + values.length + " slots");
        }
        ValueSlots slots = new ValueSlots(values, frame.absent());
        List<IbDevice> devices = new ArrayList<>();
        for (DeviceLayout d : layout.devices()) {
            List<IbPort> ports = new ArrayList<>();
            for (PortLayout p : d.ports()) {
                Map<String, Long> counters = slots.takeMap(p.counterNames());
                Map<String, Long> hwCounters = slots.takeMap(p.hwCounterNames());
                EthtoolStats ethtool = p.ethtool() == null ? null : slots.takeEthtool(p.ethtool());
                ports.add(new IbPort(p.port(), p.stateId(), p.state(), p.physStateId(), p.physState(), p.rate(),
                        p.rateBytesPerSecond(), p.linkLayer(), p.lid(), p.netdev(), counters, hwCounters, p.gids(),
                        ethtool, p.verbs()));
            }
            devices.add(new IbDevice(d.name(), d.nodeTypeId(), d.nodeType(), d.nodeGuid(), d.sysImageGuid(),
                    d.fwVersion(), d.hcaType(), d.boardId(), ports));
        }
        List<SourceStatus> sources = frame.sources();
        return new HostSample(node, frame.timestampMillis(), devices, sources);
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

    private Long take() {
        int slot = next++;
        return absent.get(slot) ? null : values[slot];
    }

    private Map<String, Long> takeMap(List<String> names) {
        Map<String, Long> map = new LinkedHashMap<>();
        for (String name : names) {
            map.put(name, take());
        }
        return map;
    }

    private EthtoolStats takeEthtool(EthtoolLayout layout) {
        Map<String, Long> raw = takeMap(layout.rawNames());
        List<PriorityCounters> priorities = new ArrayList<>();
        for (int priority : layout.priorities()) {
            priorities.add(new PriorityCounters(priority, take(), take(), take(), take(), take(), take(), take(),
                    take(), take(), take()));
        }
        Map<String, Long> vportRdma = takeMap(layout.vportRdmaNames());
        Long warning = layout.pauseStormWarningEvents() ? take() : null;
        Long error = layout.pauseStormErrorEvents() ? take() : null;
        return new EthtoolStats(layout.netdev(), raw, priorities, layout.pfcEnabledPriorities(), vportRdma,
                warning, error);
    }
}
