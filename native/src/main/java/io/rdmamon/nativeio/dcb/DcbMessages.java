package io.rdmamon.nativeio.dcb;

import static io.rdmamon.nativeio.dcb.DcbAbi.AF_UNSPEC;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCBMSG_SIZE;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCBNL_BUFFER_SIZE;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCBX_MAX_BUFFERS;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCB_APP_SIZE;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCB_ATTR_DCBX;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCB_ATTR_DCB_APP;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCB_ATTR_DCB_APP_TRUST_TABLE;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCB_ATTR_DCB_BUFFER;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCB_ATTR_DCB_REWR_TABLE;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCB_ATTR_IEEE;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCB_ATTR_IEEE_APP;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCB_ATTR_IEEE_APP_TABLE;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCB_ATTR_IEEE_ETS;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCB_ATTR_IEEE_MAXRATE;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCB_ATTR_IEEE_PFC;
import static io.rdmamon.nativeio.dcb.DcbAbi.DCB_ATTR_IFNAME;
import static io.rdmamon.nativeio.dcb.DcbAbi.IEEE_8021QAZ_MAX_TCS;
import static io.rdmamon.nativeio.dcb.DcbAbi.IEEE_ETS_SIZE;
import static io.rdmamon.nativeio.dcb.DcbAbi.IEEE_MAXRATE_SIZE;
import static io.rdmamon.nativeio.dcb.DcbAbi.IEEE_PFC_SIZE;
import static io.rdmamon.nativeio.dcb.DcbAbi.RTM_GETDCB;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLM_F_ACK;
import static io.rdmamon.nativeio.netlink.NetlinkAbi.NLM_F_REQUEST;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.rdmamon.nativeio.InterfaceNames;
import io.rdmamon.nativeio.dcb.IeeeDcbConfig.DcbApp;
import io.rdmamon.nativeio.dcb.IeeeDcbConfig.DcbBuffer;
import io.rdmamon.nativeio.dcb.IeeeDcbConfig.IeeeEts;
import io.rdmamon.nativeio.dcb.IeeeDcbConfig.IeeePfc;
import io.rdmamon.nativeio.netlink.NetlinkAttribute;
import io.rdmamon.nativeio.netlink.NetlinkException;
import io.rdmamon.nativeio.netlink.NetlinkMessage;
import io.rdmamon.nativeio.netlink.NetlinkMessageBuilder;

/**
 * DCB netlink requests and replies, pure (no socket). Requests are built as iproute2's {@code dcb} builds them
 * ({@code dcb/dcb.c dcb_prepare}): {@code RTM_GETDCB}, {@code NLM_F_REQUEST | NLM_F_ACK}, {@code struct dcbmsg}
 * {@code {AF_UNSPEC, cmd, 0}}, {@code DCB_ATTR_IFNAME} as a NUL-terminated string. Replies are decoded to the uapi
 * structs; nests are read whether or not {@code NLA_F_NESTED} is set (the kernel sets it on the apptrust and rewrite
 * tables only) and unknown attributes (QCN, peer tables, future ones) are skipped.
 */
public final class DcbMessages {
    static final String REPLY = "RTM_GETDCB reply";

    private DcbMessages() {
    }

    /**
     * The request for {@code cmd} on {@code ifname}.
     *
     * @throws DcbException (errno 0) when the kernel would refuse the name, before anything is sent
     */
    public static NetlinkMessageBuilder request(int cmd, String ifname) throws DcbException {
        String problem = InterfaceNames.problem(ifname);
        if (problem != null) {
            throw new DcbException(ifname, 0, "invalid interface name '" + ifname + "': " + problem);
        }
        return new NetlinkMessageBuilder(RTM_GETDCB, NLM_F_REQUEST | NLM_F_ACK)
                .familyHeader(new byte[] {AF_UNSPEC, (byte) cmd, 0, 0})
                .stringZ(DCB_ATTR_IFNAME, ifname);
    }

