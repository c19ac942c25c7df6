package io.rdmamon.agent.probe;

import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.testing.Waits;
import io.rdmamon.protocol.wire.Frame;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.fail;

/** The reports a {@link ProbeRunner} sent, and waiting for one. */
final class ProbeReports implements Consumer<Frame.ProbeReport> {
    private final List<Frame.ProbeReport> received = new CopyOnWriteArrayList<>();

    @Override
    public void accept(Frame.ProbeReport report) {
        received.add(report);
    }

    List<Frame.ProbeReport> all() {
        return List.copyOf(received);
    }

    Frame.ProbeReport await(String probeId, ProbeRole role, ProbePhase phase, Duration limit) throws InterruptedException {
        return awaitFirst(report -> report.probeId().equals(probeId) && report.role() == role && report.phase() == phase,
                "a " + phase + " report for " + probeId + "/" + role, limit);
    }

    /** The terminal report of one side. */
    Frame.ProbeReport awaitTerminal(String probeId, ProbeRole role, Duration limit) throws InterruptedException {
        return awaitFirst(report -> report.probeId().equals(probeId) && report.role() == role && report.phase().terminal(),
                "a terminal report for " + probeId + "/" + role, limit);
    }

    private Frame.ProbeReport awaitFirst(Predicate<Frame.ProbeReport> wanted, String what, Duration limit)
            throws InterruptedException {
        try {
            Waits.waitFor(() -> received.stream().anyMatch(wanted), what, limit);
        } catch (AssertionError timedOut) {
            return fail(timedOut.getMessage() + " within " + limit + "; got " + received);
        }
        return received.stream().filter(wanted).findFirst().orElseThrow();
    }
}
