package io.rdmamon.nativeio.ethtool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
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

/**
 * The ioctl on a real driver: a veth pair between two network namespaces the test creates
 * ({@code va} ifindex 7 in A, {@code vb} ifindex 9 in B), read from threads that joined those
 * namespaces, compared with the {@code ethtool} program run inside them.
 */
class EthtoolVethTest {
    private static final int VA_INDEX = 7;
    private static final int VB_INDEX = 9;
    private static final Pattern STAT_LINE = Pattern.compile("^\\s+(.+): (\\d+)$");

    private static NetworkNamespace a;
    private static NetworkNamespace b;
    private static String subnet;
    private final Ethtool ethtool = new JnrEthtool();

    @BeforeAll
    static void createVethPair() throws IOException, InterruptedException {
        Assumptions.assumeTrue(NetworkNamespace.runningAsRoot(), "creating network namespaces needs root");
        Assumptions.assumeTrue(Commands.available("ip", "-V"), "iproute2 'ip' is not installed");
        Assumptions.assumeTrue(Commands.available("ethtool", "--version"), "the ethtool program is not installed");
        String suffix = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x100000, 0xffffff));
        subnet = "10.203." + ThreadLocalRandom.current().nextInt(256) + ".";
        a = NetworkNamespace.create("rdmamon-t" + suffix + "a");
        b = NetworkNamespace.create("rdmamon-t" + suffix + "b");
        for (NetworkNamespace ns : List.of(a, b)) {
            // no IPv6 means no router solicitations or DAD later: the counters stay quiescent
            if (Files.exists(Path.of("/proc/sys/net/ipv6"))) {
                ns.exec("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1");
            }
        }
        a.ip("link", "add", "va", "index", String.valueOf(VA_INDEX), "type", "veth",
                "peer", "name", "vb", "index", String.valueOf(VB_INDEX), "netns", b.name());
        a.ip("addr", "add", subnet + "1/30", "dev", "va");
        b.ip("addr", "add", subnet + "2/30", "dev", "vb");
        a.ip("link", "set", "va", "up");
        b.ip("link", "set", "vb", "up");
        sendDatagramsFromAToB(3);
    }

    /** Proves the threads really are in their namespaces: these addresses exist only there. */
    private static void sendDatagramsFromAToB(int count) throws IOException, InterruptedException {
        DatagramSocket receiver = b.call(() -> {
            DatagramSocket socket = new DatagramSocket(new InetSocketAddress(subnet + "2", 0));
            socket.setSoTimeout(5000);
            return socket;
        });
        try {
            Future<List<String>> received = b.submit(() -> {
                List<String> payloads = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    DatagramPacket packet = new DatagramPacket(new byte[64], 64);
                    receiver.receive(packet);
                    payloads.add(new String(packet.getData(), 0, packet.getLength(), StandardCharsets.US_ASCII));
                }
                return payloads;
            });
            List<String> sent = a.call(() -> {
                List<String> payloads = new ArrayList<>();
                try (DatagramSocket sender = new DatagramSocket(new InetSocketAddress(subnet + "1", 0))) {
                    for (int i = 0; i < count; i++) {
                        byte[] payload = ("rdmamon " + i).getBytes(StandardCharsets.US_ASCII);
                        sender.send(new DatagramPacket(payload, payload.length,
                                new InetSocketAddress(subnet + "2", receiver.getLocalPort())));
                        payloads.add("rdmamon " + i);
                    }
                }
                return payloads;
            });
            assertEquals(sent, NetworkNamespace.await(received));
        } finally {
            receiver.close();
        }
    }

    @AfterAll
    static void deleteNamespaces() throws IOException, InterruptedException {
        try {
            if (a != null) {
                a.close();
            }
        } finally {
            if (b != null) {
                b.close();
            }
        }
    }

    @Test
    void statsEqualTheEthtoolProgramsNamesOrderAndValues() throws Exception {
        LinkedHashMap<String, Long> ours = a.call(() -> ethtool.stats("va"));
        LinkedHashMap<String, Long> program = parseEthtoolS(a.exec("ethtool", "-S", "va"));
        assertEquals(List.copyOf(program.entrySet()), List.copyOf(ours.entrySet()));
        assertEquals(VB_INDEX, ours.get("peer_ifindex"));

        LinkedHashMap<String, Long> peer = b.call(() -> ethtool.stats("vb"));
        assertEquals(List.copyOf(parseEthtoolS(b.exec("ethtool", "-S", "vb")).entrySet()), List.copyOf(peer.entrySet()));
        assertEquals(VA_INDEX, peer.get("peer_ifindex"));
    }

    @Test
    void driverInfoEqualsTheEthtoolProgram() throws Exception {
        DriverInfo info = a.call(() -> ethtool.driverInfo("va"));
        Map<String, String> program = parseEthtoolI(a.exec("ethtool", "-i", "va"));
        assertEquals(program.get("driver"), info.driver());
        assertEquals("veth", info.driver());
        assertEquals(program.get("version"), info.version());
        assertEquals(program.get("firmware-version"), info.firmwareVersion());
        assertEquals(program.get("bus-info"), info.busInfo());
        assertEquals(a.call(() -> ethtool.stats("va")).size(), info.statsCount());
    }

    @Test
    void theInterfaceIsOnlyVisibleInItsNamespace() throws Exception {
        EthtoolException e = b.call(() -> {
            try {
                ethtool.stats("va");
                return null;
            } catch (EthtoolException expected) {
                return expected;
            }
        });
        assertEquals(Errno.ENODEV, e.errno());
    }

    /**
     * A veth has no module cage: the kernel answers EOPNOTSUPP (the capability check passes as root), reported
     * as an error naming the interface and the call, as {@code ethtool -m} gets it.
     */
    @Test
    void moduleEepromOfAVethIsNotSupportedNamingTheCall() throws Exception {
        EthtoolException e = failure(a, () -> ethtool.moduleEeprom("va"));
        assertEquals(Errno.EOPNOTSUPP, e.errno());
        assertEquals("ethtool ETHTOOL_GMODULEINFO on interface 'va' failed: " + Errno.describe(Errno.EOPNOTSUPP),
                e.getMessage());
    }

    @Test
    void fecOfAVethIsNotSupported() throws Exception {
        EthtoolException e = failure(b, () -> ethtool.fecParam("vb"));
        assertEquals(Errno.EOPNOTSUPP, e.errno());
        assertEquals("ethtool ETHTOOL_GFECPARAM on interface 'vb' failed: " + Errno.describe(Errno.EOPNOTSUPP),
                e.getMessage());
    }

    @Test
    void moduleAndFecOfAnUnknownInterfaceAreNoSuchDevice() throws Exception {
        assertEquals(Errno.ENODEV, failure(a, () -> ethtool.moduleEeprom("nosuch0")).errno());
        assertEquals(Errno.ENODEV, failure(a, () -> ethtool.fecParam("nosuch0")).errno());
    }

    private interface EthtoolCall {
        Object run() throws EthtoolException;
    }

    /** The exception {@code call} throws inside {@code namespace}; fails when it returns. */
    private static EthtoolException failure(NetworkNamespace namespace, EthtoolCall call) throws Exception {
        EthtoolException e = namespace.call(() -> {
            try {
                call.run();
                return null;
            } catch (EthtoolException expected) {
                return expected;
            }
        });
        if (e == null) {
            throw new AssertionError("the call succeeded on an interface without a module or FEC");
        }
        return e;
    }

    /** {@code ethtool -S}: a "NIC statistics:" line, then "     name: value" lines. */
    private static LinkedHashMap<String, Long> parseEthtoolS(String output) {
        LinkedHashMap<String, Long> stats = new LinkedHashMap<>();
        for (String line : output.split("\n")) {
            Matcher m = STAT_LINE.matcher(line);
            if (m.matches()) {
                stats.putIfAbsent(m.group(1), Long.parseUnsignedLong(m.group(2)));
            }
        }
        return stats;
    }

    /** {@code ethtool -i}: "key: value" lines (value possibly empty). */
    private static Map<String, String> parseEthtoolI(String output) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : output.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
            }
        }
        return fields;
    }
}
