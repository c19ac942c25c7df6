package io.rdmamon.collector.changes;

import io.rdmamon.protocol.text.HostText;

import java.util.Objects;

/**
 * One entry of the fleet's change log. Names and text may come from a host: they are made printable and cut
 * ({@link HostText}) here, so that whatever enters the log is one bounded line.
 *
 * @param timeMillis when it happened: the sample's time (agent clock) for what a sample shows, the collector's for a
 *                   diagnosis
 * @param device     RDMA device; null for a node-level change
 * @param port       port number; 0 for a device- or node-level change
 * @param text       one line saying what changed, from what to what
 */
public record Change(long timeMillis, String node, String device, int port, ChangeKind kind, ChangeSeverity severity,
                     String text) {
    /** Characters of {@link #text} at most. */
    public static final int MAX_TEXT_CHARS = 400;
    static final int MAX_NAME_CHARS = 256;

    public Change {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(severity, "severity");
        node = HostText.name(Objects.requireNonNull(node, "node"), MAX_NAME_CHARS);
        device = HostText.name(device, MAX_NAME_CHARS);
        text = HostText.name(Objects.requireNonNull(text, "text"), MAX_TEXT_CHARS);
    }
}
