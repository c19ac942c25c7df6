package io.rdmamon.nativeio.dcb;

/**
 * DCB netlink ({@code <linux/dcbnl.h>}, {@code <linux/rtnetlink.h>}): the constants and struct sizes the reader uses
 * (docs/reference/qos-dcb.md §1.1, §1.5). Structs are host-endian with the offsets given at their decoders.
 */
public final class DcbAbi {
    public static final int RTM_GETDCB = 78;
    /** {@code struct dcbmsg}: dcb_family u8@0 (AF_UNSPEC), cmd u8@1, dcb_pad u16@2. */
    public static final int DCBMSG_SIZE = 4;
    public static final int AF_UNSPEC = 0;

    public static final int DCB_CMD_IEEE_GET = 21;
    public static final int DCB_CMD_GDCBX = 22;
    /** The last command the kernel knows ({@code DCB_CMD_IEEE_DEL}); a higher one is refused with EINVAL. */
    public static final int DCB_CMD_MAX = 27;

    public static final int DCB_ATTR_IFNAME = 1;
    public static final int DCB_ATTR_IEEE = 13;
    public static final int DCB_ATTR_DCBX = 14;

    public static final int DCB_ATTR_IEEE_ETS = 1;
    public static final int DCB_ATTR_IEEE_PFC = 2;
    public static final int DCB_ATTR_IEEE_APP_TABLE = 3;
    public static final int DCB_ATTR_IEEE_MAXRATE = 7;
    public static final int DCB_ATTR_DCB_BUFFER = 10;
    public static final int DCB_ATTR_DCB_APP_TRUST_TABLE = 11;
    public static final int DCB_ATTR_DCB_REWR_TABLE = 12;

    /** APP table entry with an IEEE selector (1..5). */
    public static final int DCB_ATTR_IEEE_APP = 1;
    /** APP table entry with a non-IEEE selector ({@code DCB_APP_SEL_PCP} 255). */
    public static final int DCB_ATTR_DCB_APP = 2;

    public static final int IEEE_8021QAZ_MAX_TCS = 8;
    public static final int DCBX_MAX_BUFFERS = 8;

    public static final int IEEE_ETS_SIZE = 59;
    public static final int IEEE_PFC_SIZE = 136;
    public static final int DCB_APP_SIZE = 4;
    public static final int IEEE_MAXRATE_SIZE = 64;
    public static final int DCBNL_BUFFER_SIZE = 44;

    private DcbAbi() {
    }
}
