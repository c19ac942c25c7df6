package io.rdmamon.cli.node;

import io.rdmamon.protocol.testing.FixtureHosts;
import org.junit.jupiter.api.Test;

import java.time.LocalTime;
import java.util.List;
import java.util.Map;

import static io.rdmamon.protocol.testing.Samples.ordered;
import static org.junit.jupiter.api.Assertions.assertEquals;

class EadmStatFormatTest {

    @Test
    void liveLinesAndSummaryOfARun() {
        StatSession session = new StatSession(new TrafficCounters(0L, 0L, 0L, 0L));
        TrafficRates first = session.update(new TrafficCounters(1_250_000_000L, 1_000_000L, 500_000L, 400L), 1.0);
        TrafficRates second = session.update(new TrafficCounters(3_750_000_000L, 3_000_000L, 1_500_000L, 1_200L), 2.0);
        // the tx counters were reset (driver reload): no tx rate for this interval
        TrafficRates third = session.update(new TrafficCounters(5_000_000_000L, 4_000_000L, 10L, 1L), 1.0);

        assertEquals("time                   rx B/s         rx p/s             tx B/s         tx p/s",
                EadmStatFormat.header());
        assertEquals("10:15:01        1,250,000,000      1,000,000            500,000            400",
                EadmStatFormat.liveLine(LocalTime.of(10, 15, 1), first));
        assertEquals("10:15:03        1,250,000,000      1,000,000            500,000            400",
                EadmStatFormat.liveLine(LocalTime.of(10, 15, 3), second));
        assertEquals("10:15:04        1,250,000,000      1,000,000                  -              -",
                EadmStatFormat.liveLine(LocalTime.of(10, 15, 4), third));

        assertEquals(List.of(
                "",
                "--- erdma_0 statistics, 3 intervals ---",
                "                       rx B/s         rx p/s             tx B/s         tx p/s",
                "max             1,250,000,000      1,000,000            500,000            400",
                "avg             1,250,000,000      1,000,000            500,000            400",
                "min             1,250,000,000      1,000,000            500,000            400"),
                EadmStatFormat.summary("erdma_0", session.intervals(), session.summaries()));
    }

    @Test
    void summaryOfVaryingRatesAndOfAColumnNeverMeasured() {
        StatSession session = new StatSession(new TrafficCounters(0L, null, 0L, null));
        session.update(new TrafficCounters(100L, null, 0L, null), 1.0);
        session.update(new TrafficCounters(400L, null, 0L, null), 1.0);
        session.update(new TrafficCounters(1_000L, null, 0L, null), 1.0);
        assertEquals(List.of(
                "",
                "--- mlx5_0 statistics, 3 intervals ---",
                "                       rx B/s         rx p/s             tx B/s         tx p/s",
                "max                       600              -                  0              -",
                "avg                       333              -                  0              -",
                "min                       100              -                  0              -"),
                EadmStatFormat.summary("mlx5_0", session.intervals(), session.summaries()));
    }

    @Test
    void statisticsListsEveryCounterOfEveryPort() {
        assertEquals(List.of(
                "erdma_0 port 1:",
                "  tx_bytes_cnt                       2,000",
                "  rx_bytes_cnt                       18,446,744,073,709,551,615"),
                EadmStatFormat.statistics(FixtureHosts.erdma(ordered("tx_bytes_cnt", 2_000L, "rx_bytes_cnt", -1L))));
        assertEquals("  port_rcv_data                      4,000", EadmStatFormat.statistics(FixtureHosts.commandsMlx5()).get(1));
        assertEquals(Map.of(), FixtureHosts.erdma(Map.of()).ports().get(0).counters());
    }
}
