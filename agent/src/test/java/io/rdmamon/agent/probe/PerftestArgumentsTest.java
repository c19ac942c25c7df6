package io.rdmamon.agent.probe;

import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.protocol.probe.PerftestSpec;
import io.rdmamon.protocol.probe.PerftestTest;
import io.rdmamon.protocol.probe.ProbeRole;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both programs' argv, read back by the stand-ins' {@link PerftestCommandLine}; rdma_cm ({@code -R}) goes to iWARP
 * ports only, by the model's transport rule (PortTransport).
 */
class PerftestArgumentsTest {
    private static final Path ROCE = Fixtures.root("mlx5-roce");

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "none", value = {
            // role | GID | -u | --tclass | argv after "-d mlx5_0 -i 1"
            "SERVER | none | none | none | -s 64 -n 100 -U -F -p 18600",
            "CLIENT | 3    | none | none | -x 3 -s 64 -n 100 -U -F -p 18600 192.168.1.2",
            "CLIENT | 3    | 10   | 106  | -x 3 -s 64 -n 100 -u 10 --tclass 106 -U -F -p 18600 192.168.1.2",
            "SERVER | none | 0    | 0    | -s 64 -n 100 -u 0 --tclass 0 -U -F -p 18600",
    })
    void latencyProbesRunSendLatPollingWithEveryRoundTrip(ProbeRole role, Integer gid, Integer qpTimeout,
                                                          Integer trafficClass, String tail) {
        PerftestSpec spec = PerftestSpec.latency("mlx5_0", 1, gid, 64, 100, 10, qpTimeout, trafficClass);
        List<String> argv = PerftestArguments.build(ROCE, spec, role, 18_600, "192.168.1.2");
        assertEquals("-d mlx5_0 -i 1 " + tail, String.join(" ", argv));

        PerftestCommandLine read = PerftestCommandLine.parse(argv);
        assertEquals(100, read.iterations());
        assertEquals(qpTimeout == null ? PerftestCommandLine.DEFAULT_QP_TIMEOUT : qpTimeout, read.qpTimeout());
        assertEquals(trafficClass, read.trafficClass());
        assertTrue(!read.events() && read.unsorted(), "polling (no -e: it hung under loss), every round trip");
        assertEquals(64, read.sizeBytes());
        assertEquals(18_600, read.tcpPort());
        assertEquals(role == ProbeRole.SERVER, read.isServer());
        assertFalse(read.reportGbits(), "ib_send_lat has no --report_gbits");
    }

    @Test
    void bandwidthProbesKeepTheirArgvAndTakeTimeoutAndTrafficClassWhenNamed() {
        PerftestSpec plain = new PerftestSpec("mlx5_0", 1, 3, 65_536, 5, 2, true);
        assertEquals("-d mlx5_0 -i 1 -x 3 -s 65536 -D 5 -q 2 -b -p 18515 --report_gbits -F",
                String.join(" ", PerftestArguments.build(ROCE, plain, ProbeRole.SERVER, 18_515, null)));
        PerftestSpec tuned = new PerftestSpec("mlx5_0", 1, null, 65_536, 5, 1, false, PerftestTest.WRITE_BW, 0, 12, 106);
        List<String> argv = PerftestArguments.build(ROCE, tuned, ProbeRole.SERVER, 18_515, null);
        assertEquals("-d mlx5_0 -i 1 -s 65536 -D 5 -q 1 -u 12 --tclass 106 -p 18515 --report_gbits -F",
                String.join(" ", argv));
        PerftestCommandLine read = PerftestCommandLine.parse(argv);
        assertEquals(12, read.qpTimeout());
        assertEquals(106, read.trafficClass());
        assertEquals(PerftestCommandLine.DEFAULT_ITERATIONS, read.iterations());
        assertFalse(read.events() || read.unsorted());
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    @ParameterizedTest(name = "node_type {0}, link_layer {1}, GID type {2}: -R {3}")
    @CsvSource(nullValues = "none", value = {
            "4: RNIC, Ethernet,   none,       true",   // eRDMA in iWARP mode: the MAC GID, no gid_attrs
            "4: RNIC, Ethernet,   RoCE v2,    false",  // eRDMA in RoCE v2 mode: perftest's default exchange
            "4: RNIC, Ethernet,   IB/RoCE v1, true",   // v1 is also the type of plain IB GIDs: not evidence of RoCE
            "1: CA,   Ethernet,   RoCE v2,    false",
            "1: CA,   InfiniBand, IB/RoCE v1, false"})
    void rdmaCmOnlyForIwarpPorts(String nodeType, String linkLayer, String gidType, boolean rdmaCm,
                                 @TempDir Path root) throws IOException {
        Path device = root.resolve("sys/class/infiniband/dev_0");
        write(device.resolve("node_type"), nodeType + "\n");
        write(device.resolve("ports/1/link_layer"), linkLayer + "\n");
        write(device.resolve("ports/1/gids/0"), "0016:3e01:0203:0000:0000:0000:0000:0000\n");
        if (gidType != null) {
            write(device.resolve("ports/1/gid_attrs/types/0"), gidType + "\n");
        }
        var argv = PerftestArguments.build(root, new PerftestSpec("dev_0", 1, null, 65_536, 5, 1, false),
                ProbeRole.SERVER, 18_515, null);
        assertEquals(rdmaCm, argv.contains("-R"), argv.toString());
        var latency = PerftestArguments.build(root, PerftestSpec.latency("dev_0", 1, null, 64, 100, 10, null, null),
                ProbeRole.SERVER, 18_515, null);
        assertEquals(rdmaCm, latency.contains("-R"), latency.toString());
    }
}
