package io.rdmamon.protocol.wire;

/** Constants both ends of the agent stream agree on. */
public final class WireFormat {
    /** Version carried in every frame as {@code "v"}; a peer with another version is refused. */
    public static final int PROTOCOL_VERSION = 1;
    /** Largest frame accepted: a layout of a host with many ethtool statistics stays far below. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 4 * 1024 * 1024;
    /** The collector's ingest path below its base URL. */
    public static final String STREAM_PATH = "/api/agent/stream";

    private WireFormat() {
    }
}
