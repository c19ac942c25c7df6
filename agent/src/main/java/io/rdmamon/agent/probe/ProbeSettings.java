package io.rdmamon.agent.probe;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * What an agent allows of active probes.
 *
 * @param enabled     {@code --allow-probes}; when false every probe start is answered with a failure
 * @param launcher    how perftest is started (the real binary, or the demo's simulated one)
 * @param hostRoot    where devices, ports and GIDs are checked (the agent's host root)
 * @param maxDuration longest {@code -D} accepted ({@code --probe-max-duration})
 */
public record ProbeSettings(boolean enabled, PerftestLauncher launcher, Path hostRoot, Duration maxDuration) {
    public static final Duration DEFAULT_MAX_DURATION = Duration.ofSeconds(120);

    public ProbeSettings {
        if (enabled) {
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
        return new ProbeSettings(false, null, null, DEFAULT_MAX_DURATION);
    }

    /** Probes allowed, run by {@code launcher}, checked against {@code hostRoot}. */
    public static ProbeSettings enabled(PerftestLauncher launcher, Path hostRoot, Duration maxDuration) {
        return new ProbeSettings(true, launcher, hostRoot, maxDuration);
    }
}
