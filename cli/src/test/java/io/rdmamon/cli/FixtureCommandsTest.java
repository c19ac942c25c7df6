package io.rdmamon.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node subcommands on the agent's captured RoCE host root. Expected values are derived from
 * the fixture files themselves, independently of the reader.
 */
class FixtureCommandsTest {
    /** Surefire runs in the module directory (cli/); the fixture belongs to the agent module. */
    private static final Path ROOT = Path.of("..", "agent", "src", "test", "fixtures", "mlx5-roce")
            .toAbsolutePath().normalize();
    private static final Path IB = ROOT.resolve("sys/class/infiniband");
    private static final String ZERO_GID = "0000:0000:0000:0000:0000:0000:0000:0000";
    private static final String PLACEHOLDER_GID = "fe80:0000:0000:0000:0000:0000:0000:0000";

    @BeforeAll
    static void fixturePresent() {
        assertTrue(Files.isDirectory(IB), () -> "agent fixture missing (run from the cli module directory): " + IB);
    }

    private static CliRun run(String... args) {
        String[] withRoot = Stream.concat(Stream.of(args), Stream.of("--host-root", ROOT.toString()))
                .toArray(String[]::new);
        return CliRun.of(withRoot);
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static String firstDevice() throws IOException {
        return names(IB).get(0);
    }

    @Test
    void unknownDeviceListsTheDevicesThatExist() throws IOException {
        for (String[] args : List.of(new String[] {"devinfo", "-d", "mlx9_0"}, new String[] {"gids", "-d", "mlx9_0"},
                new String[] {"nccl-env", "-d", "mlx9_0"},
                new String[] {"stat", "-d", "mlx9_0", "-l", "-c", "1"}, new String[] {"perf", "-d", "mlx9_0"})) {
            CliRun result = run(args);
            assertEquals(2, result.exitCode(), result::toString);
            assertArrayEquals(new String[] {
                    "rdmamon: unknown device 'mlx9_0' (devices: " + String.join(", ", names(IB)) + ")"},
                    result.errLines());
        }
    }

    @Test
    void ncclEnvPrintsExportLinesWithReasonsForTheFixtureHost() throws IOException {
        CliRun result = run("nccl-env");
        assertEquals(0, result.exitCode(), result::toString);
        List<String> lines = result.out().lines().toList();
        // independent of the advisor: every port whose state file says ACTIVE, and the GID types file of the index
        List<String> active = new ArrayList<>();
        for (String dev : names(IB)) {
            for (String port : names(IB.resolve(dev).resolve("ports"))) {
                if (Files.readString(IB.resolve(dev).resolve("ports").resolve(port).resolve("state")).contains("ACTIVE")) {
                    active.add(dev + ":" + port);
                }
            }
        }
        assertTrue(lines.get(0).startsWith("export NCCL_IB_HCA==" + String.join(",", active) + "  # "), lines.get(0));
        String index = lines.get(1).replaceAll("export NCCL_IB_GID_INDEX=(\\d+) .*", "$1");
        for (String dev : names(IB)) {
            assertEquals("RoCE v2", Files.readString(IB.resolve(dev).resolve("ports/1/gid_attrs/types").resolve(index)).trim());
        }
        // the fixture's two netdevs have PFC on priorities 3 and 5 under the default DSCP map (DSCP d -> d >> 3): no
        // one DSCP reaches a PFC priority on both, so no NCCL_IB_TC is right for the host
        assertEquals("# NCCL_IB_TC unset: no DSCP maps to a PFC priority on every RoCE port (rule roce_dscp_not_lossless)",
                lines.get(2));
        assertTrue(lines.get(3).startsWith("export NCCL_SOCKET_IFNAME=="), lines.get(3));
        CliRun json = run("nccl-env", "--json");
        assertTrue(json.out().contains("\"name\" : \"NCCL_IB_GID_INDEX\""), json.out());
        assertTrue(json.out().contains("\"export\" : [ \"" + lines.get(0).replace("\"", "\\\"")), json.out());
    }

    @Test
    void unknownInterfaceListsTheInterfacesThatExist() throws IOException {
        CliRun result = run("perf", "-i", "nope0", "-c", "1");
        assertEquals(2, result.exitCode(), result::toString);
        assertArrayEquals(new String[] {"rdmamon: unknown interface 'nope0' (interfaces: "
                + String.join(", ", names(ROOT.resolve("sys/class/net"))) + ")"}, result.errLines());
    }

    @Test
    void gidsMatchTheFixtureGidFiles() throws IOException {
        List<String> expectedRows = new ArrayList<>();
        for (String dev : names(IB)) {
            for (String port : names(IB.resolve(dev).resolve("ports"))) {
                Path gids = IB.resolve(dev).resolve("ports").resolve(port).resolve("gids");
                if (!Files.isDirectory(gids)) {
                    continue;
                }
                List<Integer> indexes = names(gids).stream().map(Integer::parseInt).sorted().toList();
                for (int index : indexes) {
                    String gid = Files.readString(gids.resolve(String.valueOf(index))).strip();
                    if (!gid.equals(ZERO_GID) && !gid.equals(PLACEHOLDER_GID)) {
                        expectedRows.add(dev + "\t" + port + "\t" + index + "\t" + gid + "\t");
                    }
                }
            }
        }
        CliRun result = run("gids");
        assertEquals(0, result.exitCode(), result::toString);
        List<String> lines = result.out().lines().toList();
        assertEquals("DEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4  \t\tVER\tDEV", lines.get(0));
        assertEquals("n_gids_found=" + expectedRows.size(), lines.get(lines.size() - 1));
        List<String> rows = lines.subList(2, lines.size() - 1);
        assertEquals(expectedRows.size(), rows.size(), result::toString);
        for (int i = 0; i < rows.size(); i++) {
            assertTrue(rows.get(i).startsWith(expectedRows.get(i)), rows.get(i) + " vs " + expectedRows.get(i));
        }
        assertFalse(expectedRows.isEmpty(), "the RoCE fixture should have GIDs");
    }

    @Test
    void devinfoShowsEveryDeviceWithItsFirmware() throws IOException {
        CliRun result = run("devinfo");
        assertEquals(0, result.exitCode(), result::toString);
        for (String dev : names(IB)) {
            assertTrue(result.out().contains("hca_id:\t" + dev + "\n"), result::toString);
            Path fw = IB.resolve(dev).resolve("fw_ver");
            if (Files.exists(fw)) {
                assertTrue(result.out().contains("\tfw_ver:\t\t\t\t" + Files.readString(fw).strip() + "\n"),
                        result::toString);
            }
        }
        JsonNode json = new ObjectMapper().readTree(run("devinfo", "--json").out());
        List<String> ids = new ArrayList<>();
        json.forEach(d -> ids.add(d.get("hcaId").asText()));
        assertEquals(names(IB), ids);
        CliRun one = run("devinfo", "-d", firstDevice());
        assertEquals(1, one.out().lines().filter(l -> l.startsWith("hca_id:")).count(), one::toString);
    }

    @Test
    void perfOnAStillFixturePrintsOnlyTheStartLines() throws IOException {
        // fixture counters never move: no positive rate, so nothing after the start lines
        CliRun device = run("perf", "-d", firstDevice(), "-t", "0.01", "-c", "2");
        assertEquals(0, device.exitCode(), device::toString);
        assertEquals("Initializing rdmamon perf...\nSampling started.\n", device.out().replace("\r\n", "\n"));
        String netdev = names(ROOT.resolve("ethtool")).get(0);
        CliRun netdevRun = run("perf", "-i", netdev, "-t", "0.01", "-c", "1");
        assertEquals(0, netdevRun.exitCode(), netdevRun::toString);
        assertEquals("Initializing rdmamon perf...\nSampling started.\n", netdevRun.out().replace("\r\n", "\n"));
    }

    @Test
    void statLiveLinesAndSummaryOnAStillFixture() throws IOException {
        String dev = firstDevice();
        CliRun result = run("stat", "-d", dev, "-l", "-t", "0.01", "-c", "2");
        assertEquals(0, result.exitCode(), result::toString);
        List<String> lines = result.out().lines().toList();
        assertTrue(lines.get(0).startsWith("time"), result::toString);
        assertTrue(lines.get(1).matches("\\d\\d:\\d\\d:\\d\\d\\s+0\\s+0\\s+0\\s+0"), result::toString);
        assertTrue(lines.get(2).matches("\\d\\d:\\d\\d:\\d\\d\\s+0\\s+0\\s+0\\s+0"), result::toString);
        assertEquals("--- " + dev + " statistics, 2 intervals ---", lines.get(4));
        for (int i = 6; i <= 8; i++) {
            assertTrue(lines.get(i).matches("(max|avg|min)\\s+0\\s+0\\s+0\\s+0"), result::toString);
        }
        // -t/-c alone imply -l, as `vmstat 1 3` users expect
        CliRun implied = run("stat", "-d", dev, "-t", "0.01", "-c", "2");
        assertEquals(0, implied.exitCode(), implied::toString);
        assertTrue(implied.out().lines().findFirst().orElseThrow().startsWith("time"), implied::toString);
        assertEquals("--- " + dev + " statistics, 2 intervals ---", implied.out().lines().toList().get(4), implied::toString);
        CliRun snapshot = run("stat", "-d", dev);
        assertEquals(0, snapshot.exitCode(), snapshot::toString);
        assertEquals(dev + " port 1:", snapshot.out().lines().findFirst().orElseThrow());
    }

    @Test
    void sampleJsonIsTheWholeHostUnderTheGivenNodeName() throws IOException {
        CliRun result = run("sample", "--json", "--node", "fixture-node");
        assertEquals(0, result.exitCode(), result::toString);
        JsonNode json = new ObjectMapper().readTree(result.out());
        assertEquals("fixture-node", json.get("node").asText());
        List<String> devices = new ArrayList<>();
        json.get("devices").forEach(d -> devices.add(d.get("name").asText()));
        assertEquals(names(IB), devices);
        CliRun text = run("sample", "--node", "fixture-node");
        assertEquals(0, text.exitCode(), text::toString);
        assertTrue(text.out().startsWith("node fixture-node, read "), text::toString);
    }

    /** Expected rows derived from the capture file itself, not from the reader. */
    @Test
    void qosPrintsThePortsConfigurationLikeMlnxQos() throws IOException {
        String pfc = Files.readString(ROOT.resolve("dcb/ens1f0np0/pfc.json"));
        String prioPfc = pfc.substring(pfc.indexOf("\"prio_pfc\":[") + 12, pfc.indexOf(']', pfc.indexOf("prio_pfc")));
        String enabled = String.join("   ", Stream.of(prioPfc.split(",")).map(b -> b.trim().equals("true") ? "1" : "0")
                .toList());

        CliRun result = run("qos", "-i", "ens1f0np0");

        assertEquals(0, result.exitCode(), result::toString);
        List<String> lines = result.out().lines().toList();
        assertEquals("DCBX mode: OS controlled", lines.get(0));
        assertEquals("Priority trust state: dscp", lines.get(1));
        assertTrue(lines.contains("\tenabled     " + enabled), result::toString);
        assertTrue(lines.contains("ECN (DCQCN) enabled:"), result::toString);
        assertTrue(lines.contains("RoCE traffic_class: 106 (DSCP 26 -> priority 3, PFC on)"), result::toString);
        assertEquals("", result.err());
    }

    @Test
    void qosJsonAndPerDevice() throws IOException {
        CliRun json = run("qos", "-i", "ens1f1np1", "--json");
        assertEquals(0, json.exitCode(), json::toString);
        JsonNode qos = new ObjectMapper().readTree(json.out());
        assertEquals(1 << 5, qos.get("pfc").get("enabledMask").asInt());
        assertEquals("capture", qos.get("source").asText());
        assertEquals(64, qos.get("app").size());

        CliRun device = run("qos", "-d", "mlx5_1");
        assertEquals(0, device.exitCode(), device::toString);
        assertEquals("mlx5_1 port 1 (ens1f1np1):", device.out().lines().findFirst().orElseThrow());
        CliRun deviceJson = run("qos", "-d", "mlx5_1", "--json");
        JsonNode ports = new ObjectMapper().readTree(deviceJson.out());
        assertEquals("ens1f1np1", ports.get(0).get("netdev").asText());
        assertEquals(1 << 5, ports.get(0).get("qos").get("pfc").get("enabledMask").asInt());
    }

    @Test
    void qosRefusesWhatIsNotARocePortNamingIt() {
        CliRun plain = run("qos", "-i", "eno1");
        assertEquals(2, plain.exitCode(), plain::toString);
        assertArrayEquals(new String[] {"rdmamon: interface 'eno1' is not the netdev of a RoCE port "
                + "(RoCE netdevs: ens1f0np0, ens1f1np1)"}, plain.errLines());
        CliRun unknown = run("qos", "-i", "nosuch0");
        assertEquals(2, unknown.exitCode(), unknown::toString);
        assertTrue(unknown.err().startsWith("rdmamon: unknown interface 'nosuch0'"), unknown::toString);
        assertEquals(2, run("qos").exitCode(), "-i or -d is required");
        assertEquals(2, run("qos", "-i", "ens1f0np0", "-d", "mlx5_0").exitCode(), "not both");
    }

    @Test
    void qosWarnsAboutPartsThatCouldNotBeRead() {
        Path bnxt = ROOT.resolveSibling("bnxt-re");
        CliRun result = CliRun.of("qos", "-i", "ens2f0np0", "--host-root", bnxt.toString());
        assertEquals(0, result.exitCode(), result::toString);
        assertTrue(result.out().contains("Priority trust state: pcp\n"), result::toString);
        assertTrue(result.out().contains("PFC configuration: not read\n"), result::toString);
        assertArrayEquals(new String[] {"rdmamon qos: note: dcb/ens2f0np0/pfc.json: dcb pfc show printed nothing "
                + "(not supported on ens2f0np0)"}, result.errLines());
    }

    @Test
    void qosWithoutCapturesFailsWithTheReason() {
        Path ice = ROOT.resolveSibling("irdma-no-pma");
        CliRun result = CliRun.of("qos", "-d", "irdma0", "--host-root", ice.toString());
        assertEquals(1, result.exitCode(), result::toString);
        assertTrue(result.err().contains("no QoS configuration captured"), result::toString);
    }

    @Test
    void agentRefusesANonPositiveQosRefresh() {
        CliRun result = CliRun.of("agent", "--node", "n", "--listen", "127.0.0.1:0", "--qos-refresh", "0s");
        assertEquals(2, result.exitCode(), result::toString);
        assertArrayEquals(new String[] {"rdmamon: --qos-refresh 0ms: must be positive"}, result.errLines());
    }
}
