package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.diagnosis.rules.LinkDegraded;
import io.rdmamon.collector.diagnosis.rules.RuleTable;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.testing.MovingPort;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.rdmamon.collector.model.Rule.CNP_IGNORED;
import static io.rdmamon.collector.model.Rule.ECN_NOT_ENGAGED;
import static io.rdmamon.collector.model.Rule.ERDMA_RATE_LIMITED;
import static io.rdmamon.collector.model.Rule.GID_NO_ROCEV2;
import static io.rdmamon.collector.model.Rule.LINK_DEGRADED;
import static io.rdmamon.collector.model.Rule.LINK_DOWN;
import static io.rdmamon.collector.model.Rule.PFC_NOT_ENABLED;
import static io.rdmamon.collector.model.Rule.PFC_PAUSE_STORM;
import static io.rdmamon.collector.model.Rule.ROCE_TRAFFIC_OUTSIDE_LOSSLESS_PRIORITY;
import static io.rdmamon.collector.model.Rule.TRANSPORT_LOSS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every port rule's condition on two samples one second apart: fires, and does not fire on its near misses. The
 * table runs every rule of {@link RuleTable} on each case, so a case also shows that no other rule fires.
 */
class PortRulesTest {
    private static final DiagnosisConfig DEFAULTS = DiagnosisConfig.defaults();
    private static final PortInput.ExpectedRate EXPECT_200 = new PortInput.ExpectedRate(25_000_000_000L, "MT4123",
            "Ethernet", 9, 10);

    private static Arguments row(String name, Supplier<MovingPort> port, Set<Rule> expected) {
        return Arguments.of(name, port, expected);
    }

