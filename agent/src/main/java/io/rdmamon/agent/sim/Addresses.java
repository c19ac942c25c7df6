package io.rdmamon.agent.sim;

/**
 * MAC, GUID and GID arithmetic and their sysfs text forms. A MAC is held in the low 48 bits of a
 * long, a GUID in all 64, a GID as two longs (bytes 0..7 and 8..15, big-endian).
 */
final class Addresses {
    private static final long LINK_LOCAL_PREFIX = 0xfe80_0000_0000_0000L;
    private static final long IPV4_MAPPED_PREFIX = 0x0000_ffff_0000_0000L;

    private Addresses() {
    }

    /** {@code 0c:42:a1:00:01:00}, as {@code /sys/class/net/<if>/address} prints it. */
    static String macText(long mac) {
        StringBuilder text = new StringBuilder(17);
        for (int shift = 40; shift >= 0; shift -= 8) {
            if (text.length() > 0) {
                text.append(':');
            }
            text.append(String.format("%02x", (mac >>> shift) & 0xff));
        }
        return text.toString();
    }

    /**
     * The modified EUI-64 of a MAC (RFC 4291 appendix A): flip the universal/local bit of byte 0 and
     * insert ff:fe in the middle. This is erdma's node_guid ({@code addrconf_addr_eui48}) and the
     * interface id of a RoCE link-local GID.
     */
    static long eui64(long mac) {
        long oui = (mac >>> 24) & 0xff_ffffL;
        long nic = mac & 0xff_ffffL;
        return ((oui ^ 0x02_0000L) << 40) | (0xfffeL << 24) | nic;
    }

    /** A ConnectX-style GUID: the MAC's OUI, {@code 03:00}, then the MAC's low three bytes. */
    static long mellanoxGuid(long mac) {
        long oui = (mac >>> 24) & 0xff_ffffL;
        long nic = mac & 0xff_ffffL;
        return (oui << 40) | (0x0300L << 24) | nic;
    }

    /** {@code node_guid} text: {@code "%04x:%04x:%04x:%04x"} of the big-endian GUID. */
    static String guidText(long guid) {
        return String.format("%04x:%04x:%04x:%04x",
                (guid >>> 48) & 0xffff, (guid >>> 32) & 0xffff, (guid >>> 16) & 0xffff, guid & 0xffff);
    }

    /** GID text as the kernel's {@code %pI6}: 8 groups of 4 lowercase hex digits, uncompressed. */
    static String gidText(long high, long low) {
        return guidText(high) + ":" + guidText(low);
    }

    static String emptyGidText() {
        return gidText(0, 0);
    }

    /** {@code fe80::<interface id>}: RoCE link-local GID (id = EUI-64 of the MAC) or IB GID (id = port GUID). */
    static String linkLocalGid(long interfaceId) {
        return gidText(LINK_LOCAL_PREFIX, interfaceId);
    }

    /** {@code ::ffff:a.b.c.d}, the GID of a RoCE IPv4 address; {@code ipv4} holds the address big-endian. */
    static String ipv4MappedGid(int ipv4) {
        return gidText(0, IPV4_MAPPED_PREFIX | (ipv4 & 0xffff_ffffL));
    }

    /** An iWARP GID: the MAC in bytes 0..5 and zeros after (erdma_query_gid). */
    static String iwarpGid(long mac) {
        return gidText(mac << 16, 0);
    }

    /** Packs a dotted IPv4 address. */
    static int ipv4(int a, int b, int c, int d) {
        return (a << 24) | (b << 16) | (c << 8) | d;
    }
}
