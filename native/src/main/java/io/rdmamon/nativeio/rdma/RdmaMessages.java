package io.rdmamon.nativeio.rdma;

import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLM_F_ACK;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLM_F_DUMP;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLM_F_REQUEST;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_DEV_INDEX;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_DEV_NAME;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_PORT_INDEX;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_RES_KERN_NAME;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_RES_LQPN;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_RES_PID;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_RES_QP;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_RES_QP_ENTRY;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_RES_RQPN;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_RES_STATE;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_RES_SUMMARY;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_RES_SUMMARY_ENTRY;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_RES_SUMMARY_ENTRY_CURR;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_RES_SUMMARY_ENTRY_NAME;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_RES_TYPE;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_STAT_HWCOUNTERS;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_STAT_HWCOUNTER_ENTRY;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_STAT_HWCOUNTER_ENTRY_NAME;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.ATTR_STAT_HWCOUNTER_ENTRY_VALUE;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.CMD_GET;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.CMD_RES_GET;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.CMD_RES_QP_GET;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.CMD_STAT_GET;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.commandName;
import static io.rdmamon.nativeio.rdma.RdmaNetlinkAbi.messageType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.rdmamon.nativeio.netlink.NetlinkAttribute;
import io.rdmamon.nativeio.netlink.NetlinkException;
import io.rdmamon.nativeio.netlink.NetlinkMessage;
import io.rdmamon.nativeio.netlink.NetlinkMessageBuilder;

/**
 * RDMA netlink requests and replies, pure (no socket). Requests carry the flags iproute2's {@code rdma} sets
 * ({@code rdma/utils.c rd_prepare_msg}: {@code NLM_F_REQUEST | NLM_F_ACK}, plus {@code NLM_F_DUMP} for a dump).
 * Replies are checked for the command's message type and their required attributes; attributes rdmamon does not use
 * (and those of newer kernels) are skipped. A required attribute or nest that is missing, and one too short for its
 * type, is a {@link NetlinkException} (errno 0) naming the command and the attribute.
 */
public final class RdmaMessages {
    private RdmaMessages() {
    }

    /** {@code RDMA_NLDEV_CMD_GET} dump of every device. */
    public static NetlinkMessageBuilder devicesRequest() {
        return dump(CMD_GET);
    }

    /** {@code RDMA_NLDEV_CMD_STAT_GET} of one port's hw counters ({@code rdma statistic show link DEV/PORT}). */
    public static NetlinkMessageBuilder portHwCountersRequest(long deviceIndex, int port) {
        return new NetlinkMessageBuilder(messageType(CMD_STAT_GET), NLM_F_REQUEST | NLM_F_ACK)
                .u32(ATTR_DEV_INDEX, deviceIndex).u32(ATTR_PORT_INDEX, port);
    }

    /** {@code RDMA_NLDEV_CMD_RES_GET} dump of every device's summary ({@code rdma resource show}). */
    public static NetlinkMessageBuilder resourceSummariesRequest() {
        return dump(CMD_RES_GET);
    }

    /** {@code RDMA_NLDEV_CMD_RES_QP_GET} dump of one device's QPs ({@code rdma resource show qp link DEV}). */
    public static NetlinkMessageBuilder queuePairsRequest(long deviceIndex) {
        return dump(CMD_RES_QP_GET).u32(ATTR_DEV_INDEX, deviceIndex);
    }

    private static NetlinkMessageBuilder dump(int command) {
        return new NetlinkMessageBuilder(messageType(command), NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP);
    }

    /** The devices of a GET dump, each message one device. */
    public static List<RdmaDeviceIndex> parseDevices(List<NetlinkMessage> reply) throws NetlinkException {
        List<RdmaDeviceIndex> devices = new ArrayList<>(reply.size());
        for (NetlinkMessage message : reply) {
            List<NetlinkAttribute> top = attributes(message, CMD_GET);
            devices.add(new RdmaDeviceIndex(required(top, ATTR_DEV_INDEX, CMD_GET, "DEV_INDEX").u32(),
                    required(top, ATTR_DEV_NAME, CMD_GET, "DEV_NAME").string()));
        }
        return devices;
    }

    /**
     * The entries of a STAT_GET reply's {@code STAT_HWCOUNTERS} nest in kernel order; a name the kernel repeats keeps
     * its first value.
     *
     * @throws NetlinkException when the reply is not one STAT_GET message with that nest, or an entry lacks its name
     *                          or value
     */
    public static Map<String, Long> parsePortHwCounters(List<NetlinkMessage> reply) throws NetlinkException {
        if (reply.size() != 1) {
            throw NetlinkException.malformed(commandName(CMD_STAT_GET) + " reply: " + reply.size()
                    + " messages, expected 1");
        }
        List<NetlinkAttribute> top = attributes(reply.get(0), CMD_STAT_GET);
        Map<String, Long> counters = new LinkedHashMap<>();
        for (NetlinkAttribute entry : required(top, ATTR_STAT_HWCOUNTERS, CMD_STAT_GET, "STAT_HWCOUNTERS").nested()) {
            if (entry.type() != ATTR_STAT_HWCOUNTER_ENTRY) {
                continue;
            }
            List<NetlinkAttribute> fields = entry.nested();
            counters.putIfAbsent(
                    required(fields, ATTR_STAT_HWCOUNTER_ENTRY_NAME, CMD_STAT_GET, "STAT_HWCOUNTER_ENTRY_NAME").string(),
                    required(fields, ATTR_STAT_HWCOUNTER_ENTRY_VALUE, CMD_STAT_GET, "STAT_HWCOUNTER_ENTRY_VALUE").u64());
        }
        return counters;
    }

