package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PathContext;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.model.PathVerdict;
import io.rdmamon.collector.model.PortKey;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.model.Severity;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.rates.CounterGroup;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the three path rules share: the worst pingmesh verdict of the rule raised on the port, in words, followed by
 * the counters of the verdict's ends that tell a host or link fault from a network one: link errors, PFC pauses on
 * the lossless priorities and transport errors, as each port has them, per second over its last two reads.
 */
final class PathFindings {
    /** Link-level errors of the PMA (InfiniBand and mlx5 RoCE ports alike). */
    private static final List<String> LINK_COUNTERS = List.of("symbol_error", "port_rcv_errors", "link_downed");
    /** The most lossy verdict, then the slowest; a verdict without sent round trips lost them all. */
    private static final Comparator<PathVerdict> WORST = Comparator
            .comparingDouble((PathVerdict v) -> Double.isNaN(v.lossRatio()) ? 1 : v.lossRatio())
            .thenComparingDouble(v -> Double.isNaN(v.p50Seconds()) ? 0 : v.p50Seconds());

    private PathFindings() {
    }

    /** The finding of {@code rule} when a verdict of it is raised on the port; its severity as {@code severity} says. */
    static Optional<Finding> of(Rule rule, PortInput in, DiagnosisConfig config, Function<PathVerdict, Severity> severity) {
        List<PathVerdict> verdicts = in.paths().verdicts().stream().filter(v -> v.rule() == rule).toList();
        if (verdicts.isEmpty()) {
            return Optional.empty();
        }
        PathVerdict worst = verdicts.stream().max(WORST).orElseThrow();
        Map<String, Double> values = new LinkedHashMap<>();
        putFinite(values, "lossRatio", worst.lossRatio());
        putFinite(values, "p50Seconds", worst.p50Seconds());
        putFinite(values, "p99Seconds", worst.p99Seconds());
        values.put("affected", (double) worst.affected());
        values.put("judged", (double) worst.judged());
        StringBuilder text = new StringBuilder(worst.describe()).append(": ").append(String.join("; ", worst.evidence()));
        if (verdicts.size() > 1) {
            text.append("; ").append(verdicts.size() - 1).append(" more ").append(rule.id())
                    .append(" verdict(s) on this port");
        }
        PortKey self = in.paths().port();
        text.append("; counters ").append(counters(self, in.previous(), in.current(), in.elapsedMillis(), config, values));
        for (PortKey end : worst.ends()) {
            if (!end.equals(self)) {
                PathContext.Reads reads = in.paths().ends().get(end);
                text.append("; counters of the other end ").append(reads == null ? end + ": not held by this collector"
                        : counters(end, reads.previous(), reads.current(), reads.elapsedMillis(), config,
                        new LinkedHashMap<>()));
            }
        }
        return Optional.of(new Finding(rule, text.toString(), values, severity.apply(worst), worst.describe()));
    }

    /**
     * {@code node/dev/port: symbol_error 0.0/s, tx_prio3_pause 1,200/s, out_of_sequence 3.0/s}, the counters the port
     * has; each rate also into {@code values} as {@code <name>PerSecond}.
     */
    private static String counters(PortKey key, IbPort previous, IbPort current, long elapsedMillis,
                                   DiagnosisConfig config, Map<String, Double> values) {
        List<String> parts = new ArrayList<>();
        for (String name : LINK_COUNTERS) {
            if (current.counters().containsKey(name)) {
                parts.add(rate(previous, current, elapsedMillis, CounterGroup.PORT_COUNTERS, name, values));
            }
        }
        if (current.ethtool() != null) {
            for (int priority : PortDeltas.losslessPriorities(current, config)) {
                for (String direction : List.of("rx", "tx")) {
                    String name = direction + "_prio" + priority + "_pause";
                    if (current.ethtool().raw().containsKey(name)) {
                        parts.add(rate(previous, current, elapsedMillis, CounterGroup.ETHTOOL, name, values));
                    }
                }
            }
        }
        for (String name : TransportLoss.TRANSPORT_ERRORS) {
            if (current.hwCounters().containsKey(name)) {
                parts.add(rate(previous, current, elapsedMillis, CounterGroup.HW_COUNTERS, name, values));
            }
        }
        return key + ": " + (parts.isEmpty() ? "no link, PFC or transport error counters read" : String.join(", ", parts));
    }

    private static String rate(IbPort previous, IbPort current, long elapsedMillis, CounterGroup group, String name,
                               Map<String, Double> values) {
        double perSecond = PortDeltas.rate(previous, current, elapsedMillis, group, name);
        if (Double.isNaN(perSecond)) {
            return name + " (no rate yet)";
        }
        values.put(name + "PerSecond", perSecond);
        return name + " " + Evidence.perSecond(perSecond);
    }

    private static void putFinite(Map<String, Double> values, String key, double value) {
        if (Double.isFinite(value)) {
            values.put(key, value);
        }
    }
}
