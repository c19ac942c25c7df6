package io.rdmamon.agent.qos;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.agent.sysfs.SmallFileReader;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.SourceStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Assembly, cadence and failure isolation; PFC on priority 6, RoCE ToS 184 (DSCP 46). */
class QosReaderTest {
    private static final String IF = "ens7f0np0";
    private static final String DEV = "mlx5_2";
    private static final QosConfig DCB = new QosConfig(QosConfig.SOURCE_NETLINK, 0x0d,
            new QosConfig.Pfc(8, 1 << 6, 5), null, List.of(new QosConfig.AppEntry(5, 6, 46)), null, null, null,
            null, null, null);

    @TempDir
    Path root;
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final AtomicInteger dcbReads = new AtomicInteger();

    @BeforeEach
    void ofedFiles() throws IOException {
        for (int priority = 0; priority < 8; priority++) {
            write("sys/class/net/" + IF + "/ecn/roce_np/enable/" + priority, priority == 6 ? "1\n" : "0\n");
            write("sys/class/net/" + IF + "/ecn/roce_rp/enable/" + priority, priority == 6 ? "1\n" : "0\n");
        }
        write("sys/class/net/" + IF + "/ecn/roce_np/cnp_dscp", "40\n");
        write("sys/class/net/" + IF + "/ecn/roce_np/cnp_802p_prio", "7\n");
        write("sys/class/infiniband/" + DEV + "/tc/1/traffic_class", "Global tclass=184\n");
        write("sys/kernel/config/rdma_cm/" + DEV + "/ports/1/default_roce_tos", "184\n");
    }

    private void write(String relative, String text) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private QosReader reader(DcbSource dcb, Duration refresh) {
        DcbSource counted = ifname -> {
            dcbReads.incrementAndGet();
            return dcb.read(ifname);
        };
        return new QosReader(root, SmallFileReader.SYSFS, counted, refresh, now::get);
    }

    @Test
    void assemblesDcbAndTheOptionalHostFiles() {
        QosReader.PortQos qos = reader(ifname -> DCB, Duration.ZERO).port(DEV, 1, IF, "ACTIVE");

        QosConfig config = qos.config();
        assertEquals(SourceStatus.ok(QosReader.SOURCE_QOS, IF), qos.status());
        assertEquals(DCB.pfc(), config.pfc());
        assertEquals(DCB.app(), config.app());
        assertEquals(QosConfig.SOURCE_NETLINK, config.source());
        assertEquals(true, config.ecn().notificationPoint().get(6));
        assertEquals(false, config.ecn().reactionPoint().get(2));
        assertEquals(8, config.ecn().notificationPoint().size());
        assertEquals(40, config.ecn().cnpDscp());
        assertEquals(7, config.ecn().cnpPriority());
        assertEquals(184, config.trafficClass());
        assertEquals(184, config.defaultRoceTos());
    }

    @Test
    void absentOptionalFilesAreNullNotProblems() throws IOException {
        try (var files = Files.walk(root.resolve("sys"))) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }

        QosReader.PortQos qos = reader(ifname -> DCB, Duration.ZERO).port(DEV, 1, IF, "ACTIVE");

