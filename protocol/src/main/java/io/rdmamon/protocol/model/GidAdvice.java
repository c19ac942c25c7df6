package io.rdmamon.protocol.model;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Which GID index of a port to give NCCL ({@code NCCL_IB_GID_INDEX}) and perftest ({@code -x}), in plain
 * words. The pick is the lowest-indexed RoCE v2 GID with an IPv4 address ({@link #ncclGid}): NCCL's own
 * default looks for RoCE v2 over IPv4, and a probe's server address is that GID's IPv4.
 *
 * @param index the recommended GID index; null when there is none to recommend (or none is needed, on IB)
 * @param gid   the recommended GID; null with {@code index}
 * @param ipv4  its IPv4 address; null with {@code index}
 * @param ok    true when the port needs nothing (IB) or has a recommended index; false when NCCL will not find one
 * @param text  the advice, one or two sentences
 */
public record GidAdvice(Integer index, String gid, String ipv4, boolean ok, String text) {

    /** The lowest-indexed RoCE v2 GID with an IPv4 address (the GID table is sorted by index). */
    public static Optional<GidEntry> ncclGid(IbPort port) {
        return port.gids().stream().filter(GidEntry::isRoceV2Ipv4).findFirst();
    }

    /** A RoCE v2 GID with a routable address (IPv4, or IPv6 beyond link-local): what rule gid_no_rocev2 wants. */
    public static boolean hasRoutableRoceV2(IbPort port) {
        return port.gids().stream().anyMatch(g -> g.isRoceV2() && g.isRoutable());
    }

    public static GidAdvice of(IbDevice device, IbPort port) {
        return of(PortTransport.of(device, port), port);
    }

    public static GidAdvice of(PortTransport transport, IbPort port) {
        if (transport == PortTransport.INFINIBAND) {
            return none(true, "InfiniBand port: NCCL_IB_GID_INDEX does not apply (traffic is routed by LID); leave it unset.");
        }
        if (transport == PortTransport.IWARP) {
            return none(false, "iWARP port (no RoCE v2 GID): NCCL_IB_GID_INDEX has no RoCE v2 index to use.");
        }
        if (transport == PortTransport.OTHER) {
            return none(false, "Link layer " + (port.linkLayer() == null ? "unreadable" : port.linkLayer())
                    + ": neither InfiniBand nor RoCE, so no GID index to recommend.");
        }
        Optional<GidEntry> best = ncclGid(port);
        if (best.isPresent()) {
            GidEntry g = best.get();
            List<GidEntry> all = port.gids().stream().filter(GidEntry::isRoceV2Ipv4).toList();
            String others = all.stream().skip(1).map(o -> Integer.toString(o.index())).collect(Collectors.joining(", "));
            return new GidAdvice(g.index(), g.gid(), g.ipv4(), true, "Use NCCL_IB_GID_INDEX=" + g.index()
                    + ": RoCE v2 over IPv4 " + g.ipv4() + (g.netdev() == null ? "" : " on " + g.netdev()) + "."
                    + (others.isEmpty() ? "" : " Also RoCE v2 IPv4: " + others + "."));
        }
        if (port.gids().stream().anyMatch(GidEntry::isRoceV2)) {
            return none(false, "No RoCE v2 GID with an IPv4 address: only IPv6 RoCE v2 GIDs. Give "
                    + (port.netdev() == null ? "the netdev" : port.netdev())
                    + " an IPv4 address, or NCCL will not find a RoCE v2 IPv4 GID.");
        }
        return none(false, "No RoCE v2 GID on this port (RoCE v1 only): NCCL_IB_GID_INDEX has no RoCE v2 index to use.");
    }

    private static GidAdvice none(boolean ok, String text) {
        return new GidAdvice(null, null, null, ok, text);
    }
}