    static Stream<Arguments> table() {
        return Stream.of(
                row("healthy RoCE on lossless 3", () -> MovingPort.roce().healthyTraffic(3), Set.of()),
                row("healthy RoCE on learned lossless 5", () -> MovingPort.roce().pfc(5).healthyTraffic(5), Set.of()),
                row("healthy RoCE on learned lossless 0", () -> MovingPort.roce().pfc(0).healthyTraffic(0), Set.of()),
                row("RDMA on 0, PFC on 3", () -> MovingPort.roce().healthyTraffic(0), Set.of(ROCE_TRAFFIC_OUTSIDE_LOSSLESS_PRIORITY)),
                row("RDMA on 3, PFC on 5 (learned)", () -> MovingPort.roce().pfc(5).healthyTraffic(3),
                        Set.of(ROCE_TRAFFIC_OUTSIDE_LOSSLESS_PRIORITY)),
                row("RDMA on 1, PFC on 0 (learned)", () -> MovingPort.roce().pfc(0).healthyTraffic(1),
                        Set.of(ROCE_TRAFFIC_OUTSIDE_LOSSLESS_PRIORITY)),
                row("RDMA on 0 seen only in the vport RDMA counters", () -> MovingPort.roce()
                        .rate("eth:tx_vport_rdma_unicast_bytes", 5e9).rate("eth:tx_prio0_bytes", 5e9),
                        Set.of(ROCE_TRAFFIC_OUTSIDE_LOSSLESS_PRIORITY)),
                row("RDMA on 0 below the traffic threshold", () -> MovingPort.roce().rate("pma:port_xmit_data", 1e6)
                        .rate("eth:tx_prio0_bytes", 1e6), Set.of()),
                row("RDMA mostly (85 %) on the lossless priority", () -> MovingPort.roce().rate("pma:port_xmit_data", 10e9)
                        .rate("eth:tx_prio3_bytes", 8.5e9).rate("eth:tx_prio0_bytes", 1.5e9), Set.of()),
                row("RDMA traffic, no PFC anywhere", () -> MovingPort.roce().pfc().healthyTraffic(3), Set.of(PFC_NOT_ENABLED)),
                row("no PFC anywhere, no RDMA traffic", () -> MovingPort.roce().pfc(), Set.of()),
                row("tx pause 98 % of the time", () -> MovingPort.roce().healthyTraffic(3)
                        .rate("eth:tx_prio3_pause_duration", 980_000), Set.of(PFC_PAUSE_STORM)),
                row("rx pause 60 % of the time", () -> MovingPort.roce().healthyTraffic(3)
                        .rate("eth:rx_prio3_pause_duration", 600_000), Set.of(PFC_PAUSE_STORM)),
                row("pause 40 % of the time", () -> MovingPort.roce().healthyTraffic(3)
                        .rate("eth:tx_prio3_pause_duration", 400_000), Set.of()),
                row("pause-storm error events", () -> MovingPort.roce().healthyTraffic(3)
                        .rate("eth:tx_pause_storm_error_events", 1).rate("eth:tx_pause_storm_warning_events", 0),
                        Set.of(PFC_PAUSE_STORM)),
                row("storm event counters that do not move", () -> MovingPort.roce().healthyTraffic(3)
                        .rate("eth:tx_pause_storm_error_events", 0).rate("eth:tx_pause_storm_warning_events", 0), Set.of()),
                row("sustained rx pauses, no ECN, no CNPs", () -> MovingPort.roce().healthyTraffic(3)
                        .rate("hw:np_ecn_marked_roce_packets", 0).rate("hw:np_cnp_sent", 0).rate("hw:rp_cnp_handled", 0)
                        .rate("eth:rx_prio3_pause", 800), Set.of(ECN_NOT_ENGAGED)),
                row("sustained rx pauses with CNPs handled", () -> MovingPort.roce().healthyTraffic(3)
                        .rate("eth:rx_prio3_pause", 800), Set.of()),
                row("few rx pauses, no ECN", () -> MovingPort.roce().healthyTraffic(3)
                        .rate("hw:np_ecn_marked_roce_packets", 0).rate("hw:np_cnp_sent", 0).rate("hw:rp_cnp_handled", 0)
                        .rate("eth:rx_prio3_pause", 5), Set.of()),
                row("pauses and CNPs that are ignored", () -> MovingPort.roce().healthyTraffic(3)
                        .rate("hw:np_ecn_marked_roce_packets", 0).rate("hw:np_cnp_sent", 0).rate("hw:rp_cnp_handled", 0)
                        .rate("hw:rp_cnp_ignored", 40).rate("eth:rx_prio3_pause", 800), Set.of(CNP_IGNORED)),
                row("CNPs ignored", () -> MovingPort.roce().healthyTraffic(3).rate("hw:rp_cnp_ignored", 3), Set.of(CNP_IGNORED)),
                row("transport errors on lossless RoCE", () -> MovingPort.roce().healthyTraffic(3)
                        .rate("hw:out_of_sequence", 25).rate("hw:packet_seq_err", 6).rate("hw:local_ack_timeout_err", 2),
                        Set.of(TRANSPORT_LOSS)),
                row("transport errors on InfiniBand", () -> MovingPort.ib().rate("hw:local_ack_timeout_err", 5),
                        Set.of(TRANSPORT_LOSS)),
                row("Soft-RoCE (rxe) retransmissions on lossless RoCE", () -> MovingPort.roce().healthyTraffic(3)
                        .rate("hw:out_of_seq_request", 3).rate("hw:rcvd_seq_err", 1).rate("hw:completer_retry_err", 1),
                        Set.of(TRANSPORT_LOSS)),
                row("rxe duplicates alone are not loss (the responder's view of a retransmission)",
                        () -> MovingPort.roce().healthyTraffic(3).rate("hw:duplicate_request", 40), Set.of()),
                row("transport errors below 1/s", () -> MovingPort.roce().healthyTraffic(3).rate("hw:out_of_sequence", 0.5),
                        Set.of()),
                row("transport errors on lossy RoCE (no PFC, no traffic)", () -> MovingPort.roce().pfc()
                        .rate("hw:out_of_sequence", 25), Set.of()),
                row("port DOWN", () -> down(MovingPort.roce()), Set.of(LINK_DOWN)),
                row("port DOWN on InfiniBand", () -> down(MovingPort.ib()), Set.of(LINK_DOWN)),
                row("RoCE port without a routable RoCE v2 GID", () -> MovingPort.roce().healthyTraffic(3)
                        .gids(MovingPort.ROUTABLE_GIDS.subList(0, 2)), Set.of(GID_NO_ROCEV2)),
                row("RoCE port with an empty GID table", () -> MovingPort.roce().healthyTraffic(3).gids(List.of()),
                        Set.of(GID_NO_ROCEV2)),
                row("RoCE port with a global IPv6 RoCE v2 GID", () -> MovingPort.roce().healthyTraffic(3).gids(List.of(
                        new GidEntry(1, "fd00:0000:0000:0000:0000:0000:0000:0002", "RoCE v2", "eth2", null))), Set.of()),
                row("eRDMA has no RoCE GIDs by design", () -> MovingPort.erdma().rate("hw:tx_bytes_cnt", 1e9), Set.of()),
                // an RNIC with RoCE v2 GIDs runs RoCE (eRDMA's RoCE v2 mode): the GID rule applies to it
                row("eRDMA in RoCE v2 mode with a link-local RoCE v2 GID only", () -> MovingPort.erdma().gids(List.of(
                        new GidEntry(0, "fe80:0000:0000:0000:0216:3eff:fe01:0203", "RoCE v2", "eth0", null))),
                        Set.of(GID_NO_ROCEV2)),
                row("eRDMA in RoCE v2 mode with an IPv4 RoCE v2 GID", () -> MovingPort.erdma().gids(List.of(
                        new GidEntry(1, "0000:0000:0000:0000:0000:ffff:0a00:0005", "RoCE v2", "eth0", "10.0.0.5"))),
                        Set.of()),
                row("eRDMA limit drops", () -> MovingPort.erdma().rate("hw:tx_bps_limit_drop_cnt", 70)
                        .rate("hw:rx_pps_limit_drop_cnt", 30), Set.of(ERDMA_RATE_LIMITED)),
                row("eRDMA limit drops, out-of-tree names", () -> MovingPort.erdma().rate("hw:hw_bps_limit_drop_cnt", 5),
                        Set.of(ERDMA_RATE_LIMITED)),
                row("eRDMA drop counters that do not move", () -> MovingPort.erdma().rate("hw:tx_bps_limit_drop_cnt", 0),
                        Set.of()));
    }

