package io.rdmamon.cli.node;

import io.rdmamon.protocol.rates.CounterWidth;

/** Per-second traffic of one interval; a null rate could not be computed (absent or reset counter). */
/** eRDMA hw counters and the extended port data/packet counters are 64-bit. */
public record TrafficRates(Double rxBytes, Double rxPackets, Double txBytes, Double txPackets) {
    static TrafficRates between(TrafficCounters previous, TrafficCounters current, double seconds) {
        return new TrafficRates(
                CounterDeltas.perSecond(previous.rxBytes(), current.rxBytes(), seconds, CounterWidth.WRAPPING_64),
                CounterDeltas.perSecond(previous.rxPackets(), current.rxPackets(), seconds, CounterWidth.WRAPPING_64),
                CounterDeltas.perSecond(previous.txBytes(), current.txBytes(), seconds, CounterWidth.WRAPPING_64),
                CounterDeltas.perSecond(previous.txPackets(), current.txPackets(), seconds, CounterWidth.WRAPPING_64));
    }
}
