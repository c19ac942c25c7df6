package io.rdmamon.nativeio.rdma;

import static io.rdmamon.nativeio.netlink.RawNetlink.attr;
import static io.rdmamon.nativeio.rdma.RdmaReplies.NESTED;
import static io.rdmamon.nativeio.rdma.RdmaReplies.devIndex;
import static io.rdmamon.nativeio.rdma.RdmaReplies.hwCounter;
import static io.rdmamon.nativeio.rdma.RdmaReplies.reply;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.netlink.Netlink;
import io.rdmamon.nativeio.netlink.NetlinkAbi;
import io.rdmamon.nativeio.netlink.NetlinkException;
import io.rdmamon.nativeio.netlink.NetlinkMessage;

/** The protocol and the reasons, with a {@link Netlink} that answers one scripted way. */
class NetlinkRdmaTest {

    private static Netlink answering(Object answer) {
        return (protocol, request, description) -> {
            assertEquals(NetlinkAbi.NETLINK_RDMA, protocol);
            if (answer instanceof NetlinkException e) {
                throw e;
            }
            byte[] datagram = (byte[]) answer;
            return NetlinkMessage.parseDatagram(datagram, datagram.length);
        };
    }

    @Test
    void aPortsHwCountersComeFromOneStatGet() throws Exception {
        NetlinkRdma rdma = new NetlinkRdma(answering(reply(17, 0, devIndex(2), attr(80 | NESTED,
                hwCounter("out_of_sequence", 5), hwCounter("np_cnp_sent", 7)))));
        assertEquals(List.of("out_of_sequence", "np_cnp_sent"), List.copyOf(rdma.portHwCounters(2, 1).keySet()));
        assertEquals(Map.of("out_of_sequence", 5L, "np_cnp_sent", 7L), rdma.portHwCounters(2, 1));
    }

    @Test
    void aKernelErrnoKeepsTheNetlinkMessageAndIsNotTheMissingProtocol() {
        RdmaNetlinkException e = assertThrows(RdmaNetlinkException.class, () -> new NetlinkRdma(answering(
                new NetlinkException(Errno.EINVAL, "RDMA_NLDEV_CMD_STAT_GET of device 0 port 1 failed: EINVAL "
                        + "(Invalid argument)"))).portHwCounters(0, 1));
        assertEquals(Errno.EINVAL, e.errno());
        assertFalse(e.kernelWithoutRdmaNetlink());
        assertEquals("RDMA_NLDEV_CMD_STAT_GET of device 0 port 1 failed: EINVAL (Invalid argument)", e.getMessage());
    }

    @Test
    void aMalformedReplyNamesTheRequest() {
        RdmaNetlinkException e = assertThrows(RdmaNetlinkException.class,
                () -> new NetlinkRdma(answering(reply(9, 2, devIndex(0)))).resourceSummaries());
        assertEquals(0, e.errno());
        assertEquals("unreadable RDMA_NLDEV_CMD_RES_GET dump reply: malformed netlink data: RDMA_NLDEV_CMD_RES_GET "
                + "reply: no RDMA_NLDEV_ATTR_RES_SUMMARY (15)", e.getMessage());
    }
}