    private static MovingPort down(MovingPort port) {
        port.state(1);
        return port;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void rulesThatHoldOnTwoSamples(String name, Supplier<MovingPort> spec, Set<Rule> expected) {
        assertEquals(expected, rules(evaluate(spec.get(), DEFAULTS, null, 0)), name);
    }

    @Test
    void wrongPriorityEvidenceNamesTheShareThePriorityAndThePfcPriority() {
        Finding finding = only(evaluate(MovingPort.roce().healthyTraffic(0), DEFAULTS, null, 0));
        assertEquals("100% of RDMA tx bytes (10.0 GB/s) on priority 0, which has no PFC; PFC enabled on priority 3 only"
                + " (0% there)", finding.evidence());
        assertEquals(0.0, finding.values().get("priority"));
        assertEquals(0.0, finding.values().get("losslessShare"));
        assertEquals(10e9, finding.values().get("rdmaBytesPerSecond"), 1);
    }

    @Test
    void learnedLosslessPriorityFiveIsNamedInTheEvidence() {
        Finding finding = only(evaluate(MovingPort.roce().pfc(5).healthyTraffic(3), DEFAULTS, null, 0));
        assertTrue(finding.evidence().contains("on priority 3, which has no PFC; PFC enabled on priority 5 only"),
                finding.evidence());
    }

    @Test
    void configuredLosslessPriorityOverridesTheLearnedOne() {
        DiagnosisConfig config = DiagnosisConfig.defaults().toBuilder().losslessPriorities(new TreeSet<>(Set.of(5)))
                .build();
        Finding finding = only(evaluate(MovingPort.roce().healthyTraffic(3), config, null, 0));
        assertEquals(ROCE_TRAFFIC_OUTSIDE_LOSSLESS_PRIORITY, finding.rule());
        assertTrue(finding.evidence().contains("lossless priority 5 configured, PFC enabled on 3"), finding.evidence());
    }

    @Test
    void aConfiguredGidIndexMustBeRoceV2() {
        DiagnosisConfig config = DiagnosisConfig.defaults().toBuilder().expectedGidIndex(2).build();
        Finding finding = only(evaluate(MovingPort.roce().healthyTraffic(3), config, null, 0));
        assertEquals(GID_NO_ROCEV2, finding.rule());
        assertTrue(finding.evidence().startsWith("the configured GID index 2 is IB/RoCE v1"), finding.evidence());
    }

    @Test
    void aWrapOfA32BitQCounterIsAnIncreaseNotAReset() {
        MovingPort port = MovingPort.roce().healthyTraffic(3).total("hw:out_of_sequence", 4_294_967_290.0 - MovingPort.START);
        IbPort before = port.step(1);
        IbPort after = port.total("hw:out_of_sequence", 24 - MovingPort.START).step(1); // 4294967290 + 30 mod 2^32
        List<Finding> findings = evaluate(DEFAULTS, new PortInput(port.device(after), before, after, 1000, null, 0));
        assertEquals(Set.of(TRANSPORT_LOSS), rules(findings));
        assertEquals(30.0, only(findings).values().get("transportErrorsPerSecond"), 1e-9);
    }

    @Test
    void aCounterResetGivesNoRateAndSoNoFinding() {
        MovingPort port = MovingPort.roce().healthyTraffic(3).rate("hw:out_of_sequence", 0);
        IbPort before = port.step(1);
        IbPort after = port.total("hw:out_of_sequence", -MovingPort.START + 3).rate("hw:out_of_sequence", 0).step(1);
        assertEquals(Set.of(), rules(evaluate(DEFAULTS, new PortInput(port.device(after), before, after, 1000, null, 0))));
    }

    @Test
    void linkBelowTheExpectedRateOrFlappingIsDegraded() {
        MovingPort slow = MovingPort.roce().healthyTraffic(3).linkRate("100 Gb/sec (4X EDR)", 12_500_000_000L);
        Finding finding = only(evaluate(slow, DEFAULTS, EXPECT_200, 0));
        assertEquals(LINK_DEGRADED, finding.rule());
        assertEquals("runs at 100 Gb/sec (4X EDR), expected 200 Gb/s (the rate of 9 of 10 active MT4123 Ethernet ports"
                + " in the fleet)", finding.evidence());
        assertEquals(Set.of(), rules(evaluate(MovingPort.roce().healthyTraffic(3), DEFAULTS, EXPECT_200, 0)));
        assertEquals(Set.of(LINK_DEGRADED), rules(evaluate(MovingPort.roce().healthyTraffic(3), DEFAULTS, EXPECT_200, 2)));
    }

    @Test
    void flapsCountLinkDownedAndErrorRecoveryIncreases() {
        MovingPort port = MovingPort.roce().rate("pma:link_downed", 1).rate("pma:link_error_recovery", 2);
        IbPort before = port.step(1);
        IbPort after = port.step(5);
        assertEquals(15, LinkDegraded.flaps(before, after, 5000));
        assertEquals(0, LinkDegraded.flaps(null, after, 5000));
    }

    @Test
    void withoutAPreviousSampleOnlyStateRulesAreEvaluated() {
        MovingPort port = down(MovingPort.roce().healthyTraffic(0));
        IbPort now = port.step(1);
        assertEquals(Set.of(LINK_DOWN), rules(evaluate(DEFAULTS, new PortInput(port.device(now), null, now, 0, null, 0))));
    }

    @Test
    void everyRuleHasOneClassNamedAfterItsIdInTheTable() {
        List<Class<?>> classes = new ArrayList<>();
        RuleTable.PORT_RULES.forEach(rule -> classes.add(rule.getClass()));
        classes.add(RuleTable.AGENT_STALE.getClass());
        classes.add(RuleTable.NODE_NAME_CONFLICT.getClass());
        RuleTable.FABRIC_RULES.forEach(rule -> classes.add(rule.getClass()));
        List<Rule> ids = new ArrayList<>();
        RuleTable.PORT_RULES.forEach(rule -> ids.add(rule.id()));
        ids.add(RuleTable.AGENT_STALE.id());
        ids.add(RuleTable.NODE_NAME_CONFLICT.id());
        RuleTable.FABRIC_RULES.forEach(rule -> ids.add(rule.id()));
        assertEquals(Set.of(Rule.values()), Set.copyOf(ids), "every rule in the table");
        assertEquals(Rule.values().length, ids.size(), "each rule once: " + ids);
        for (int i = 0; i < ids.size(); i++) {
            String expected = Arrays.stream(ids.get(i).id().split("_"))
                    .map(word -> Character.toUpperCase(word.charAt(0)) + word.substring(1)).collect(Collectors.joining());
            assertEquals(expected, classes.get(i).getSimpleName(), "the class of " + ids.get(i));
            assertEquals(RuleTable.class.getPackage(), classes.get(i).getPackage());
        }
    }

    @Test
    void rateRulesFindNothingWithoutAPreviousSampleEvenWhenAskedOutsideTheEngine() {
        MovingPort port = MovingPort.roce().healthyTraffic(0).rate("hw:out_of_sequence", 50).rate("hw:rp_cnp_ignored", 50);
        IbPort now = port.step(1);
        PortInput first = new PortInput(port.device(now), null, now, 0, null, 0);
        for (PortRule rule : RuleTable.PORT_RULES) {
            assertEquals(!rule.id().fromRates(), rule.judges(first), rule.id().id());
            if (rule.id().fromRates()) {
                assertEquals(Optional.empty(), rule.evaluate(first, DEFAULTS), rule.id().id());
            }
        }
    }

    static List<Finding> evaluate(MovingPort port, DiagnosisConfig config, PortInput.ExpectedRate expected, long flaps) {
        IbPort before = port.step(1);
        IbPort after = port.step(1);
        return evaluate(config, new PortInput(port.device(after), before, after, 1000, expected, flaps));
    }

    /** The findings of every port rule that can judge {@code in}, as the engine evaluates them. */
    private static List<Finding> evaluate(DiagnosisConfig config, PortInput in) {
        List<Finding> found = new ArrayList<>();
        for (PortRule rule : RuleTable.PORT_RULES) {
            if (rule.judges(in)) {
                rule.evaluate(in, config).ifPresent(found::add);
            }
        }
        return found;
    }

    private static Set<Rule> rules(List<Finding> findings) {
        return findings.stream().map(Finding::rule).collect(Collectors.toSet());
    }

    private static Finding only(List<Finding> findings) {
        assertEquals(1, findings.size(), findings.toString());
        return findings.get(0);
    }
}
