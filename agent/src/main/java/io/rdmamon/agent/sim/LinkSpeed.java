package io.rdmamon.agent.sim;

/**
 * Port speeds as the {@code rate} file spells them (docs/reference/sysfs-and-counters.md §1.2: per-lane deci-Gb/s ×
 * width,
 * printed {@code "%d%s Gb/sec (%dX %s)"}). Ethernet ports report the IB speed/width the mlx5 driver
 * maps the Ethernet mode to (200GbE-R4 → 4X HDR, 100GbE-R4 → 4X EDR, 25GbE → 1X EDR).
 */
enum LinkSpeed {
    /** ib_get_eth_speed's default when the netdev speed is unknown, e.g. virtio-net under erdma. */
    SDR_1X(1, "SDR", 25),
    EDR_1X(1, "EDR", 250),
    EDR_2X(2, "EDR", 250),
    EDR_4X(4, "EDR", 250),
    HDR_4X(4, "HDR", 500),
    NDR_4X(4, "NDR", 1000);

    private final int width;
    private final String speedName;
    private final int laneDeciGbps;

    LinkSpeed(int width, String speedName, int laneDeciGbps) {
        this.width = width;
        this.speedName = speedName;
        this.laneDeciGbps = laneDeciGbps;
    }

    private int deciGbps() {
        return width * laneDeciGbps;
    }

    /** The {@code rate} file's text, e.g. {@code 200 Gb/sec (4X HDR)} or {@code 2.5 Gb/sec (1X SDR)}. */
    String rateText() {
        int rate = deciGbps();
        return (rate / 10) + (rate % 10 != 0 ? ".5" : "") + " Gb/sec (" + width + "X " + speedName + ")";
    }

    /** Line rate in bytes per second (Gb/s × 125,000,000). */
    double bytesPerSecond() {
        return deciGbps() * 12_500_000.0;
    }

    /** {@code /sys/class/net/<if>/speed}: Mb/s. */
    long megabitsPerSecond() {
        return deciGbps() * 100L;
    }

    /** 50 Gb/s lanes and faster signal PAM4 (HDR, NDR); slower ones NRZ. */
    boolean isPam4() {
        return laneDeciGbps >= 500;
    }

    /** The speed a port of this speed trains at when a lane pair or the cable is bad: about half. */
    LinkSpeed degraded() {
        return switch (this) {
            case NDR_4X -> HDR_4X;
            case HDR_4X -> EDR_4X;
            case EDR_4X -> EDR_2X;
            case EDR_2X -> EDR_1X;
            case EDR_1X, SDR_1X -> SDR_1X;
        };
    }
}
