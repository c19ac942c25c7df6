package io.rdmamon.agent.topology;

import java.util.Arrays;

/**
 * Builds a PCI function's {@code config} file as the kernel exposes it (4096 bytes, or the first {@code readable}):
 * the header (vendor, device, class, status with the capability list bit), a standard capability list (power
 * management, then PCI Express with Device Control when asked) and an extended one (AER, then ACS and ATS when
 * asked). The simulator writes it; the tests build their fixtures with it; {@link ConfigSpace} reads it.
 */
public final class ConfigImage {
    private int vendor;
    private int device;
    private int pciClass;
    private Integer devCtl;
    private Integer acs;
    private boolean ats;
    private int readable = 4096;

    public ConfigImage vendor(int v) {
        vendor = v;
        return this;
    }

    public ConfigImage device(int d) {
        device = d;
        return this;
    }

    /** The 24-bit class code ({@code 0x030200}). */
    public ConfigImage pciClass(int c) {
        pciClass = c;
        return this;
    }

    /** A PCI Express capability with this Device Control (null: no PCI Express capability). */
    public ConfigImage devCtl(Integer value) {
        devCtl = value;
        return this;
    }

    /** An ACS capability with this control register (null: none). */
    public ConfigImage acs(Integer control) {
        acs = control;
        return this;
    }

    public ConfigImage ats(boolean present) {
        ats = present;
        return this;
    }

    /** Only the first {@code bytes} readable (64: what an unprivileged read gets). */
    public ConfigImage readable(int bytes) {
        readable = bytes;
        return this;
    }

    public byte[] bytes() {
        byte[] c = new byte[4096];
        put16(c, 0x00, vendor);
        put16(c, 0x02, device);
        c[0x09] = (byte) pciClass;
        c[0x0A] = (byte) (pciClass >> 8);
        c[0x0B] = (byte) (pciClass >> 16);
        c[0x0E] = (byte) ((pciClass >> 8) == 0x0604 ? 1 : 0);
        put16(c, ConfigSpace.STATUS, ConfigSpace.STATUS_CAPABILITIES_LIST);
        c[ConfigSpace.CAPABILITY_POINTER] = 0x40;
        c[0x40] = 0x01; // power management
        c[0x41] = (byte) (devCtl == null ? 0x00 : 0x60);
        put16(c, 0x42, 0x0003);
        if (devCtl != null) {
            c[0x60] = ConfigSpace.CAP_ID_PCI_EXPRESS;
            put16(c, 0x62, 0x0002);
            put16(c, 0x68, devCtl);
        }
        int[] ids = {0x0001, acs == null ? -1 : ConfigSpace.EXT_CAP_ACS, ats ? ConfigSpace.EXT_CAP_ATS : -1};
        int[] sizes = {0x48, 0x10, 0x10};
        int at = ConfigSpace.EXTENDED_START;
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] < 0) {
                continue;
            }
            int following = at + sizes[i];
            boolean last = true;
            for (int k = i + 1; k < ids.length; k++) {
                last &= ids[k] < 0;
            }
            put32(c, at, ids[i] | 1 << 16 | (last ? 0 : following) << 20);
            if (ids[i] == ConfigSpace.EXT_CAP_ACS) {
                put16(c, at + 4, 0x007F); // ACS capability: every control implemented
                put16(c, at + 6, acs);
            } else if (ids[i] == ConfigSpace.EXT_CAP_ATS) {
                put16(c, at + 4, 0x0020);
            }
            at = following;
        }
        return Arrays.copyOf(c, readable);
    }

    private static void put16(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >> 8);
    }

    private static void put32(byte[] b, int at, int v) {
        put16(b, at, v);
        put16(b, at + 2, v >>> 16);
    }
}