    /**
     * Decodes the {@code DCB_CMD_IEEE_GET} reply ({@code dcbnl_ieee_fill}). {@code dcbx} is null when the reply has no
     * {@code DCB_ATTR_DCBX}.
     *
     * @throws NetlinkException naming the attribute at fault when the reply is not one RTM_GETDCB IEEE_GET message or
     *                          an attribute is shorter than its struct
     */
    public static IeeeDcbConfig parseIeeeGet(String ifname, List<NetlinkMessage> reply) throws NetlinkException {
        List<NetlinkAttribute> top = replyAttributes(reply, DcbAbi.DCB_CMD_IEEE_GET);
        NetlinkAttribute dcbx = NetlinkAttribute.first(top, DCB_ATTR_DCBX);
        NetlinkAttribute ieee = NetlinkAttribute.first(top, DCB_ATTR_IEEE);
        if (ieee == null) {
            throw NetlinkException.malformed(REPLY + ": no DCB_ATTR_IEEE (13) nest");
        }
        IeeeEts ets = null;
        IeeePfc pfc = null;
        List<DcbApp> appTable = List.of();
        List<Integer> appTrust = null;
        List<DcbApp> rewriteTable = null;
        DcbBuffer buffer = null;
        List<Long> tcMaxrate = null;
        for (NetlinkAttribute attribute : ieee.nested()) {
            switch (attribute.type()) {
                case DCB_ATTR_IEEE_ETS -> ets = ets(attribute);
                case DCB_ATTR_IEEE_PFC -> pfc = pfc(attribute);
                case DCB_ATTR_IEEE_APP_TABLE -> appTable = appEntries(attribute);
                case DCB_ATTR_IEEE_MAXRATE -> tcMaxrate = u64s(attribute.struct(IEEE_MAXRATE_SIZE,
                        "struct ieee_maxrate"), 0, IEEE_8021QAZ_MAX_TCS);
                case DCB_ATTR_DCB_BUFFER -> buffer = buffer(attribute);
                case DCB_ATTR_DCB_APP_TRUST_TABLE -> appTrust = trustOrder(attribute);
                case DCB_ATTR_DCB_REWR_TABLE -> rewriteTable = appEntries(attribute);
                default -> {
                    // QCN, QCN stats, peer ETS/PFC/APP and attributes of newer kernels: not read
                }
            }
        }
        return new IeeeDcbConfig(ifname, dcbx == null ? null : dcbx.u8(), ets, pfc, appTable, appTrust,
                rewriteTable, buffer, tcMaxrate);
    }

    /** Decodes the {@code DCB_CMD_GDCBX} reply: its {@code DCB_ATTR_DCBX} u8. */
    public static int parseGdcbx(List<NetlinkMessage> reply) throws NetlinkException {
        NetlinkAttribute dcbx = NetlinkAttribute.first(replyAttributes(reply, DcbAbi.DCB_CMD_GDCBX), DCB_ATTR_DCBX);
        if (dcbx == null) {
            throw NetlinkException.malformed(REPLY + ": DCB_CMD_GDCBX reply has no DCB_ATTR_DCBX (14)");
        }
        return dcbx.u8();
    }

    private static List<NetlinkAttribute> replyAttributes(List<NetlinkMessage> reply, int cmd)
            throws NetlinkException {
        if (reply.size() != 1) {
            throw NetlinkException.malformed(REPLY + ": expected one message, got " + reply.size());
        }
        NetlinkMessage message = reply.get(0);
        if (message.type() != RTM_GETDCB) {
            throw NetlinkException.malformed(REPLY + ": message type " + message.type() + ", expected RTM_GETDCB ("
                    + RTM_GETDCB + ")");
        }
        int replyCmd = message.payloadU8(1, "struct dcbmsg.cmd");
        if (replyCmd != cmd) {
            throw NetlinkException.malformed(REPLY + ": dcbmsg.cmd " + replyCmd + ", expected " + cmd);
        }
        return message.attributes(DCBMSG_SIZE, REPLY);
    }

