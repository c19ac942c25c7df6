package io.rdmamon.protocol.wire;

/** Constants both ends of the agent stream agree on. */
public final class WireFormat {
    /**
     * Version carried in every frame as {@code "v"}, and the one this build writes. 2: each ethtool statistic
     * has one slot (raw); the typed per-priority view is derived from it on decoding. 3: the layout may carry
     * optional fields (absent = not read): a port's {@code qos} and {@code netdevCounters} (whose slots follow its
     * ethtool ones), its transceiver {@code module}, a device's {@code pci}, the host's {@code ncclConf}, a device's
     * RDMA netlink {@code resources}, a port's {@code hwCountersSource} and its LLDP {@code neighbor}; a version 1 or 2
     * frame has none of them and decodes unchanged. The last three take no value slot and a layout is read without a key check, so a
     * collector that predates them skips them: they needed no new version. Likewise a values frame's source status
     * may carry {@code unsupported} (the reason the subject lacks the capability; {@code success} is then true): a
     * collector that predates it reads the status without a key check and counts it as read, not failed.
     */
    public static final int PROTOCOL_VERSION = 3;
    /**
     * Oldest version this build still reads, so that collectors can be upgraded before their agents. 1: the
     * typed ethtool view follows the raw statistics in every values frame as copies, which are skipped. A frame
     * of a version outside {@code OLDEST_READ_VERSION..PROTOCOL_VERSION} is refused.
     */
    public static final int OLDEST_READ_VERSION = 1;
    /** Largest frame accepted: a layout of a host with many ethtool statistics stays far below. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 4 * 1024 * 1024;
    /** The collector's ingest path below its base URL. */
    public static final String STREAM_PATH = "/api/agent/stream";
    /**
     * Header of the collector's WebSocket upgrade answer listing the optional frame types it accepts
     * ({@code Rdmamon-Accepts: fabric, kernel-events}; {@link OptionalFrames}). A collector that predates a frame
     * type refuses it as unknown, so an agent sends an optional frame only to a collector that listed its type;
     * one that sends no header accepts none.
     */
    public static final String ACCEPTS_HEADER = "Rdmamon-Accepts";
    /**
     * Header of the collector's WebSocket upgrade answer giving the largest frame it accepts, in bytes
     * ({@code Rdmamon-Max-Frame-Bytes: 4194304}, its {@code maxFrameBytes}): the agent sends no frame beyond it
     * ({@link SampleFrames}). A collector that predates it accepts {@link #DEFAULT_MAX_FRAME_BYTES}.
     */
    public static final String MAX_FRAME_HEADER = "Rdmamon-Max-Frame-Bytes";

    private WireFormat() {
    }

    /**
     * The frame size a collector announced in {@link #MAX_FRAME_HEADER}: {@link #DEFAULT_MAX_FRAME_BYTES} when it sent
     * none or one that is not a positive number of bytes.
     */
    public static int maxFrameBytes(String header) {
        if (header != null) {
            try {
                int announced = Integer.parseInt(header.strip());
                if (announced > 0) {
                    return announced;
                }
            } catch (NumberFormatException unreadable) {
                // the default, as from a collector that predates the header
            }
        }
        return DEFAULT_MAX_FRAME_BYTES;
    }

    /** The versions read, for messages: {@code "1 to 3"}. */
    public static String readVersions() {
        return OLDEST_READ_VERSION == PROTOCOL_VERSION ? Integer.toString(PROTOCOL_VERSION)
                : OLDEST_READ_VERSION + (PROTOCOL_VERSION - OLDEST_READ_VERSION == 1 ? " and " : " to ") + PROTOCOL_VERSION;
    }

    /** Whether frames of protocol {@code version} are read. */
    public static boolean reads(int version) {
        return version >= OLDEST_READ_VERSION && version <= PROTOCOL_VERSION;
    }
}
