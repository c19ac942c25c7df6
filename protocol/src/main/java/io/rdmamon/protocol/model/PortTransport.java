package io.rdmamon.protocol.model;

import java.util.List;
import java.util.Locale;

/**
 * Which RDMA transport a port runs, decided once for probes, diagnosis rules, the API and the dashboard.
 *
 * <p>The rule (docs/diagnosis.md "RoCE port"): {@code link_layer} InfiniBand is {@link #INFINIBAND}. On an
 * Ethernet link layer a port is {@link #ROCE} unless it is iWARP, and a port is iWARP when its device is an
 * RNIC ({@code node_type} 4) whose GID table has no {@code RoCE v2} typed entry. Why not just the node type:
 * eRDMA is an RNIC in both of its modes, iWARP (the older driver: one GID holding the MAC, no GID types) and
 * RoCE v2 (later kernels, docs/reference/sysfs-and-counters.md §3: "check link_layer/gid_attrs rather than assuming
 * iWARP"), so only
 * the GID types tell the modes apart. Only {@code RoCE v2} counts: {@code IB/RoCE v1} is also the type the
 * kernel prints for plain IB-type GIDs, which an iWARP port's GID cache may hold (docs/reference/sysfs-and-counters.md
 * §1.5, §5).
 * A CA, and a device whose node type could not be read, on Ethernet is RoCE (mlx5 is a CA for IB and RoCE
 * alike). Anything else (link layer {@code Unknown} or unreadable) is {@link #OTHER}.
 */
public enum PortTransport {
    INFINIBAND,
    ROCE,
    IWARP,
    OTHER;

    public static PortTransport of(IbDevice device, IbPort port) {
        return of(device.nodeTypeId(), port.linkLayer(), port.gids());
    }

    /**
     * @param nodeTypeId {@code node_type} id, 0 when unreadable
     * @param linkLayer  {@code link_layer}, null when unreadable
     * @param gids       the port's GID table (types may be null when {@code gid_attrs} is unreadable)
     */
    public static PortTransport of(int nodeTypeId, String linkLayer, List<GidEntry> gids) {
        return of(nodeTypeId, linkLayer, gids.stream().anyMatch(GidEntry::isRoceV2));
    }

    /** The same rule for a reader that only looked at the GID types ({@link GidEntry#isRoceV2Type}). */
    public static PortTransport of(int nodeTypeId, String linkLayer, boolean hasRoceV2Gid) {
        if ("InfiniBand".equals(linkLayer)) {
            return INFINIBAND;
        }
        if (!"Ethernet".equals(linkLayer)) {
            return OTHER;
        }
        if (nodeTypeId == IbDevice.NODE_TYPE_RNIC && !hasRoceV2Gid) {
            return IWARP;
        }
        return ROCE;
    }

    /** The API's name: {@code infiniband}, {@code roce}, {@code iwarp}, {@code other}. */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** perftest needs rdma_cm ({@code -R}) to connect at all on iWARP; IB and RoCE use its default exchange. */
    public boolean needsRdmaCm() {
        return this == IWARP;
    }
}
