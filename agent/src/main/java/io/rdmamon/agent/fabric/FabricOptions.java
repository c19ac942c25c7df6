package io.rdmamon.agent.fabric;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the fabric is swept.
 *
 * @param ca                 the local HCA to sweep from ({@code -C}); null for the tools' default (the first
 *                           active one)
 * @param port               its port ({@code -P}); null for the default
 * @param toolTimeout        the deadline of each diags tool; one still running is killed
 * @param counterInterval    how often the counters are read (15 s)
 * @param topologyInterval   how often the topology is rediscovered (5 min), and at once when a port's state changed
 * @param environment        added to the tools' environment (ibsim's preload in tests)
 */
public record FabricOptions(String ca, Integer port, Duration toolTimeout, Duration counterInterval,
                            Duration topologyInterval, Map<String, String> environment) {
    public static final Duration DEFAULT_TOOL_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_COUNTER_INTERVAL = Duration.ofSeconds(15);
    public static final Duration DEFAULT_TOPOLOGY_INTERVAL = Duration.ofMinutes(5);

    public FabricOptions {
        requirePositive(toolTimeout, "tool timeout");
        requirePositive(counterInterval, "counter interval");
        requirePositive(topologyInterval, "topology interval");
        environment = Map.copyOf(environment);
    }

    /** The defaults, from the tools' default HCA. */
    public static FabricOptions defaults() {
        return new FabricOptions(null, null, DEFAULT_TOOL_TIMEOUT, DEFAULT_COUNTER_INTERVAL, DEFAULT_TOPOLOGY_INTERVAL,
                Map.of());
    }

    /** The {@code -C CA -P PORT} arguments every tool takes. */
    List<String> caArguments() {
        List<String> args = new ArrayList<>();
        if (ca != null) {
            args.addAll(List.of("-C", ca));
        }
        if (port != null) {
            args.addAll(List.of("-P", port.toString()));
        }
        return args;
    }

    private static void requirePositive(Duration d, String what) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("the fabric " + what + " must be positive: " + d);
        }
    }
}
