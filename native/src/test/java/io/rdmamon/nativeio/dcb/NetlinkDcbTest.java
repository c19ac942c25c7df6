package io.rdmamon.nativeio.dcb;

import static io.rdmamon.nativeio.dcb.DcbReplies.attr;
import static io.rdmamon.nativeio.dcb.DcbReplies.dcbmsg;
import static io.rdmamon.nativeio.netlink.RawNetlink.concat;
import static io.rdmamon.nativeio.netlink.RawNetlink.message;
import static io.rdmamon.nativeio.netlink.RawNetlink.u8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.netlink.Netlink;
import io.rdmamon.nativeio.netlink.NetlinkAbi;
import io.rdmamon.nativeio.netlink.NetlinkException;
import io.rdmamon.nativeio.netlink.NetlinkMessage;
import io.rdmamon.nativeio.netlink.NetlinkMessageBuilder;

/** The GDCBX fallback and the error reasons, with a scripted {@link Netlink}. */
class NetlinkDcbTest {

    /** Answers each exchange with the next scripted reply (a datagram) or failure, recording the requests. */
    private static final class ScriptedNetlink implements Netlink {
        final Deque<Object> script = new ArrayDeque<>();
        final List<byte[]> requests = new ArrayList<>();

        @Override
        public List<NetlinkMessage> exchange(int protocol, NetlinkMessageBuilder request,
                                             String description) throws NetlinkException {
            assertEquals(NetlinkAbi.NETLINK_ROUTE, protocol);
            requests.add(request.build(1, 0));
            Object next = script.removeFirst();
            if (next instanceof NetlinkException failure) {
                throw failure;
            }
            byte[] datagram = (byte[]) next;
            return NetlinkMessage.parseDatagram(datagram, datagram.length);
        }
    }

    private static byte[] ieeeReply(byte[]... topLevel) {
        return message(DcbAbi.RTM_GETDCB, 5, 1, 0, dcbmsg(DcbAbi.DCB_CMD_IEEE_GET), concat(topLevel));
    }

    @Test
    void dcbxComesFromGdcbxWhenTheIeeeReplyLacksIt() throws Exception {
        ScriptedNetlink netlink = new ScriptedNetlink();
        netlink.script.add(ieeeReply(attr(13, attr(3))));
        netlink.script.add(message(DcbAbi.RTM_GETDCB, 5, 1, 0, dcbmsg(DcbAbi.DCB_CMD_GDCBX), attr(14, u8(0x0c))));
        IeeeDcbConfig config = new NetlinkDcb(netlink).ieeeConfig("ens6f1");
        assertEquals(0x0c, config.dcbx());
        assertEquals(List.of(DcbAbi.DCB_CMD_IEEE_GET, DcbAbi.DCB_CMD_GDCBX),
                netlink.requests.stream().map(r -> (int) r[17]).toList());
    }

    @Test
    void noGdcbxWhenTheIeeeReplyHasDcbxAndNoneWithoutGetdcbx() throws Exception {
        ScriptedNetlink withDcbx = new ScriptedNetlink();
        withDcbx.script.add(ieeeReply(attr(13), attr(14, u8(0x0d))));
        assertEquals(0x0d, new NetlinkDcb(withDcbx).ieeeConfig("ens6f1").dcbx());
        assertEquals(1, withDcbx.requests.size());

        ScriptedNetlink noGetdcbx = new ScriptedNetlink();
        noGetdcbx.script.add(ieeeReply(attr(13, attr(3, attr(1, DcbReplies.app(5, 4, 34))))));
        noGetdcbx.script.add(new NetlinkException(Errno.EOPNOTSUPP, "RTM_GETDCB DCB_CMD_GDCBX on ens6f1 failed"));
        IeeeDcbConfig config = new NetlinkDcb(noGetdcbx).ieeeConfig("ens6f1");
        assertNull(config.dcbx());
        assertEquals(List.of(new IeeeDcbConfig.DcbApp(5, 4, 34)), config.appTable());
    }

    @Test
    void kernelErrorsBecomeReasonsNamingTheInterface() {
        assertReason(Errno.EOPNOTSUPP, "no DCB support on veth3 (EOPNOTSUPP)");
        assertReason(Errno.ENODEV, "no such interface veth3 (ENODEV)");
        assertReason(Errno.EPERM, "not permitted to read the DCB configuration of veth3 (EPERM)");
        assertReason(Errno.EAGAIN, "RTM_GETDCB DCB_CMD_IEEE_GET on veth3: no reply within 2000 ms");
    }

    private static void assertReason(int errno, String message) {
        ScriptedNetlink netlink = new ScriptedNetlink();
        netlink.script.add(new NetlinkException(errno, "RTM_GETDCB DCB_CMD_IEEE_GET on veth3: no reply within 2000 ms"));
        DcbException e = assertThrows(DcbException.class, () -> new NetlinkDcb(netlink).ieeeConfig("veth3"));
        assertEquals(errno, e.errno());
        assertEquals("veth3", e.interfaceName());
        assertEquals(message, e.getMessage());
    }

    @Test
    void aMalformedReplyIsNamedAndCostsOnlyThatInterface() throws Exception {
        ScriptedNetlink netlink = new ScriptedNetlink();
        netlink.script.add(ieeeReply(attr(13, attr(2, new byte[12]))));
        netlink.script.add(ieeeReply(attr(13), attr(14, u8(0x0d))));
        NetlinkDcb dcb = new NetlinkDcb(netlink);
        DcbException e = assertThrows(DcbException.class, () -> dcb.ieeeConfig("ens6f0"));
        assertEquals(0, e.errno());
        assertEquals("unreadable DCB_CMD_IEEE_GET reply for ens6f0: malformed netlink data: RTM_GETDCB reply/13/2:"
                + " payload is 12 bytes, struct ieee_pfc (136 bytes) needs 136", e.getMessage());
        assertEquals(0x0d, dcb.ieeeConfig("ens6f1").dcbx());
    }

    @Test
    void invalidNamesNeverReachNetlink() {
        ScriptedNetlink netlink = new ScriptedNetlink();
        DcbException e = assertThrows(DcbException.class, () -> new NetlinkDcb(netlink).ieeeConfig("../etc"));
        assertEquals("invalid interface name '../etc': it contains '/', ':', NUL or whitespace", e.getMessage());
        assertEquals(List.of(), netlink.requests);
    }
}
