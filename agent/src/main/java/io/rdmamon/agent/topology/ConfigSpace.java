package io.rdmamon.agent.topology;

/**
 * Pure decoder of a PCI function's {@code config} file (the bytes sysfs gives;
 * docs/reference/pingmesh-workloads-topology.md §3.4, §3.5): the PCI
 * Express capability's Device Control (standard list from {@code config[0x34]}, capability id 0x10, DevCtl at cap+8),
 * ACS (extended capability 0x000D, ACS Control at cap+6) and ATS presence (extended capability 0x000F), walking the
 * extended list from offset 0x100.
 *
 * <p>An unprivileged read of {@code config} returns only the first 64 bytes (the standard header): then every fact
 * from beyond it is unknown ({@link ConfigFacts#unknown}), never "absent". 256 bytes readable is a conventional-PCI
 * function: the standard capabilities are known and there is no extended space (so no ACS, no ATS).
 */
public final class ConfigSpace {
    /** Bytes an unprivileged reader gets: the standard header only. */
    public static final int HEADER_BYTES = 64;
    /** The reason every fact beyond the header is unknown. */
    public static final String BEYOND_HEADER_UNREADABLE = "config space beyond 64 bytes not readable (needs root)";

    static final int CAPABILITY_POINTER = 0x34;
    static final int STATUS = 0x06;
    static final int STATUS_CAPABILITIES_LIST = 0x10;
    static final int CAP_ID_PCI_EXPRESS = 0x10;
    static final int EXTENDED_START = 0x100;
    static final int EXT_CAP_ACS = 0x000D;
    static final int EXT_CAP_ATS = 0x000F;
    private static final int MAX_WALK = 64;

    private ConfigSpace() {
    }

    /** What {@code config} says; {@code config} is exactly the bytes read (its length is what was readable). */
    public static ConfigFacts decode(byte[] config) {
        if (config.length < HEADER_BYTES) {
            return ConfigFacts.unknown("config holds " + config.length + " bytes, less than the 64-byte header");
        }
        if (config.length == HEADER_BYTES) {
            return ConfigFacts.unknown(BEYOND_HEADER_UNREADABLE);
        }
        DeviceControl devCtl = null;
        Integer pcieCap = pcieCapability(config);
        if (pcieCap != null && pcieCap + 10 <= config.length) {
            devCtl = new DeviceControl(u16(config, pcieCap + 8));
        }
        AcsControl acs = null;
        boolean ats = false;
        boolean extended = config.length > EXTENDED_START;
        if (extended) {
            int offset = EXTENDED_START;
            for (int i = 0; i < MAX_WALK && offset >= EXTENDED_START && offset + 4 <= config.length; i++) {
                int header = u32(config, offset);
                if (header == 0 || header == -1) {
                    break;
                }
                int id = header & 0xFFFF;
                if (id == EXT_CAP_ACS && offset + 8 <= config.length) {
                    acs = new AcsControl(u16(config, offset + 6));
                } else if (id == EXT_CAP_ATS) {
                    ats = true;
                }
                offset = (header >>> 20) & 0xFFC;
                if (offset == 0) {
                    break;
                }
            }
        }
        return new ConfigFacts(config.length, null, pcieCap != null, devCtl, extended, acs, ats);
    }

    /** The offset of the PCI Express capability in the standard list, null when there is none. */
    static Integer pcieCapability(byte[] config) {
        if ((u16(config, STATUS) & STATUS_CAPABILITIES_LIST) == 0) {
            return null;
        }
        int offset = config[CAPABILITY_POINTER] & 0xFC;
        for (int i = 0; i < 48 && offset >= 0x40 && offset + 2 <= config.length; i++) {
            if ((config[offset] & 0xFF) == CAP_ID_PCI_EXPRESS) {
                return offset;
            }
            offset = config[offset + 1] & 0xFC;
        }
        return null;
    }

    static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
    }

    static int u32(byte[] b, int at) {
        return u16(b, at) | u16(b, at + 2) << 16;
    }
}