    /** The summaries of a RES_GET dump, one message per device, each with its {@code RES_SUMMARY} nest. */
    public static List<ResourceSummary> parseResourceSummaries(List<NetlinkMessage> reply) throws NetlinkException {
        List<ResourceSummary> summaries = new ArrayList<>(reply.size());
        for (NetlinkMessage message : reply) {
            List<NetlinkAttribute> top = attributes(message, CMD_RES_GET);
            Map<String, Long> counts = new LinkedHashMap<>();
            for (NetlinkAttribute entry : required(top, ATTR_RES_SUMMARY, CMD_RES_GET, "RES_SUMMARY").nested()) {
                if (entry.type() != ATTR_RES_SUMMARY_ENTRY) {
                    continue;
                }
                List<NetlinkAttribute> fields = entry.nested();
                counts.putIfAbsent(
                        required(fields, ATTR_RES_SUMMARY_ENTRY_NAME, CMD_RES_GET, "RES_SUMMARY_ENTRY_NAME").string(),
                        required(fields, ATTR_RES_SUMMARY_ENTRY_CURR, CMD_RES_GET, "RES_SUMMARY_ENTRY_CURR").u64());
            }
            summaries.add(new ResourceSummary(required(top, ATTR_DEV_INDEX, CMD_RES_GET, "DEV_INDEX").u32(),
                    required(top, ATTR_DEV_NAME, CMD_RES_GET, "DEV_NAME").string(), counts));
        }
        return summaries;
    }

    /**
     * The QPs of a RES_QP_GET dump in kernel order. The kernel splits a long list over several messages, each with
     * the device and a {@code RES_QP} nest; a message without that nest carries no QP.
     */
    public static List<QueuePairEntry> parseQueuePairs(List<NetlinkMessage> reply) throws NetlinkException {
        List<QueuePairEntry> qps = new ArrayList<>();
        for (NetlinkMessage message : reply) {
            List<NetlinkAttribute> top = attributes(message, CMD_RES_QP_GET);
            long deviceIndex = required(top, ATTR_DEV_INDEX, CMD_RES_QP_GET, "DEV_INDEX").u32();
            String device = required(top, ATTR_DEV_NAME, CMD_RES_QP_GET, "DEV_NAME").string();
            NetlinkAttribute table = NetlinkAttribute.first(top, ATTR_RES_QP);
            if (table == null) {
                continue;
            }
            for (NetlinkAttribute entry : table.nested()) {
                if (entry.type() == ATTR_RES_QP_ENTRY) {
                    qps.add(queuePair(deviceIndex, device, entry.nested()));
                }
            }
        }
        return qps;
    }

    private static QueuePairEntry queuePair(long deviceIndex, String device, List<NetlinkAttribute> fields)
            throws NetlinkException {
        NetlinkAttribute port = NetlinkAttribute.first(fields, ATTR_PORT_INDEX);
        NetlinkAttribute rqpn = NetlinkAttribute.first(fields, ATTR_RES_RQPN);
        NetlinkAttribute pid = NetlinkAttribute.first(fields, ATTR_RES_PID);
        NetlinkAttribute kernName = NetlinkAttribute.first(fields, ATTR_RES_KERN_NAME);
        return new QueuePairEntry(deviceIndex, device, port == null ? null : (int) port.u32(),
                required(fields, ATTR_RES_LQPN, CMD_RES_QP_GET, "RES_LQPN").u32(),
                rqpn == null ? null : rqpn.u32(),
                required(fields, ATTR_RES_TYPE, CMD_RES_QP_GET, "RES_TYPE").u8(),
                required(fields, ATTR_RES_STATE, CMD_RES_QP_GET, "RES_STATE").u8(),
                pid == null ? null : pid.u32(), kernName == null ? null : kernName.string());
    }

    /** The message's attributes, after checking that it answers {@code command}. */
    private static List<NetlinkAttribute> attributes(NetlinkMessage message, int command) throws NetlinkException {
        String where = commandName(command) + " reply";
        if (message.type() != messageType(command)) {
            throw NetlinkException.malformed(where + ": message type " + message.type() + ", expected "
                    + messageType(command));
        }
        return message.attributes(0, where);
    }

    private static NetlinkAttribute required(List<NetlinkAttribute> attributes, int type, int command, String name)
            throws NetlinkException {
        NetlinkAttribute attribute = NetlinkAttribute.first(attributes, type);
        if (attribute == null) {
            throw NetlinkException.malformed(commandName(command) + " reply: no RDMA_NLDEV_ATTR_" + name + " ("
                    + type + ")");
        }
        return attribute;
    }
}
