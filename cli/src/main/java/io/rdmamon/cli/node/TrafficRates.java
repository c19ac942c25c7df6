package io.rdmamon.cli.node;

/** Per-second traffic of one interval; a null rate could not be computed (absent or reset counter). */
public record TrafficRates(Double rxBytes, Double rxPackets, Double txBytes, Double txPackets) {
    static TrafficRates between(TrafficCounters previous, TrafficCounters current, double seconds) {
        return new TrafficRates(
                CounterDeltas.perSecond(previous.rxBytes(), current.rxBytes(), seconds),
                CounterDeltas.perSecond(previous.rxPackets(), current.rxPackets(), seconds),
                CounterDeltas.perSecond(previous.txBytes(), current.txBytes(), seconds),
                CounterDeltas.perSecond(previous.txPackets(), current.txPackets(), seconds));
    }
}
