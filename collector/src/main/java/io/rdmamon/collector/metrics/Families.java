package io.rdmamon.collector.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects data points by family during one scrape, then builds sorted snapshots. A second point
 * with the same family and labels is dropped (two files that sanitise to one name must not make the
 * exposition invalid).
 */
final class Families {
    enum Type { COUNTER, GAUGE, INFO }

    private record Family(Type type, String help, Map<Labels, Double> points) {
    }

    private final Map<String, Family> families = new TreeMap<>();

    void counter(String name, String help, Labels labels, double value) {
        add(Type.COUNTER, name, help, labels, value);
    }

    void gauge(String name, String help, Labels labels, double value) {
        add(Type.GAUGE, name, help, labels, value);
    }

    /** {@code name} without {@code _info}. */
    void info(String name, String help, Labels labels) {
        add(Type.INFO, name, help, labels, 1);
    }

    private void add(Type type, String name, String help, Labels labels, double value) {
        Family family = families.computeIfAbsent(name, n -> new Family(type, help, new LinkedHashMap<>()));
        if (family.type() != type) {
            throw new IllegalStateException("metric " + name + " used as " + family.type() + " and " + type);
        }
        family.points().putIfAbsent(labels, value);
    }

    MetricSnapshots build() {
        List<MetricSnapshot> snapshots = new ArrayList<>();
        families.forEach((name, family) -> snapshots.add(switch (family.type()) {
            case COUNTER -> {
                CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(family.help());
                family.points().forEach((labels, value) ->
                        b.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(value).build()));
                yield b.build();
            }
            case GAUGE -> {
                GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(family.help());
                family.points().forEach((labels, value) ->
                        b.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(value).build()));
                yield b.build();
            }
            case INFO -> {
                InfoSnapshot.Builder b = InfoSnapshot.builder().name(name).help(family.help());
                family.points().keySet().forEach(labels ->
                        b.dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder().labels(labels).build()));
                yield b.build();
            }
        }));
        return new MetricSnapshots(snapshots);
    }
}
