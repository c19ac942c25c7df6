package io.rdmamon.protocol.model;

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
    public boolean isRoceV2() {
        return type != null && type.endsWith("v2");
    }
}
