package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.text.WireText;

/**
 * A frame that cannot be accepted; {@link #getMessage()} is a one-line reason fit for a close frame or a log.
 * Reasons quote wire input ({@link WireText#quote}), which a hostile peer makes as long and as strange as it likes:
 * the reason is bounded and made printable here, at construction, so that no caller can log or send an unbounded one.
 */
public final class FrameException extends Exception {
    /** Longest reason kept: a log line, never a copy of the frame. */
    public static final int MAX_REASON_CHARS = 512;

    public FrameException(String reason) {
        super(WireText.printable(reason, MAX_REASON_CHARS));
    }
}
