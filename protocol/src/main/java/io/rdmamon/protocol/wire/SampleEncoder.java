package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.HostSample;

import java.util.ArrayList;
import java.util.List;

/**
 * The agent side of one connection: turns samples into frames. The first sample yields a
 * {@link Frame.Hello} carrying its layout; a sample whose structure differs from the previous one
 * yields a {@link Frame.LayoutChange}; every sample yields a {@link Frame.Values}.
 * Use a new encoder for every connection.
 */
public final class SampleEncoder {
    private final String node;
    private final String agentVersion;
    private final long intervalMillis;
    private final List<String> capabilities;
    private final String instance;
    private HostLayout layout;
    private int layoutId;

    public SampleEncoder(String node, String agentVersion, long intervalMillis) {
        this(node, agentVersion, intervalMillis, List.of());
    }

    /** An encoder whose hello announces {@code capabilities} ({@link Frame.Hello#capabilities()}). */
    public SampleEncoder(String node, String agentVersion, long intervalMillis, List<String> capabilities) {
        this(node, agentVersion, intervalMillis, capabilities, null);
    }

    /** An encoder whose hello also names the agent's {@code instance} ({@link Frame.Hello#instance()}). */
    public SampleEncoder(String node, String agentVersion, long intervalMillis, List<String> capabilities,
                         String instance) {
        this.instance = instance;
        this.node = node;
        this.agentVersion = agentVersion;
        this.intervalMillis = intervalMillis;
        this.capabilities = List.copyOf(capabilities);
    }

    /** Frames that carry {@code sample} (whose {@code node} is ignored: the hello names the node). */
    public List<Frame> encode(HostSample sample, long seq) {
        List<Frame> frames = new ArrayList<>(2);
        HostLayout current = HostLayout.of(sample);
        if (layout == null) {
            layoutId = 1;
            frames.add(new Frame.Hello(node, agentVersion, intervalMillis, layoutId, current, capabilities, instance));
        } else if (!layout.equals(current)) {
            layoutId++;
            frames.add(new Frame.LayoutChange(layoutId, current));
        }
        layout = current;
        frames.add(ValueSlots.flatten(current, layoutId, seq, sample));
        return frames;
    }

    /** Whether the hello has been produced (i.e. at least one sample was encoded). */
    public boolean helloSent() {
        return layout != null;
    }
}
