package io.rdmamon.agent.probe;

import io.rdmamon.protocol.probe.ProbePhase;
import io.rdmamon.protocol.probe.ProbeRole;
import io.rdmamon.protocol.wire.Frame;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

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
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            for (Frame.ProbeReport report : received) {
                if (report.probeId().equals(probeId) && report.role() == role && report.phase() == phase) {
                    return report;
                }
            }
            Thread.sleep(20);
        }
        return fail("no " + phase + " report for " + probeId + "/" + role + " within " + limit + "; got " + received);
    }

    /** The terminal report of one side. */
    Frame.ProbeReport awaitTerminal(String probeId, ProbeRole role, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            for (Frame.ProbeReport report : received) {
                if (report.probeId().equals(probeId) && report.role() == role && report.phase().terminal()) {
                    return report;
                }
            }
            Thread.sleep(20);
        }
        return fail("no terminal report for " + probeId + "/" + role + " within " + limit + "; got " + received);
    }
}