        assertTrue(qos.status().success(), String.valueOf(qos.status().error()));
        assertNull(qos.config().ecn());
        assertNull(qos.config().trafficClass());
        assertNull(qos.config().defaultRoceTos());
        assertFalse(Files.exists(root.resolve("sys/kernel/config/rdma_cm")), "never creates the configfs directory");
    }

    @Test
    void anEmptyEcnReadIsUnknownAndABadFileCostsOnlyItsField() throws IOException {
        write("sys/class/net/" + IF + "/ecn/roce_np/enable/6", "");
        write("sys/class/net/" + IF + "/ecn/roce_rp/enable/6", "yes\n");
        write("sys/class/infiniband/" + DEV + "/tc/1/traffic_class", "tclass 184\n");

        QosReader.PortQos qos = reader(ifname -> DCB, Duration.ZERO).port(DEV, 1, IF, "ACTIVE");

        assertFalse(qos.config().ecn().notificationPoint().containsKey(6), "empty read = unknown");
        assertFalse(qos.config().ecn().reactionPoint().containsKey(6));
        assertNull(qos.config().trafficClass());
        assertEquals(184, qos.config().defaultRoceTos(), "the rest is still read");
        assertEquals(DCB.pfc(), qos.config().pfc());
        assertFalse(qos.status().success());
        assertTrue(qos.status().error().contains("sys/class/net/" + IF + "/ecn/roce_rp/enable/6: expected 0 or 1"),
                qos.status().error());
        assertTrue(qos.status().error().contains("traffic_class: unknown traffic_class format"), qos.status().error());
    }

    /** The DCB source's refusal is the netdev's status: no DCB on the netdev is unsupported, anything else failed. */
    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
            "true  | no DCB support on ens7f0np0 (EOPNOTSUPP)",
            "false | no such interface ens7f0np0 (ENODEV)"})
    void aDcbRefusalIsTheNetdevsStatusAndNoConfiguration(boolean unsupported, String reason) {
        QosReader.PortQos qos = reader(ifname -> {
            throw unsupported ? new UnsupportedCapabilityException(reason) : new IOException(reason);
        }, Duration.ZERO).port(DEV, 1, IF, "ACTIVE");

        assertNull(qos.config());
        assertEquals(unsupported ? SourceStatus.unsupported(QosReader.SOURCE_QOS, IF, reason)
                : SourceStatus.failed(QosReader.SOURCE_QOS, IF, reason), qos.status());
    }

    /** Which of a port's reading outcomes wins its one status: a failure over an absent part over ok. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "all read                | ''       | ''        | OK          | ",
            "pfc not supported       | ''       | pfc: none | UNSUPPORTED | pfc: none",
            "an OFED file unreadable | ecn: bad | ''        | FAILED      | ecn: bad",
            "both                    | ecn: bad | pfc: none | FAILED      | ecn: bad"})
    void theStatusOfAPortsReading(String name, String problem, String unsupported, SourceStatus.Outcome outcome,
                                  String reason) {
        SourceStatus status = QosReader.status(IF, problem.isEmpty() ? List.of() : List.of(problem),
                unsupported.isEmpty() ? List.of() : List.of(unsupported));

        assertEquals(outcome, status.outcome());
        assertEquals(reason, status.reason());
    }

    @Test
    void aBugInTheDcbSourceCostsOnlyThatNetdev() {
        QosReader.PortQos qos = reader(ifname -> {
            throw new IllegalStateException("parser bug");
        }, Duration.ZERO).port(DEV, 1, IF, "ACTIVE");

        assertNull(qos.config());
        assertTrue(qos.status().error().contains("parser bug"), qos.status().error());
    }

    @Test
    void reusedForTheRefreshIntervalAndReadAgainWhenTheStateChanges() {
        QosReader reader = reader(ifname -> DCB, Duration.ofSeconds(30));

        QosConfig first = reader.port(DEV, 1, IF, "ACTIVE").config();
        now.addAndGet(29_000);
        assertSame(first, reader.port(DEV, 1, IF, "ACTIVE").config());
        assertEquals(1, dcbReads.get());

        reader.port(DEV, 1, IF, "DOWN");
        assertEquals(2, dcbReads.get(), "a state change reads at once");

        now.addAndGet(30_000);
        reader.port(DEV, 1, IF, "DOWN");
        assertEquals(3, dcbReads.get(), "the interval passed");
    }

    @Test
    void zeroRefreshReadsEveryTime() {
        QosReader reader = reader(ifname -> DCB, Duration.ZERO);
        reader.port(DEV, 1, IF, "ACTIVE");
        reader.port(DEV, 1, IF, "ACTIVE");
        assertEquals(2, dcbReads.get());
    }

    @Test
    void ncclConfWhereItExists() throws IOException {
        QosReader reader = reader(ifname -> DCB, Duration.ZERO);
        assertEquals(new QosReader.NcclConf(null, null), reader.ncclConf(), "no file: nothing, no status");

        write("etc/nccl.conf", "NCCL_IB_TC=184\n# comment\nNCCL_IB_GID_INDEX=3\n");
        QosReader.NcclConf conf = reader.ncclConf();

        assertEquals(Map.of("NCCL_IB_TC", "184", "NCCL_IB_GID_INDEX", "3"), conf.entries());
        assertEquals(SourceStatus.ok(QosReader.SOURCE_QOS, "etc/nccl.conf"), conf.status());

        write("etc/nccl.conf", "=1\n");
        QosReader.NcclConf bad = reader.ncclConf();
        assertNull(bad.entries());
        assertEquals("etc/nccl.conf: line 1: no name before '='", bad.status().error());
    }
}
