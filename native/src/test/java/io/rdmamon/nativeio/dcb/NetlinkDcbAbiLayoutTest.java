package io.rdmamon.nativeio.dcb;

import static io.rdmamon.nativeio.LayoutProbe.constant;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rdmamon.nativeio.LayoutProbe;
import io.rdmamon.nativeio.netlink.NetlinkAbi;

/**
 * The numbers {@link NetlinkAbi}, {@link DcbAbi} and the decoders in {@link DcbMessages} use, against gcc and the
 * machine's kernel headers ({@code src/test/c/layout_probe.c}). The apptrust and rewrite attributes (11, 12) and
 * {@code DCB_ATTR_DCB_APP} (2) are newer than Debian 12's headers; their values come from docs/reference/qos-dcb.md
 * §1.1.
 */
class NetlinkDcbAbiLayoutTest {

    @Test
    void netlinkConstantsMatchTheHeaders() throws Exception {
        assertEquals(constant("AF_NETLINK"), NetlinkAbi.AF_NETLINK);
        assertEquals(constant("SOCK_RAW"), NetlinkAbi.SOCK_RAW);
        assertEquals(constant("SOCK_CLOEXEC"), NetlinkAbi.SOCK_CLOEXEC);
        assertEquals(constant("NETLINK_ROUTE"), NetlinkAbi.NETLINK_ROUTE);
        assertEquals(constant("NETLINK_RDMA"), NetlinkAbi.NETLINK_RDMA);
        assertEquals(constant("NETLINK_GENERIC"), NetlinkAbi.NETLINK_GENERIC);
        assertEquals(constant("SOL_SOCKET"), NetlinkAbi.SOL_SOCKET);
        assertEquals(constant("SO_RCVTIMEO"), NetlinkAbi.SO_RCVTIMEO);
        assertEquals(constant("SOL_NETLINK"), NetlinkAbi.SOL_NETLINK);
        assertEquals(constant("NETLINK_CAP_ACK"), NetlinkAbi.NETLINK_CAP_ACK);
        assertEquals(constant("NETLINK_EXT_ACK"), NetlinkAbi.NETLINK_EXT_ACK);
        assertEquals(constant("MSG_TRUNC"), NetlinkAbi.MSG_TRUNC);
        assertEquals(constant("NLMSG_HDRLEN"), NetlinkAbi.NLMSG_HDRLEN);
        assertEquals(constant("NLA_HDRLEN"), NetlinkAbi.NLA_HDRLEN);
        assertEquals(constant("NLMSG_NOOP"), NetlinkAbi.NLMSG_NOOP);
        assertEquals(constant("NLMSG_ERROR"), NetlinkAbi.NLMSG_ERROR);
        assertEquals(constant("NLMSG_DONE"), NetlinkAbi.NLMSG_DONE);
        assertEquals(constant("NLMSG_OVERRUN"), NetlinkAbi.NLMSG_OVERRUN);
        assertEquals(constant("NLM_F_REQUEST"), NetlinkAbi.NLM_F_REQUEST);
        assertEquals(constant("NLM_F_MULTI"), NetlinkAbi.NLM_F_MULTI);
        assertEquals(constant("NLM_F_ACK"), NetlinkAbi.NLM_F_ACK);
        assertEquals(constant("NLM_F_DUMP"), NetlinkAbi.NLM_F_DUMP);
        assertEquals(constant("NLM_F_CAPPED"), NetlinkAbi.NLM_F_CAPPED);
        assertEquals(constant("NLM_F_ACK_TLVS"), NetlinkAbi.NLM_F_ACK_TLVS);
        assertEquals(constant("NLMSGERR_ATTR_MSG"), NetlinkAbi.NLMSGERR_ATTR_MSG);
        assertEquals(constant("NLA_F_NESTED"), NetlinkAbi.NLA_F_NESTED);
        assertEquals(constant("NLA_F_NET_BYTEORDER"), NetlinkAbi.NLA_F_NET_BYTEORDER);
        assertEquals(0x3fff, NetlinkAbi.NLA_TYPE_MASK);
        Map<String, Long> probe = LayoutProbe.values();
        assertEquals(probe.get("sockaddr_nl sizeof"), (long) NetlinkAbi.SOCKADDR_NL_SIZE);
        assertEquals(probe.get("timeval sizeof"), (long) NetlinkAbi.TIMEVAL_SIZE);
    }

