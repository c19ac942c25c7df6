package io.rdmamon.protocol.model;

import io.rdmamon.protocol.text.WireLimits;

/**
 * One non-empty entry of {@code ports/<n>/gids/<index>} with its {@code gid_attrs}.
 *
 * @param index  GID index (what NCCL_IB_GID_INDEX and perftest {@code -x} take)
 * @param gid    the GID as the kernel prints it: 8 groups of 4 hex digits
 * @param type   {@code gid_attrs/types/<index>}: {@code IB/RoCE v1}, {@code RoCE v2}; null when unreadable
 * @param netdev {@code gid_attrs/ndevs/<index>}; null when unreadable (IB, or no netdev)
 * @param ipv4   dotted IPv4 address for IPv4-mapped GIDs ({@code ::ffff:a.b.c.d}); null otherwise
 */
public record GidEntry(int index, String gid, String type, String netdev, String ipv4) {
    /**
     * Most GID entries one port sends: four times the largest real table (mlx5 ports list 255 or 256 in sysfs), and
     * the collector's default {@code ingest.maxGidsPerPort}. A port with more (a broken driver, a forged host root)
     * sends the first ones by index and counts the rest ({@link IbPort#gidsDropped()}): 100,000 entries made a hello
     * larger than the 4 MiB a frame may be, and the node was refused on every retry.
     */
    public static final int MAX_PER_PORT = WireLimits.MAX_GIDS_PER_PORT;

    public boolean isRoceV2() {
        return isRoceV2Type(type);
    }

    /** {@code gid_attrs/types/<index>} says RoCE v2 ({@code RoCE v2}; the other types are {@code IB/RoCE v1}). */
    public static boolean isRoceV2Type(String type) {
        return type != null && type.strip().endsWith("v2");
    }

    /** A RoCE v2 GID of an IPv4 address: what NCCL (NCCL_IB_GID_INDEX) and the probes' server address want. */
    public boolean isRoceV2Ipv4() {
        return isRoceV2() && ipv4 != null;
    }

    /**
     * An IPv4-mapped GID, or an IPv6 one that is neither link-local ({@code fe80:}) nor all zeros: an
     * address a routed RoCE v2 packet can carry.
     */
    public boolean isRoutable() {
        return ipv4 != null || !(gid.startsWith("fe80:") || gid.replace(":", "").matches("0+"));
    }
}
