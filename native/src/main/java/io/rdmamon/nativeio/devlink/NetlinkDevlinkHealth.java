package io.rdmamon.nativeio.devlink;

import io.rdmamon.nativeio.netlink.GenericNetlink;
import io.rdmamon.nativeio.netlink.Netlink;
import io.rdmamon.nativeio.netlink.NetlinkAttribute;
import io.rdmamon.nativeio.netlink.NetlinkException;
import io.rdmamon.nativeio.netlink.NetlinkMessage;
import io.rdmamon.nativeio.netlink.NetlinkMessageBuilder;

import java.util.ArrayList;
import java.util.List;

import static io.rdmamon.nativeio.netlink.NetlinkAbi.NETLINK_GENERIC;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLM_F_ACK;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLM_F_DUMP;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLM_F_REQUEST;

/**
 * Every devlink health reporter of the host, as {@code devlink health show} lists them: one
 * {@code DEVLINK_CMD_HEALTH_REPORTER_GET} dump on the generic netlink family {@code devlink}, which the kernel's op table
 * lets unprivileged users retrieve. A kernel without devlink answers the family lookup with ENOENT
 * ({@link NetlinkException#errno()}): an absent capability.
 */
public final class NetlinkDevlinkHealth {
    /** include/uapi/linux/devlink.h. */
    public static final String FAMILY = "devlink";
    static final int DEVLINK_GENL_VERSION = 1;
    static final int DEVLINK_CMD_HEALTH_REPORTER_GET = 52;
    static final int DEVLINK_ATTR_BUS_NAME = 1;
    static final int DEVLINK_ATTR_DEV_NAME = 2;
    static final int DEVLINK_ATTR_PORT_INDEX = 3;
    static final int DEVLINK_ATTR_HEALTH_REPORTER = 114;
    static final int DEVLINK_ATTR_HEALTH_REPORTER_NAME = 115;
    static final int DEVLINK_ATTR_HEALTH_REPORTER_STATE = 116;
    static final int DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT = 117;
    static final int DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT = 118;
    static final int DEVLINK_ATTR_HEALTH_REPORTER_GRACEFUL_PERIOD = 120;
    static final int DEVLINK_ATTR_HEALTH_REPORTER_AUTO_RECOVER = 121;
    /** {@code enum devlink_health_reporter_state}: 0 healthy, 1 error. */
    private static final int STATE_ERROR = 1;

    private final Netlink netlink;
    private final GenericNetlink genl;

    public NetlinkDevlinkHealth(Netlink netlink) {
        this.netlink = netlink;
        this.genl = new GenericNetlink(netlink);
    }

    /**
     * The dump request iproute2's {@code devlink health show} sends (devlink/devlink.c {@code cmd_health_show}: no
     * handle, so {@code NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP}, genl version {@code DEVLINK_GENL_VERSION}).
     */
    public static NetlinkMessageBuilder reporterDump(int familyId) {
        return new NetlinkMessageBuilder(familyId, NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP)
                .familyHeader(new byte[] {(byte) DEVLINK_CMD_HEALTH_REPORTER_GET, DEVLINK_GENL_VERSION, 0, 0});
    }

    /**
     * Every reporter, in the kernel's order.
     *
     * @throws NetlinkException ENOENT without a devlink family, the exchange's failure, or a reply that does not parse
     */
    public List<HealthReporter> reporters() throws NetlinkException {
        int familyId = genl.familyId(FAMILY);
        String description = "DEVLINK_CMD_HEALTH_REPORTER_GET dump";
        List<HealthReporter> reporters = new ArrayList<>();
        for (NetlinkMessage message : netlink.exchange(NETLINK_GENERIC, reporterDump(familyId), description)) {
            HealthReporter reporter = reporter(message.attributes(GenericNetlink.GENL_HDRLEN, description + " reply"));
            if (reporter != null) {
                reporters.add(reporter);
            }
        }
        return reporters;
    }

    /** One reply message's reporter; null when it lacks its handle or name. */
    static HealthReporter reporter(List<NetlinkAttribute> attributes) throws NetlinkException {
        NetlinkAttribute bus = NetlinkAttribute.first(attributes, DEVLINK_ATTR_BUS_NAME);
        NetlinkAttribute device = NetlinkAttribute.first(attributes, DEVLINK_ATTR_DEV_NAME);
        NetlinkAttribute port = NetlinkAttribute.first(attributes, DEVLINK_ATTR_PORT_INDEX);
        NetlinkAttribute nest = NetlinkAttribute.first(attributes, DEVLINK_ATTR_HEALTH_REPORTER);
        if (bus == null || device == null || nest == null) {
            return null;
        }
        List<NetlinkAttribute> inner = nest.nested();
        NetlinkAttribute name = NetlinkAttribute.first(inner, DEVLINK_ATTR_HEALTH_REPORTER_NAME);
        NetlinkAttribute state = NetlinkAttribute.first(inner, DEVLINK_ATTR_HEALTH_REPORTER_STATE);
        if (name == null || state == null) {
            return null;
        }
        NetlinkAttribute errors = NetlinkAttribute.first(inner, DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT);
        NetlinkAttribute recovers = NetlinkAttribute.first(inner, DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT);
        NetlinkAttribute grace = NetlinkAttribute.first(inner, DEVLINK_ATTR_HEALTH_REPORTER_GRACEFUL_PERIOD);
        NetlinkAttribute autoRecover = NetlinkAttribute.first(inner, DEVLINK_ATTR_HEALTH_REPORTER_AUTO_RECOVER);
        return new HealthReporter(bus.string(), device.string(), port == null ? null : (int) port.u32(),
                name.string(), state.u8() == STATE_ERROR ? HealthReporter.ERROR : HealthReporter.HEALTHY,
                errors == null ? 0 : errors.u64(), recovers == null ? 0 : recovers.u64(),
                grace == null ? null : grace.u64(), autoRecover == null ? null : autoRecover.u8() != 0);
    }
}
