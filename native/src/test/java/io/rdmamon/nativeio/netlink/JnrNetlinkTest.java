package io.rdmamon.nativeio.netlink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.rdmamon.nativeio.Commands;
import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.NetworkNamespace;

/**
 * The real socket against the kernel, inside a network namespace the test creates (a thread that joined it by
 * setns, see {@link NetworkNamespace}): a multi-part rtnetlink dump, an acknowledged no-op, a silent kernel, and a
 * netlink protocol that does not exist.
 */
class JnrNetlinkTest {
    private static final int RTM_NEWLINK = 16;
    private static final int RTM_GETLINK = 18;
    private static final int IFLA_IFNAME = 3;
    /** {@code struct ifinfomsg}. */
    private static final int IFINFOMSG_SIZE = 16;

    private static NetworkNamespace ns;
    private static String suffix;

    @BeforeAll
    static void createNamespaceWithVethPair() throws IOException, InterruptedException {
        Assumptions.assumeTrue(NetworkNamespace.runningAsRoot(), "creating network namespaces needs root");
        Assumptions.assumeTrue(Commands.available("ip", "-V"), "iproute2 'ip' is not installed");
        suffix = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff));
        ns = NetworkNamespace.create("rdmamon-nl" + suffix);
        ns.ip("link", "add", "nla" + suffix, "type", "veth", "peer", "name", "nlb" + suffix);
    }

    @AfterAll
    static void deleteNamespace() throws IOException, InterruptedException {
        if (ns != null) {
            ns.close();
        }
    }

    @Test
    void linkDumpIsCollectedUntilDoneAndListsTheNamespacesInterfaces() throws Exception {
        NetlinkMessageBuilder dump = new NetlinkMessageBuilder(RTM_GETLINK,
                NetlinkAbi.NLM_F_REQUEST | NetlinkAbi.NLM_F_DUMP).familyHeader(new byte[IFINFOMSG_SIZE]);
        List<NetlinkMessage> links = ns.call(() -> new JnrNetlink().exchange(NetlinkAbi.NETLINK_ROUTE, dump,
                "RTM_GETLINK dump"));
        Set<String> names = new TreeSet<>();
        for (NetlinkMessage link : links) {
            assertEquals(RTM_NEWLINK, link.type());
            assertTrue((link.flags() & NetlinkAbi.NLM_F_MULTI) != 0, link.toString());
            names.add(NetlinkAttribute.first(link.attributes(IFINFOMSG_SIZE, "RTM_NEWLINK"), IFLA_IFNAME).string());
        }
        assertEquals(new TreeSet<>(List.of("lo", "nla" + suffix, "nlb" + suffix)), names);
    }

    @Test
    void aNoopWithAckIsAcknowledgedWithNoData() throws Exception {
        NetlinkMessageBuilder noop = new NetlinkMessageBuilder(NetlinkAbi.NLMSG_NOOP,
                NetlinkAbi.NLM_F_REQUEST | NetlinkAbi.NLM_F_ACK);
        assertEquals(List.of(), ns.call(() -> new JnrNetlink().exchange(NetlinkAbi.NETLINK_ROUTE, noop, "noop")));
    }

    /** The kernel skips control messages without NLM_F_ACK: nothing ever comes back, the receive timeout ends it. */
    @Test
    void aSilentKernelEndsInEagainNotAHang() throws Exception {
        NetlinkMessageBuilder silent = new NetlinkMessageBuilder(NetlinkAbi.NLMSG_NOOP, NetlinkAbi.NLM_F_REQUEST);
        NetlinkException e = ns.call(() -> assertThrows(NetlinkException.class,
                () -> new JnrNetlink(Duration.ofMillis(150)).exchange(NetlinkAbi.NETLINK_ROUTE, silent,
                        "silent noop")));
        assertEquals(Errno.EAGAIN, e.errno());
        assertEquals("silent noop: no reply within 150 ms (EAGAIN (Resource temporarily unavailable))",
                e.getMessage());
    }

    @Test
    void anUnknownNetlinkProtocolIsRefusedBySocket() {
        NetlinkException e = assertThrows(NetlinkException.class, () -> new JnrNetlink().exchange(31,
                new NetlinkMessageBuilder(NetlinkAbi.NLMSG_NOOP, NetlinkAbi.NLM_F_REQUEST), "probe"));
        assertEquals(Errno.EPROTONOSUPPORT, e.errno());
        assertEquals("probe: socket(AF_NETLINK, SOCK_RAW, 31) failed: EPROTONOSUPPORT (Protocol not supported)",
                e.getMessage());
    }

    @Test
    void aNonPositiveTimeoutIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new JnrNetlink(Duration.ZERO));
    }
}
