package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.text.WireText;

import java.util.Optional;

/**
 * The collector side of one connection: checks the order of frames and turns values back into
 * samples. A connection must start with {@link Frame.Hello}; values must refer to the current layout.
 */
public final class SampleDecoder {
    private Frame.Hello hello;
    private ValueSlots.Plan layout;
    private int layoutId;

    /**
     * Applies {@code frame}; returns the sample a {@link Frame.Values} carries, empty for other frames.
     *
     * @throws FrameException when the frame is out of order or does not fit the layout
     */
    public Optional<HostSample> accept(Frame frame) throws FrameException {
        if (frame instanceof Frame.Hello h) {
            if (hello != null) {
                throw new FrameException("second hello on one connection (node " + WireText.quote(h.node()) + ")");
            }
            hello = h;
            layout = new ValueSlots.Plan(h.layout());
            layoutId = h.layoutId();
            return Optional.empty();
        }
        if (hello == null) {
            throw new FrameException("expected a hello frame first, got " + typeName(frame));
        }
        if (frame instanceof Frame.LayoutChange change) {
            layout = new ValueSlots.Plan(change.layout());
            layoutId = change.layoutId();
            return Optional.empty();
        }
        if (frame instanceof Frame.Values values) {
            if (values.layoutId() != layoutId) {
                throw new FrameException("values frame seq " + values.seq() + " refers to layout " + values.layoutId()
                        + " but the current layout is " + layoutId);
            }
            return Optional.of(layout.rebuild(hello.node(), values));
        }
        if (frame instanceof Frame.Ack) {
            throw new FrameException("ack frames flow from collector to agent only");
        }
        return Optional.empty();
    }

    /** The hello of this connection; empty before it arrived. */
    public Optional<Frame.Hello> hello() {
        return Optional.ofNullable(hello);
    }

    private static String typeName(Frame frame) {
        return frame.getClass().getSimpleName().toLowerCase();
    }
}
