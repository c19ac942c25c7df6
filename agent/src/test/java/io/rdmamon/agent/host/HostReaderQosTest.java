package io.rdmamon.agent.host;

import io.rdmamon.agent.qos.DcbSource;
import io.rdmamon.agent.testing.SteppedClock;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.model.SourceStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The QoS part of a host read: the DCB source the lead plugs in for {@code /}, and the agent's slow cadence. */
class HostReaderQosTest {
    @TempDir
    Path root;

    private final List<String> dcbReads = new ArrayList<>();

    /** PFC on priority 6 for every netdev, as a netlink reader would answer. */
    private DcbSource netlinkLike() {
        return ifname -> {
            dcbReads.add(ifname);
            return new QosConfig(QosConfig.SOURCE_NETLINK, 0x0d, new QosConfig.Pfc(8, 1 << 6, 1), null,
                    List.of(new QosConfig.AppEntry(5, 6, 48)), null, null, null, null, null, null);
        };
    }

    private final SteppedClock clock = new SteppedClock(Instant.parse("2026-11-23T00:00:00Z"));

    @Test
    void aGivenDcbSourceReplacesTheCapturesAndTheHostFilesAreStillMerged() throws IOException {
        Fixtures.copy("mlx5-roce", root);

        HostSample sample = HostReader.builder(root).dcbSource(netlinkLike()).build().read("n");

        QosConfig first = sample.devices().get(0).ports().get(0).qos();
        assertEquals(QosConfig.SOURCE_NETLINK, first.source());
        assertEquals(List.of(6), first.pfcPriorities());
        assertEquals(48, first.ecn().cnpDscp(), "MLNX_OFED files of the fixture");
        assertEquals(106, first.trafficClass());
        assertEquals(List.of("ens1f0np0", "ens1f1np1"), dcbReads);
        assertEquals(SourceStatus.ok("qos", "ens1f1np1"), sample.sources().stream()
                .filter(s -> s.source().equals("qos") && s.subject().equals("ens1f1np1")).findFirst().orElseThrow());
    }

    @Test
    void anUnavailableSourceIsEachRoceNetdevsStatusAndCostsNothingElse() throws IOException {
        Fixtures.copy("mlx5-roce", root);

        HostSample sample = HostReader.builder(root)
                .dcbSource(DcbSource.unavailable("DCB netlink reader not built in")).build().read("n");

        assertNull(sample.devices().get(0).ports().get(0).qos());
        assertEquals(List.of(
                SourceStatus.failed("qos", "ens1f0np0", "ens1f0np0: DCB netlink reader not built in"),
                SourceStatus.failed("qos", "ens1f1np1", "ens1f1np1: DCB netlink reader not built in")),
                sample.sources().stream().filter(s -> !s.success()).toList());
        assertEquals(2, sample.devices().size());
    }

    @Test
    void theAgentsRefreshReusesTheReadingUntilItExpiresOrThePortStateChanges() throws IOException {
        Fixtures.copy("mlx5-roce", root);
        HostReader reader = HostReader.builder(root).clock(clock).dcbSource(netlinkLike())
                .qosRefresh(Duration.ofSeconds(30)).build();

        reader.read("n");
        clock.stepSeconds(29);
        HostSample reused = reader.read("n");
        assertEquals(2, dcbReads.size(), "one read per netdev in 30 s");
        assertEquals(List.of(6), reused.devices().get(1).ports().get(0).qos().pfcPriorities());
        assertEquals(2, reused.sources().stream().filter(s -> s.source().equals("qos") && !s.subject().startsWith("etc"))
                .count(), "the reused reading keeps its status");

        Files.writeString(root.resolve("sys/class/infiniband/mlx5_1/ports/1/state"), "1: DOWN\n");
        reader.read("n");
        assertEquals(List.of("ens1f0np0", "ens1f1np1", "ens1f1np1"), dcbReads, "the port whose state changed, at once");

        clock.stepSeconds(2);
        reader.read("n");
        assertEquals(4, dcbReads.size(), "mlx5_0's reading expired");
    }
}
