package io.rdmamon.agent.probe;

import io.rdmamon.protocol.probe.PerftestSpec;
import io.rdmamon.protocol.probe.ProbeRole;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** rdma_cm ({@code -R}) goes to iWARP ports only, by the model's transport rule (PortTransport). */
class PerftestArgumentsTest {

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
    }
}
