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
    /**
     * The least {@code ingest.maxNameLength} a collector accepts: above the longest names real hosts use (node names
     * of 63, counter names of about 40 characters). A sender whose texts may reach any collector cuts them to this.
     */
    public static final int MIN_NAME_CHARS = 64;
    /** Characters of a free text (a failing source's error, an unsupported source's reason, a probe's error). */
    public static final int MAX_TEXT_CHARS = 4096;
    /** Output lines of one probe report (agents send at most 100). */
    public static final int MAX_PROBE_OUTPUT_LINES = 200;
    /** Characters of one probe output line. */
    public static final int MAX_PROBE_OUTPUT_LINE_CHARS = 1024;
    /** Source statuses of one sample (agents report one per device and netdev read). */
    public static final int MAX_SOURCES = 1024;
    /**
     * Lines of a list of notes a host's part carries (a PCI function's, a transceiver module's, a GPU topology's and
     * its pairs' reasons) and entries of a short list of modes (a port's configured FEC modes).
     */
    public static final int MAX_LINES = 64;
    /** Characters of one such line, and of a topology's texts (an endpoint's name, label, address and CPU list). */
    public static final int MAX_LINE_CHARS = 1023;
    /** Capabilities a hello may announce. */
    public static final int MAX_CAPABILITIES = 16;

    /*
     * What one layout may announce: the collector's defaults for its ingest limits (an operator may change them),
     * with ample room for real hosts (docs/collector.md, Limits).
     */

    /** RDMA devices of one node: {@code ingest.maxDevices}; a DGX has 8 to 18. */
    public static final int MAX_DEVICES = 64;
    /** Ports of one device: {@code ingest.maxPortsPerDevice}; real devices have 1 or 2. */
    public static final int MAX_PORTS_PER_DEVICE = 32;
    /**
     * Names of one counter group of a port (counters, hw_counters, ethtool statistics): {@code
     * ingest.maxCountersPerGroup}, about three times the most a real mlx5 netdev lists (1,000 to 3,000).
     */
    public static final int MAX_COUNTERS_PER_GROUP = 8192;
    /** GID entries of one port: {@code ingest.maxGidsPerPort}, four times the largest real table (255 or 256). */
    public static final int MAX_GIDS_PER_PORT = 1024;
    /** UTF-8 bytes of all the names of one layout together ({@link WireText#utf8Length}): {@code ingest.maxLabelBytes}. */
    public static final int MAX_LABEL_BYTES = 2 * 1024 * 1024;

    private WireLimits() {
    }
}
