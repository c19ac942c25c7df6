package io.rdmamon.nativeio.netlink;

import static io.rdmamon.nativeio.netlink.NetlinkAbi.NETLINK_GENERIC;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLM_F_REQUEST;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.rdmamon.nativeio.Errno;

/**
 * Generic netlink ({@code <linux/genetlink.h>}): a family (ethtool, devlink, ...) has a dynamic message type that the
 * controller family {@code nlctrl} ({@link #GENL_ID_CTRL}) names on {@code CTRL_CMD_GETFAMILY}. Family ids are kept
 * once resolved: the kernel assigns them at registration and keeps them until the module is unloaded (ethtool's is
 * built in). Every message starts with {@code struct genlmsghdr}: cmd u8@0, version u8@1, reserved u16@2.
 */
public final class GenericNetlink {
    /** The controller family's fixed id ({@code GENL_ID_CTRL = NLMSG_MIN_TYPE}). */
    public static final int GENL_ID_CTRL = 0x10;
    public static final int CTRL_CMD_GETFAMILY = 3;
    public static final int CTRL_ATTR_FAMILY_ID = 1;
    public static final int CTRL_ATTR_FAMILY_NAME = 2;
    /** {@code struct genlmsghdr}. */
    public static final int GENL_HDRLEN = 4;

    private final Netlink netlink;
    private final Map<String, Integer> familyIds = new ConcurrentHashMap<>();

    public GenericNetlink(Netlink netlink) {
        this.netlink = netlink;
    }

    /** A request to {@code familyId}: the netlink header's type, then {@code genlmsghdr} with {@code cmd}. */
    public static NetlinkMessageBuilder request(int familyId, int cmd, int version) {
        return new NetlinkMessageBuilder(familyId, NLM_F_REQUEST)
                .familyHeader(new byte[] {(byte) cmd, (byte) version, 0, 0});
    }

    /**
     * The id of the family named {@code name}.
     *
     * @throws NetlinkException ENOENT (named as a kernel without that family) or the exchange's failure
     */
    public int familyId(String name) throws NetlinkException {
        Integer known = familyIds.get(name);
        if (known != null) {
            return known;
        }
        String description = "CTRL_CMD_GETFAMILY " + name;
        List<NetlinkMessage> reply;
        try {
            reply = netlink.exchange(NETLINK_GENERIC,
                    request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1).stringZ(CTRL_ATTR_FAMILY_NAME, name), description);
        } catch (NetlinkException e) {
            if (e.errno() == Errno.ENOENT) {
                throw new NetlinkException(Errno.ENOENT, "no generic netlink family \"" + name
                        + "\" in this kernel (ENOENT)", e.kernelMessage());
            }
            throw e;
        }
        if (reply.isEmpty()) {
            throw NetlinkException.malformed(description + ": no reply message");
        }
        NetlinkAttribute id = NetlinkAttribute.first(reply.get(0).attributes(GENL_HDRLEN, description + " reply"),
                CTRL_ATTR_FAMILY_ID);
        if (id == null) {
            throw NetlinkException.malformed(description + " reply: no CTRL_ATTR_FAMILY_ID");
        }
        int familyId = id.u16();
        familyIds.put(name, familyId);
        return familyId;
    }
}
