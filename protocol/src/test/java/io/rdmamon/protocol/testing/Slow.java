package io.rdmamon.protocol.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class of the slow tier: run by {@code bash scripts/test.sh --all} (Maven {@code -Dall}) and CI, left out of
 * the ten-minute loop of {@code bash scripts/test.sh}. For what costs minutes because of what it runs (VMs, real
 * clusters, Prometheus rule windows, soaks), never for a test that is slow because it sleeps or waits badly: that
 * one is fixed instead. The tiers are listed in docs/testing.md.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(Slow.TAG)
public @interface Slow {
    /** The JUnit tag the parent pom's {@code rdmamon.excludedGroups} leaves out of the default run. */
    String TAG = "slow";
    /**
     * The {@code @ResourceLock} of a slow class that keeps most of the machine's cores busy by itself (a lab VM of two
     * vCPUs, a soak of 500 nodes, three replica JVMs with 50 agents): the ITs run two at a time, and two such classes
     * never side by side (docs/testing.md, "Two ITs at a time").
     */
    String CORES = "cores";
}
