package io.rdmamon.nativeio.dcb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.rdmamon.nativeio.Commands;
import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.NetworkNamespace;
import io.rdmamon.nativeio.netlink.JnrNetlink;
import io.rdmamon.nativeio.netlink.NetlinkAbi;
import io.rdmamon.nativeio.netlink.NetlinkException;
import io.rdmamon.nativeio.netlink.NetlinkMessageBuilder;

/**
 * DCB netlink against the real kernel ({@code dcb_doit}) in a network namespace the test creates, with a veth pair
 * inside (veth has no {@code dcbnl_ops}). The kernel checks, in order: cmd ≤ DCB_CMD_MAX (else EINVAL), a handler
 * for cmd, DCB_ATTR_IFNAME present (else EINVAL), the device found by that name (else ENODEV), the device has DCB
 * (else EOPNOTSUPP). So EOPNOTSUPP for the veth proves our request passed every format check and named the device,
 * and the two deliberately broken requests prove the kernel does refuse malformed ones.
 */
class NetlinkDcbVethTest {
    private static NetworkNamespace ns;
    private static String veth;
    private static String peer;

    @BeforeAll
    static void createNamespaceWithVethPair() throws IOException, InterruptedException {
        Assumptions.assumeTrue(NetworkNamespace.runningAsRoot(), "creating network namespaces needs root");
        Assumptions.assumeTrue(Commands.available("ip", "-V"), "iproute2 'ip' is not installed");
        String suffix = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff));
        veth = "dcbv" + suffix;
        peer = "dcbp" + suffix;
        ns = NetworkNamespace.create("rdmamon-dcb" + suffix);
        ns.ip("link", "add", veth, "type", "veth", "peer", "name", peer);
        ns.ip("link", "set", veth, "up");
    }

    @AfterAll
    static void deleteNamespace() throws IOException, InterruptedException {
        if (ns != null) {
            ns.close();
        }
    }

    private static DcbException readFails(String ifname) throws IOException, InterruptedException {
        return ns.call(() -> assertThrows(DcbException.class, () -> new NetlinkDcb().ieeeConfig(ifname)));
    }

    @Test
    void vethAnswersEopnotsuppNamedAsNoDcbSupport() throws Exception {
        DcbException e = readFails(veth);
        assertEquals(Errno.EOPNOTSUPP, e.errno());
        assertEquals(veth, e.interfaceName());
        assertEquals("no DCB support on " + veth + " (EOPNOTSUPP)", e.getMessage());
        assertEquals("no DCB support on " + peer + " (EOPNOTSUPP)", readFails(peer).getMessage());
    }

    @Test
    void gdcbxOnVethIsEopnotsuppToo() throws Exception {
        NetlinkException e = ns.call(() -> assertThrows(NetlinkException.class, () -> new JnrNetlink().exchange(
                NetlinkAbi.NETLINK_ROUTE, DcbMessages.request(DcbAbi.DCB_CMD_GDCBX, veth), "GDCBX")));
        assertEquals(Errno.EOPNOTSUPP, e.errno());
    }

    @Test
    void unknownInterfaceIsEnodevNamed() throws Exception {
        String missing = "nodcb" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff));
        DcbException e = readFails(missing);
        assertEquals(Errno.ENODEV, e.errno());
        assertEquals("no such interface " + missing + " (ENODEV)", e.getMessage());
    }

    /** The name is looked up in the socket's namespace: the veth does not exist in the test JVM's own namespace. */
    @Test
    void theVethIsUnknownOutsideItsNamespace() {
        DcbException e = assertThrows(DcbException.class, () -> new NetlinkDcb().ieeeConfig(veth));
        assertEquals(Errno.ENODEV, e.errno());
    }

    @Test
    void requestWithoutIfnameIsEinval() throws Exception {
        NetlinkMessageBuilder noIfname = new NetlinkMessageBuilder(DcbAbi.RTM_GETDCB,
                NetlinkAbi.NLM_F_REQUEST | NetlinkAbi.NLM_F_ACK).familyHeader(new byte[] {0, DcbAbi.DCB_CMD_IEEE_GET,
                        0, 0});
        assertEquals(Errno.EINVAL, kernelErrno(noIfname));
    }

    @Test
    void commandBeyondDcbCmdMaxIsEinval() throws Exception {
        assertEquals(Errno.EINVAL, kernelErrno(DcbMessages.request(DcbAbi.DCB_CMD_MAX + 1, veth)));
        assertEquals(Errno.EINVAL, kernelErrno(DcbMessages.request(200, veth)));
    }

    private static int kernelErrno(NetlinkMessageBuilder request) throws IOException, InterruptedException {
        return ns.call(() -> assertThrows(NetlinkException.class,
                () -> new JnrNetlink().exchange(NetlinkAbi.NETLINK_ROUTE, request, "probe"))).errno();
    }

    /**
     * iproute2's {@code dcb pfc show dev <veth>} run inside the namespace under {@code strace -e write=all}: the bytes
     * it sends equal ours for the same interface and sequence number (its nlmsg_pid is 0 like ours).
     */
    @Test
    void requestBytesEqualWhatIproute2DcbSendsForTheVeth() throws Exception {
        Assumptions.assumeTrue(Commands.available("strace", "-V"), "strace is not installed (apt install strace)");
        Assumptions.assumeTrue(Commands.available("dcb", "-V"), "iproute2's dcb is not installed");
        Path trace = Files.createTempFile("rdmamon-dcb-strace", ".txt");
        try {
            int exit = Commands.exitCode(List.of("ip", "netns", "exec", ns.name(), "strace", "-o", trace.toString(),
                    "-e", "trace=sendto", "-e", "write=all", "dcb", "pfc", "show", "dev", veth));
            assertEquals(1, exit, "dcb fails on a veth (no DCB support)");
            byte[] sent = firstSendtoBytes(Files.readAllLines(trace));
            int seq = ByteBuffer.wrap(sent, 8, 4).order(ByteOrder.nativeOrder()).getInt();
            assertArrayEquals(sent, DcbMessages.request(DcbAbi.DCB_CMD_IEEE_GET, veth).build(seq, 0),
                    "dcb sent " + Arrays.toString(sent));
        } finally {
            Files.deleteIfExists(trace);
        }
    }

    private static final Pattern HEX_LINE = Pattern.compile("^ \\| [0-9a-f]{5}  (.{1,49})");
    private static final Pattern HEX_BYTE = Pattern.compile("\\b[0-9a-f]{2}\\b");

    /** strace's hex dump under the first sendto line: {@code " | 00000  1c 00 00 00 ...  ascii |"}. */
    private static byte[] firstSendtoBytes(List<String> lines) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean inDump = false;
        for (String line : lines) {
            Matcher hex = HEX_LINE.matcher(line);
            if (hex.find()) {
                inDump = true;
                Matcher b = HEX_BYTE.matcher(hex.group(1));
                while (b.find()) {
                    bytes.write(Integer.parseInt(b.group(), 16));
                }
            } else if (inDump) {
                break;
            }
        }
        assertTrue(bytes.size() > 0, "strace printed no hex dump of dcb's sendto: " + lines);
        return bytes.toByteArray();
    }
}
