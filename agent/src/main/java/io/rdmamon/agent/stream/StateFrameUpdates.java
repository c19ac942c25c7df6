package io.rdmamon.agent.stream;

import io.rdmamon.protocol.wire.Frame;

import java.util.function.Function;

/**
 * Sends one kind of host state to the collector as an optional frame ({@code kernel-events}, {@code devlink-health}),
 * only when it changed or the connection is new (the frame is state: the latest replaces any lost). A collector that
 * does not list the type gets none ({@link AgentStreamer#sendOptional}). Any thread.
 *
 * @param <T> the state the frame carries
 */
public final class StateFrameUpdates<T> {
    private final AgentStreamer streamer;
    private final String type;
    private final Function<T, Frame> frame;
    private T lastSent;
    private long lastConnects = -1;

    /**
     * @param type  the optional frame's type, as the collector lists it
     * @param frame the frame carrying one state
     */
    public StateFrameUpdates(AgentStreamer streamer, String type, Function<T, Frame> frame) {
        this.streamer = streamer;
        this.type = type;
        this.frame = frame;
    }

    /** Sends {@code state} (null: not read) if the collector has not got it yet. */
    public synchronized void offer(T state) {
        long connects = streamer.stats().connects();
        if (state == null || state.equals(lastSent) && connects == lastConnects) {
            return;
        }
        streamer.sendOptional(type, frame.apply(state)).onSuccess(sent -> sent(sent, state, connects));
    }

    private synchronized void sent(boolean sent, T state, long connects) {
        if (sent) {
            lastSent = state;
            lastConnects = connects;
        }
    }
}
