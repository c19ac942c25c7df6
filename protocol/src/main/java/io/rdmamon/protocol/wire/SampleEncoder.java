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
        List<Frame> frames = frames(sample, seq);
        sent(frames);
        return frames;
    }

    /**
     * The frames {@link #encode} would give for {@code sample}, without remembering its layout: a sender that finds
     * them unfit for the wire ({@link SampleFrames}) tries a smaller sample, then passes the frames it sends to
     * {@link #sent}.
     */
    public List<Frame> frames(HostSample sample, long seq) {
        List<Frame> frames = new ArrayList<>(2);
        HostLayout current = HostLayout.of(sample);
        int id = layoutId;
        if (layout == null) {
            id = 1;
            frames.add(new Frame.Hello(node, agentVersion, intervalMillis, id, current, capabilities, instance));
        } else if (!layout.equals(current)) {
            id++;
            frames.add(new Frame.LayoutChange(id, current));
        }
        frames.add(ValueSlots.flatten(current, id, seq, sample));
        return frames;
    }

    /** Remembers the layout of {@code frames}, which {@link #frames} gave and which were sent. */
    public void sent(List<Frame> frames) {
        for (Frame frame : frames) {
            if (frame instanceof Frame.Hello h) {
                layout = h.layout();
                layoutId = h.layoutId();
            } else if (frame instanceof Frame.LayoutChange l) {
                layout = l.layout();
                layoutId = l.layoutId();
            }
        }
    }

    /** Whether the hello has been produced (i.e. at least one sample was encoded). */
    public boolean helloSent() {
        return layout != null;
    }
}
