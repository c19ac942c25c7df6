package io.rdmamon.agent.probe;

import io.rdmamon.protocol.probe.PerftestTest;
import io.rdmamon.protocol.wire.Frame;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What an agent allows of active probes. Two consents, because they are two different things to allow: an
 * operator's bandwidth test, started on demand and saturating the link for its duration ({@code --allow-probes}),
 * and the pingmesh's latency probes, low-rate traffic the collector plans and runs continuously
 * ({@code --allow-pingmesh}).
 *
 * @param allowed     the tests this agent runs: {@link PerftestTest#WRITE_BW} with {@code --allow-probes},
 *                    {@link PerftestTest#SEND_LAT} with {@code --allow-pingmesh}; every other start is answered with
 *                    a failure naming the flag
 * @param launcher    how perftest is started (the real binaries, or the demo's simulated one)
 * @param hostRoot    where devices, ports and GIDs are checked (the agent's host root)
 * @param maxDuration longest {@code -D} accepted, and longest a latency probe may take ({@code --probe-max-duration})
 */
public record ProbeSettings(Set<PerftestTest> allowed, PerftestLauncher launcher, Path hostRoot, Duration maxDuration) {
    public static final Duration DEFAULT_MAX_DURATION = Duration.ofSeconds(120);

    public ProbeSettings {
        allowed = Set.copyOf(allowed);
        if (!allowed.isEmpty()) {
            Objects.requireNonNull(launcher, "launcher");
            Objects.requireNonNull(hostRoot, "hostRoot");
        }
        Objects.requireNonNull(maxDuration, "maxDuration");
        if (maxDuration.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("probe max duration " + maxDuration + " must be at least 1s");
        }
    }

    /** Probes refused (the default). */
    public static ProbeSettings disabled() {
        return new ProbeSettings(Set.of(), null, null, DEFAULT_MAX_DURATION);
    }

    /** Bandwidth probes allowed ({@code --allow-probes}), run by {@code launcher}, checked against {@code hostRoot}. */
    public static ProbeSettings enabled(PerftestLauncher launcher, Path hostRoot, Duration maxDuration) {
        return new ProbeSettings(Set.of(PerftestTest.WRITE_BW), launcher, hostRoot, maxDuration);
    }

    /** Whether any probe is allowed. */
    public boolean enabled() {
        return !allowed.isEmpty();
    }

    public boolean allows(PerftestTest test) {
        return allowed.contains(test);
    }

    /** The flag that allows {@code test}, for refusals and help. */
    public static String flagFor(PerftestTest test) {
        return test.latency() ? "--allow-pingmesh" : "--allow-probes";
    }

    /** What the hello advertises, so that the collector sends only the probes this agent runs. */
    public List<String> capabilities() {
        return EnumSet.allOf(PerftestTest.class).stream().filter(this::allows)
                .map(test -> test.latency() ? Frame.Hello.CAPABILITY_PINGMESH : Frame.Hello.CAPABILITY_PROBES)
                .toList();
    }
}