    /** {@code struct ieee_ets}: willing@0 ets_cap@1 cbs@2 tc_tx_bw@3 tc_rx_bw@11 tc_tsa@19 prio_tc@27 reco@35,43,51. */
    private static IeeeEts ets(NetlinkAttribute attribute) throws NetlinkException {
        ByteBuffer ets = attribute.struct(IEEE_ETS_SIZE, "struct ieee_ets");
        return new IeeeEts(u8(ets, 0), u8(ets, 1), u8(ets, 2), u8s(ets, 3), u8s(ets, 11), u8s(ets, 19), u8s(ets, 27),
                u8s(ets, 35), u8s(ets, 43), u8s(ets, 51));
    }

    /** {@code struct ieee_pfc}: pfc_cap@0 pfc_en@1 mbc@2 delay u16@4 requests u64[8]@8 indications u64[8]@72. */
    private static IeeePfc pfc(NetlinkAttribute attribute) throws NetlinkException {
        ByteBuffer pfc = attribute.struct(IEEE_PFC_SIZE, "struct ieee_pfc");
        return new IeeePfc(u8(pfc, 0), u8(pfc, 1), u8(pfc, 2), Short.toUnsignedInt(pfc.getShort(4)),
                u64s(pfc, 8, IEEE_8021QAZ_MAX_TCS), u64s(pfc, 72, IEEE_8021QAZ_MAX_TCS));
    }

    /** {@code struct dcbnl_buffer}: prio2buffer u8[8]@0 buffer_size u32[8]@8 total_size u32@40. */
    private static DcbBuffer buffer(NetlinkAttribute attribute) throws NetlinkException {
        ByteBuffer buffer = attribute.struct(DCBNL_BUFFER_SIZE, "struct dcbnl_buffer");
        List<Long> sizes = new ArrayList<>(DCBX_MAX_BUFFERS);
        for (int i = 0; i < DCBX_MAX_BUFFERS; i++) {
            sizes.add(Integer.toUnsignedLong(buffer.getInt(8 + i * 4)));
        }
        return new DcbBuffer(u8s(buffer, 0), sizes, Integer.toUnsignedLong(buffer.getInt(40)));
    }

    /** APP or rewrite table: {@code struct dcb_app} entries of type 1 (IEEE selectors) or 2 (DCB selectors). */
    private static List<DcbApp> appEntries(NetlinkAttribute table) throws NetlinkException {
        List<DcbApp> entries = new ArrayList<>();
        for (NetlinkAttribute entry : table.nested()) {
            if (entry.type() == DCB_ATTR_IEEE_APP || entry.type() == DCB_ATTR_DCB_APP) {
                ByteBuffer app = entry.struct(DCB_APP_SIZE, "struct dcb_app");
                entries.add(new DcbApp(u8(app, 0), u8(app, 1), Short.toUnsignedInt(app.getShort(2))));
            }
        }
        return entries;
    }

    /** Apptrust table: one u8 selector per entry (type 1 or 2 by selector), in trust order. */
    private static List<Integer> trustOrder(NetlinkAttribute table) throws NetlinkException {
        List<Integer> selectors = new ArrayList<>();
        for (NetlinkAttribute entry : table.nested()) {
            if (entry.type() == DCB_ATTR_IEEE_APP || entry.type() == DCB_ATTR_DCB_APP) {
                selectors.add(entry.u8());
            }
        }
        return selectors;
    }

    private static int u8(ByteBuffer struct, int offset) {
        return Byte.toUnsignedInt(struct.get(offset));
    }

    private static List<Integer> u8s(ByteBuffer struct, int offset) {
        List<Integer> values = new ArrayList<>(IEEE_8021QAZ_MAX_TCS);
        for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
            values.add(u8(struct, offset + i));
        }
        return values;
    }

    private static List<Long> u64s(ByteBuffer struct, int offset, int count) {
        List<Long> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            values.add(struct.getLong(offset + i * 8));
        }
        return values;
    }
}