    @Test
    void dcbConstantsMatchTheHeaders() throws Exception {
        assertEquals(constant("RTM_GETDCB"), DcbAbi.RTM_GETDCB);
        assertEquals(constant("DCB_CMD_IEEE_GET"), DcbAbi.DCB_CMD_IEEE_GET);
        assertEquals(constant("DCB_CMD_GDCBX"), DcbAbi.DCB_CMD_GDCBX);
        assertEquals(constant("DCB_CMD_MAX"), DcbAbi.DCB_CMD_MAX);
        assertEquals(constant("DCB_ATTR_IFNAME"), DcbAbi.DCB_ATTR_IFNAME);
        assertEquals(constant("DCB_ATTR_IEEE"), DcbAbi.DCB_ATTR_IEEE);
        assertEquals(constant("DCB_ATTR_DCBX"), DcbAbi.DCB_ATTR_DCBX);
        assertEquals(constant("DCB_ATTR_IEEE_ETS"), DcbAbi.DCB_ATTR_IEEE_ETS);
        assertEquals(constant("DCB_ATTR_IEEE_PFC"), DcbAbi.DCB_ATTR_IEEE_PFC);
        assertEquals(constant("DCB_ATTR_IEEE_APP_TABLE"), DcbAbi.DCB_ATTR_IEEE_APP_TABLE);
        assertEquals(constant("DCB_ATTR_IEEE_MAXRATE"), DcbAbi.DCB_ATTR_IEEE_MAXRATE);
        assertEquals(constant("DCB_ATTR_DCB_BUFFER"), DcbAbi.DCB_ATTR_DCB_BUFFER);
        assertEquals(constant("DCB_ATTR_IEEE_APP"), DcbAbi.DCB_ATTR_IEEE_APP);
        assertEquals(constant("IEEE_8021QAZ_MAX_TCS"), DcbAbi.IEEE_8021QAZ_MAX_TCS);
        assertEquals(constant("DCBX_MAX_BUFFERS"), DcbAbi.DCBX_MAX_BUFFERS);
    }

    /** The sizes DcbAbi checks payloads against, and the offsets DcbMessages decodes (literals in its decoders). */
    @Test
    void dcbStructLayoutsMatchGcc() throws Exception {
        Map<String, Long> probe = LayoutProbe.values();
        assertEquals(probe.get("dcbmsg sizeof"), (long) DcbAbi.DCBMSG_SIZE);
        assertEquals(1L, probe.get("dcbmsg.cmd"));
        assertEquals(probe.get("ieee_ets sizeof"), (long) DcbAbi.IEEE_ETS_SIZE);
        assertEquals(Map.of("tc_tx_bw", 3L, "tc_rx_bw", 11L, "tc_tsa", 19L, "prio_tc", 27L, "tc_reco_bw", 35L,
                        "tc_reco_tsa", 43L, "reco_prio_tc", 51L),
                Map.of("tc_tx_bw", probe.get("ieee_ets.tc_tx_bw"), "tc_rx_bw", probe.get("ieee_ets.tc_rx_bw"),
                        "tc_tsa", probe.get("ieee_ets.tc_tsa"), "prio_tc", probe.get("ieee_ets.prio_tc"),
                        "tc_reco_bw", probe.get("ieee_ets.tc_reco_bw"), "tc_reco_tsa",
                        probe.get("ieee_ets.tc_reco_tsa"), "reco_prio_tc", probe.get("ieee_ets.reco_prio_tc")));
        assertEquals(probe.get("ieee_pfc sizeof"), (long) DcbAbi.IEEE_PFC_SIZE);
        assertEquals(4L, probe.get("ieee_pfc.delay"));
        assertEquals(8L, probe.get("ieee_pfc.requests"));
        assertEquals(72L, probe.get("ieee_pfc.indications"));
        assertEquals(probe.get("dcb_app sizeof"), (long) DcbAbi.DCB_APP_SIZE);
        assertEquals(2L, probe.get("dcb_app.protocol"));
        assertEquals(probe.get("ieee_maxrate sizeof"), (long) DcbAbi.IEEE_MAXRATE_SIZE);
        assertEquals(probe.get("dcbnl_buffer sizeof"), (long) DcbAbi.DCBNL_BUFFER_SIZE);
        assertEquals(8L, probe.get("dcbnl_buffer.buffer_size"));
        assertEquals(40L, probe.get("dcbnl_buffer.total_size"));
    }
}
