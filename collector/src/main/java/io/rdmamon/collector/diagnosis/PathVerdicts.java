package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.model.PathVerdict;
import io.rdmamon.collector.model.PortKey;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pingmesh's current verdicts, as the diagnosis engine reads them: the rules {@code path_loss},
 * {@code path_latency_high} and {@code port_unreachable} hold on a port while a verdict of theirs is raised on it
 * ({@link PathVerdict#ports()}), with the engine's usual hysteresis. The engine asks once per port of every sample,
 * on its own thread: an implementation answers from an index it swaps whole when a new window is localized.
 */
@FunctionalInterface
public interface PathVerdicts {
    /** No pingmesh: no verdicts anywhere. */
    PathVerdicts NONE = port -> List.of();

    /** The verdicts raised on {@code port}; empty when none (the common case: answer without allocating). */
    List<PathVerdict> forPort(PortKey port);

    /** An immutable index of {@code verdicts} by the ports each is raised on. */
    static PathVerdicts of(List<PathVerdict> verdicts) {
        Map<PortKey, List<PathVerdict>> byPort = new HashMap<>();
        for (PathVerdict verdict : verdicts) {
            for (PortKey port : verdict.ports()) {
                byPort.computeIfAbsent(port, k -> new ArrayList<>()).add(verdict);
            }
        }
        Map<PortKey, List<PathVerdict>> index = new HashMap<>();
        byPort.forEach((port, list) -> index.put(port, List.copyOf(list)));
        return port -> index.getOrDefault(port, List.of());
    }
}
