package io.rdmamon.nativeio.dcb;

import static io.rdmamon.nativeio.dcb.DcbAbi.DCB_CMD_GDCBX;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCB_CMD_IEEE_GET;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NETLINK_ROUTE;

import java.util.List;

import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.netlink.JnrNetlink;
import io.rdmamon.nativeio.netlink.Netlink;
import io.rdmamon.nativeio.netlink.NetlinkException;
import io.rdmamon.nativeio.netlink.NetlinkMessage;

/**
 * {@link Dcb} over rtnetlink, as {@code dcb ... show} and {@code mlnx_qos} read it: {@code DCB_CMD_IEEE_GET}, then
 * {@code DCB_CMD_GDCBX} only when the IEEE reply carries no {@code DCB_ATTR_DCBX}. Needs no privilege (RTM_GETDCB
 * is a GET kind). Errors name the interface with the errno the kernel's {@code dcb_doit} returned.
 */
public final class NetlinkDcb implements Dcb {
    private final Netlink netlink;

    public NetlinkDcb() {
        this(new JnrNetlink());
    }

    public NetlinkDcb(Netlink netlink) {
        this.netlink = netlink;
    }

    @Override
    public IeeeDcbConfig ieeeConfig(String ifname) throws DcbException {
        IeeeDcbConfig config = decode("DCB_CMD_IEEE_GET", ifname,
                () -> DcbMessages.parseIeeeGet(ifname, exchange(DCB_CMD_IEEE_GET, ifname)));
        if (config.dcbx() != null) {
            return config;
        }
        try {
            return config.withDcbx(decode("DCB_CMD_GDCBX", ifname,
                    () -> DcbMessages.parseGdcbx(exchange(DCB_CMD_GDCBX, ifname))));
        } catch (DcbException e) {
            if (Errno.notSupported(e.errno())) {
                return config; // the driver has no getdcbx: DCBX stays unknown, the rest is valid
            }
            throw e;
        }
    }

    private List<NetlinkMessage> exchange(int cmd, String ifname) throws NetlinkException, DcbException {
        return netlink.exchange(NETLINK_ROUTE, DcbMessages.request(cmd, ifname), "RTM_GETDCB "
                + (cmd == DCB_CMD_IEEE_GET ? "DCB_CMD_IEEE_GET" : "DCB_CMD_GDCBX") + " on " + ifname);
    }

    private interface Read<T> {
        T read() throws NetlinkException, DcbException;
    }

    /** Runs {@code read}, turning netlink failures into {@link DcbException}s with the reasons operators search for. */
    private static <T> T decode(String command, String ifname, Read<T> read) throws DcbException {
        try {
            return read.read();
        } catch (NetlinkException e) {
            throw new DcbException(ifname, e.errno(), reason(command, ifname, e));
        }
    }

    static String reason(String command, String ifname, NetlinkException e) {
        return switch (e.errno()) {
            case Errno.EOPNOTSUPP, Errno.ENOTSUPP -> "no DCB support on " + ifname + " (" + Errno.name(e.errno()) + ")";
            case Errno.ENODEV -> "no such interface " + ifname + " (ENODEV)";
            case Errno.EPERM, Errno.EACCES -> "not permitted to read the DCB configuration of " + ifname + " ("
                    + Errno.name(e.errno()) + ")";
            case 0 -> "unreadable " + command + " reply for " + ifname + ": " + e.getMessage();
            default -> e.getMessage();
        };
    }
}
