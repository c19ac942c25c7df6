package io.rdmamon.agent.stream;

import io.rdmamon.protocol.model.KernelEvents;
import io.rdmamon.protocol.wire.Frame;

/**
 * Sends the kernel log's events to the collector as the optional {@code kernel-events} frame, only when they changed
 * or the connection is new (the frame is state: the latest replaces any lost). A collector that does not list the type
 * gets none ({@link AgentStreamer#sendOptional}). Any thread.
 */
public final class KernelEventsUpdates {
    private final AgentStreamer streamer;
    private KernelEvents lastSent;
    private long lastConnects = -1;

    public KernelEventsUpdates(AgentStreamer streamer) {
        this.streamer = streamer;
    }

    /** Sends {@code events} (null: the kernel log is not read) if the collector has not got them yet. */
    public synchronized void offer(KernelEvents events) {
        long connects = streamer.stats().connects();
        if (events == null || events.equals(lastSent) && connects == lastConnects) {
            return;
        }
        streamer.sendOptional(Frame.KernelEventsReport.TYPE, new Frame.KernelEventsReport(events))
                .onSuccess(sent -> sent(sent, events, connects));
    }

    private synchronized void sent(boolean sent, KernelEvents events, long connects) {
        if (sent) {
            lastSent = events;
            lastConnects = connects;
        }
    }
}
