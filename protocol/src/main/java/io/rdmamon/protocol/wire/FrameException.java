package io.rdmamon.protocol.wire;

/** A frame that cannot be accepted; {@link #getMessage()} is a one-line reason fit for a close frame or a log. */
public final class FrameException extends Exception {
    public FrameException(String reason) {
        super(reason);
    }
}
