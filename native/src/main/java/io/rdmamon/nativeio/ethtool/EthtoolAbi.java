package io.rdmamon.nativeio.ethtool;

import jnr.ffi.NativeType;
import jnr.ffi.Runtime;
import jnr.ffi.Struct;

/**
 * The legacy {@code SIOCETHTOOL} ABI: constants from {@code <linux/sockios.h>},
 * {@code <linux/ethtool.h>}, {@code <net/if.h>} and the structs, one jnr {@link Struct} per C
 * struct with the fields in C order and C names (so the layout test can match them to gcc's
 * {@code offsetof}). Flexible array members ({@code data[]}) are not fields: the payload starts at
 * {@code Struct.size(header)}, which equals {@code offsetof(data)} for all three headers.
 */
final class EthtoolAbi {
    static final int SIOCETHTOOL = 0x8946;
    static final int ETHTOOL_GDRVINFO = 0x00000003;
    static final int ETHTOOL_GSTRINGS = 0x0000001b;
    static final int ETHTOOL_GSTATS = 0x0000001d;
    static final int ETHTOOL_GSSET_INFO = 0x00000037;
    /** Needs CAP_NET_ADMIN (EPERM otherwise). */
    static final int ETHTOOL_GMODULEINFO = 0x00000042;
    /** Needs CAP_NET_ADMIN. */
    static final int ETHTOOL_GMODULEEEPROM = 0x00000043;
    /** Anyone may ask. */
    static final int ETHTOOL_GFECPARAM = 0x00000050;
    /** Largest {@code eeprom_len} a module type has (SFF-8636/8436: 640); a driver claiming more is refused. */
    static final int MAX_MODULE_EEPROM_LEN = 640;
    static final int ETH_SS_STATS = 1;
    static final int ETH_GSTRING_LEN = 32;
    static final int IFNAMSIZ = 16;
    static final int ETHTOOL_FWVERS_LEN = 32;
    static final int ETHTOOL_BUSINFO_LEN = 32;
    static final int ETHTOOL_EROMVERS_LEN = 32;

    static final int AF_INET = 2;
    static final int SOCK_DGRAM = 2;
    /** So that child processes (perftest, ...) never inherit the socket. */
    static final int SOCK_CLOEXEC = 0x80000;

    private EthtoolAbi() {
    }

    /** {@code struct ifreq} (40 bytes): the name, then the union of which only the data pointer is used. */
    static final class IfReq extends Struct {
        final Unsigned8[] ifr_name = array(new Unsigned8[IFNAMSIZ]);
        final Pointer ifr_data = new Pointer();
        /** The rest of {@code ifr_ifru}, which is 24 bytes because of {@code struct ifmap}. */
        final Padding ifru_tail = new Padding(NativeType.UCHAR, 16);

        IfReq(Runtime runtime) {
            super(runtime);
        }
    }

    /** {@code struct ethtool_drvinfo} (196 bytes). */
    static final class EthtoolDrvinfo extends Struct {
        final Unsigned32 cmd = new Unsigned32();
        final UTF8String driver = new UTF8String(32);
        final UTF8String version = new UTF8String(32);
        final UTF8String fw_version = new UTF8String(ETHTOOL_FWVERS_LEN);
        final UTF8String bus_info = new UTF8String(ETHTOOL_BUSINFO_LEN);
        final UTF8String erom_version = new UTF8String(ETHTOOL_EROMVERS_LEN);
        final Unsigned8[] reserved2 = array(new Unsigned8[12]);
        final Unsigned32 n_priv_flags = new Unsigned32();
        final Unsigned32 n_stats = new Unsigned32();
        final Unsigned32 testinfo_len = new Unsigned32();
        final Unsigned32 eedump_len = new Unsigned32();
        final Unsigned32 regdump_len = new Unsigned32();

        EthtoolDrvinfo(Runtime runtime) {
            super(runtime);
        }
    }

    /** {@code struct ethtool_sset_info} header (16 bytes), followed by one u32 per bit set in sset_mask. */
    static final class EthtoolSsetInfo extends Struct {
        final Unsigned32 cmd = new Unsigned32();
        final Unsigned32 reserved = new Unsigned32();
        final Unsigned64 sset_mask = new Unsigned64();

        EthtoolSsetInfo(Runtime runtime) {
            super(runtime);
        }
    }

    /** {@code struct ethtool_gstrings} header (12 bytes), followed by len × 32-byte names. */
    static final class EthtoolGstrings extends Struct {
        final Unsigned32 cmd = new Unsigned32();
        final Unsigned32 string_set = new Unsigned32();
        final Unsigned32 len = new Unsigned32();

        EthtoolGstrings(Runtime runtime) {
            super(runtime);
        }
    }

    /** {@code struct ethtool_modinfo} (44 bytes). */
    static final class EthtoolModinfo extends Struct {
        final Unsigned32 cmd = new Unsigned32();
        final Unsigned32 type = new Unsigned32();
        final Unsigned32 eeprom_len = new Unsigned32();
        final Unsigned32[] reserved = array(new Unsigned32[8]);

        EthtoolModinfo(Runtime runtime) {
            super(runtime);
        }
    }

    /** {@code struct ethtool_eeprom} header (16 bytes), followed by len bytes of data. */
    static final class EthtoolEeprom extends Struct {
        final Unsigned32 cmd = new Unsigned32();
        final Unsigned32 magic = new Unsigned32();
        final Unsigned32 offset = new Unsigned32();
        final Unsigned32 len = new Unsigned32();

        EthtoolEeprom(Runtime runtime) {
            super(runtime);
        }
    }

    /** {@code struct ethtool_fecparam} (16 bytes). */
    static final class EthtoolFecparam extends Struct {
        final Unsigned32 cmd = new Unsigned32();
        final Unsigned32 active_fec = new Unsigned32();
        final Unsigned32 fec = new Unsigned32();
        final Unsigned32 reserved = new Unsigned32();

        EthtoolFecparam(Runtime runtime) {
            super(runtime);
        }
    }

    /** {@code struct ethtool_stats} header (8 bytes), followed by n_stats × u64. */
    static final class EthtoolStats extends Struct {
        final Unsigned32 cmd = new Unsigned32();
        final Unsigned32 n_stats = new Unsigned32();

        EthtoolStats(Runtime runtime) {
            super(runtime);
        }
    }
}
