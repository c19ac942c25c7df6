package io.rdmamon.protocol.text;

/**
 * The text limits of the wire, one definition for both ends: the collector refuses a frame beyond them
 * (docs/collector.md, Limits) and the agent sanitises what it read from its host to them ({@link HostText}), so
 * that an odd process name or a long exception message never closes the agent's stream. What is printable is
 * {@link WireText#firstInvalid}.
 */
public final class WireLimits {
    /**
     * Characters of a name (device, counter, source, subject, workload label...): the collector's default
     * {@code ingest.maxNameLength}, which an operator may raise but not lower below 64.
     */
    public static final int MAX_NAME_CHARS = 256;
    /** Characters of a free text (a failing source's error, an unsupported source's reason, a probe's error). */
    public static final int MAX_TEXT_CHARS = 4096;
    /** Output lines of one probe report (agents send at most 100). */
    public static final int MAX_PROBE_OUTPUT_LINES = 200;
    /** Characters of one probe output line. */
    public static final int MAX_PROBE_OUTPUT_LINE_CHARS = 1024;

    private WireLimits() {
    }
}
