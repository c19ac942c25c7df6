package io.rdmamon.collector.diagnosis.engine;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;

/**
 * The raise/clear state of one rule at one place. A condition must hold on {@code raiseAfter} consecutive
 * samples to raise, and be absent on {@code clearAfter} consecutive samples to clear: one odd sample neither
 * raises nor clears. Not thread-safe (owned by the engine).
 */
final class Hysteresis {
    private int run;
    private long runStartMillis;
    private boolean active;
    private long activeSinceMillis;
    /** What the active state's finding blames ({@code Finding#subject}); null when inactive or not told. */
    String subject;

    /**
     * Feeds one sample's verdict taken at {@code nowMillis}; true when the state flipped. A raised state is
     * active since the first sample of the run that raised it.
     */
    boolean update(boolean condition, long nowMillis, DiagnosisConfig.Window window) {
        if (condition == active) {
            run = 0;
            return false;
        }
        if (run == 0) {
            runStartMillis = nowMillis;
        }
        run++;
        if (run < (active ? window.clearAfterSamples() : window.raiseAfterSamples())) {
            return false;
        }
        active = !active;
        activeSinceMillis = runStartMillis;
        run = 0;
        return true;
    }

    boolean active() {
        return active;
    }

    long activeSinceMillis() {
        return activeSinceMillis;
    }

    /** Nothing pending and nothing active: the tracker can be dropped. */
    boolean idle() {
        return !active && run == 0;
    }
}
