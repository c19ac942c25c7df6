package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.diagnosis.rules.RuleTable;
import io.rdmamon.collector.model.QosProfile;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.json.StrictJson;
import io.rdmamon.protocol.testing.MovingPort;
import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.testing.QosSamples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.rdmamon.collector.model.Rule.ECN_DISABLED_ON_LOSSLESS;
import static io.rdmamon.collector.model.Rule.PFC_NOT_ENABLED;
import static io.rdmamon.collector.model.Rule.QOS_CONFIG_DRIFT;
import static io.rdmamon.collector.model.Rule.QOS_TRUST_NOT_DSCP;
import static io.rdmamon.collector.model.Rule.ROCE_DSCP_NOT_LOSSLESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The configuration rules on ports built in code, judged on one sample (no traffic, no previous sample): each
 * fires on its condition and stays silent on the near misses, with priorities and DSCPs other than 3 and 26.
 */
class QosRulesTest {
    private static final Set<Rule> QOS_RULES = Set.of(QOS_CONFIG_DRIFT, QOS_TRUST_NOT_DSCP, ROCE_DSCP_NOT_LOSSLESS,
            ECN_DISABLED_ON_LOSSLESS, PFC_NOT_ENABLED);
    private static final String NETDEV = "ens2f1np1";

    static IbPort port(QosConfig qos) {
        return IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                .rate("400 Gb/sec (4X NDR)").rateBytesPerSecond(50_000_000_000L).linkLayer("Ethernet").lid("0x0")
                .netdev(NETDEV).gids(MovingPort.ROUTABLE_GIDS)
                .ethtool(EthtoolStats.of(NETDEV, Map.of("rx_prio0_bytes", 0L))).qos(qos).build();
    }

    static IbDevice device(IbPort port) {
        return new IbDevice("mlx5_3", 1, "CA", "0c42:a103:00aa:0001", null, "28.39.1002", "MT4129", null, List.of(port));
    }

    /** The rules that fire on one first sample of {@code qos} (what the engine evaluates before any traffic). */
    static Map<Rule, String> fired(QosConfig qos, Map<String, String> ncclConf, QosProfile.Fleet fleet,
                                   DiagnosisConfig config) {
        IbPort port = port(qos);
        PortInput in = new PortInput(device(port), null, port, 0, null, 0, ncclConf, fleet);
        return RuleTable.PORT_RULES.stream().filter(r -> QOS_RULES.contains(r.id()) && r.judges(in))
                .flatMap(r -> r.evaluate(in, config).stream())
                .collect(Collectors.toMap(Finding::rule, Finding::evidence));
    }

    private static QosProfile.Fleet majority(QosConfig qos, int dscp) {
        return new QosProfile.Fleet(QosProfile.of(qos, dscp), 41, 43, false);
    }

    static Stream<Arguments> table() {
        QosConfig lossless4 = QosSamples.lossless(4).ecn(4).build();
        QosConfig lossless2 = QosSamples.lossless(2).ecn(2).trafficClass(4 * 18).build(); // DSCP 18 -> prio 2
        QosConfig lossless6 = QosSamples.lossless(6).dscp(10, 6).ecn(6).build(); // DSCP 10 moved to prio 6
        Map<String, String> tc136 = Map.of("NCCL_IB_TC", "136"); // DSCP 34 -> prio 4
        return Stream.of(
                Arguments.of("healthy: trust dscp, PFC 4, DSCP 34 -> 4, ECN on 4", lossless4, tc136, null, Set.of()),
                Arguments.of("healthy on priority 2 via traffic_class", lossless2, null, null, Set.of()),
                Arguments.of("healthy on priority 6 via a remapped DSCP 10 in hex", lossless6,
                        Map.of("NCCL_IB_TC", "0x28"), null, Set.of()),
                Arguments.of("after a reboot: trust pcp, PFC off", QosSamples.afterReboot().build(), tc136, null,
                        Set.of(PFC_NOT_ENABLED, QOS_TRUST_NOT_DSCP)),
                Arguments.of("trust pcp with PFC on 4", QosSamples.lossless(4).trustPcp().build(), tc136, null,
                        Set.of(QOS_TRUST_NOT_DSCP)),
                Arguments.of("trust pcp is the fleet's profile: silent", QosSamples.afterReboot().pfc(0).build(), null,
                        majority(QosSamples.afterReboot().pfc(0).build(), 0), Set.of()),
                Arguments.of("DSCP 34 mapped to priority 1", QosSamples.lossless(4).dscp(34, 1).ecn(4).build(), tc136,
                        null, Set.of(ROCE_DSCP_NOT_LOSSLESS)),
                Arguments.of("DSCP 46 (NCCL_IB_TC 184) -> priority 5, PFC on 4", lossless4,
                        Map.of("NCCL_IB_TC", "184"), null, Set.of(ROCE_DSCP_NOT_LOSSLESS)),
                Arguments.of("ToS never set: default_roce_tos 0 -> DSCP 0 -> priority 0",
                        QosSamples.lossless(2).ecn(2).defaultRoceTos(0).build(), null, null, Set.of(ROCE_DSCP_NOT_LOSSLESS)),
                Arguments.of("no DSCP known anywhere: nothing to judge the map on", lossless4, null, null, Set.of()),
                Arguments.of("no DSCP on the port: the fleet's DSCP 50 -> 6 judges it", lossless4, null,
                        majority(QosSamples.lossless(6).ecn(6).build(), 50), Set.of(ROCE_DSCP_NOT_LOSSLESS, QOS_CONFIG_DRIFT)),
                Arguments.of("ECN rp off on PFC priority 6", QosSamples.lossless(6).ecn(Map.of(6, true), Map.of(6, false))
                        .build(), Map.of("NCCL_IB_TC", "192"), null, Set.of(ECN_DISABLED_ON_LOSSLESS)),
                Arguments.of("ECN off on a priority without PFC only", QosSamples.lossless(4).ecn(2).build(), tc136, null,
                        Set.of(ECN_DISABLED_ON_LOSSLESS)),
                Arguments.of("ECN files absent: unknown, silent", QosSamples.lossless(4).build(), tc136, null, Set.of()),
                Arguments.of("PFC unread: no configured pfc_not_enabled", QosSamples.lossless(4).pfcUnread().build(), tc136,
                        null, Set.of()),
                Arguments.of("drift: PFC on 2 where the fleet runs 4", QosSamples.lossless(4).pfc(2).ecn(2).build(), null,
                        majority(lossless4, 34), Set.of(QOS_CONFIG_DRIFT, ROCE_DSCP_NOT_LOSSLESS)),
                Arguments.of("same as the fleet: no drift", lossless4, tc136, majority(lossless4, 34), Set.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void rulesOfOneConfiguration(String name, QosConfig qos, Map<String, String> ncclConf, QosProfile.Fleet fleet,
                                 Set<Rule> expected) {
        assertEquals(expected, fired(qos, ncclConf, fleet, DiagnosisConfig.defaults()).keySet(), name);
    }

    @Test
    void driftEvidenceNamesBothProfilesTheFleetCountAndTheExactCommands() {
        QosConfig fleet = QosSamples.lossless(4).ecn(4).build();
        String evidence = fired(QosSamples.afterReboot().build(), null, majority(fleet, 34), DiagnosisConfig.defaults())
                .get(QOS_CONFIG_DRIFT);
        assertTrue(evidence.startsWith(NETDEV + " runs trust pcp, PFC {}"), evidence);
        assertTrue(evidence.contains("the fleet (41 of 43 RoCE ports) runs trust dscp, PFC {4}, DSCP 34 -> priority 4"),
                evidence);
        assertTrue(evidence.contains("`dcb pfc set dev ens2f1np1 prio-pfc 4:on` (mlnx_qos -i ens2f1np1 --pfc 0,0,0,0,1,0,0,0)"),
                evidence);
        assertTrue(evidence.contains("`dcb app add dev ens2f1np1 dscp-prio 34:4` (mlnx_qos -i ens2f1np1 --trust dscp)"),
                evidence);
    }

    @Test
    void driftOfTheDscpMapAndTheTrafficClassOfTheLosslessPriority() {
        QosConfig fleet = QosSamples.lossless(2).priorityTc(0, 1, 5, 3, 4, 2, 6, 7).build();
        QosConfig port = QosSamples.lossless(2).priorityTc(0, 1, 2, 3, 4, 5, 6, 7).dscp(18, 0).build();
        String evidence = fired(port, Map.of("NCCL_IB_TC", "72"), majority(fleet, 18), DiagnosisConfig.defaults())
                .get(QOS_CONFIG_DRIFT);
        assertTrue(evidence.contains("differs in dscp, ets"), evidence);
        assertTrue(evidence.contains("`dcb app add dev ens2f1np1 dscp-prio 18:2`"), evidence);
        assertTrue(evidence.contains("`dcb ets set dev ens2f1np1 prio-tc 2:5`"), evidence);
    }

    @Test
    void ecnRulesAreSwitchedOffForAFleetThatRunsPfcWithoutDcqcn() throws Exception {
        DiagnosisConfig noEcn = DiagnosisConfig.fromJson(StrictJson.of(StrictJson.mapper().readTree(
                "{\"ecnRequired\": false}"), "diagnosis"));
        QosConfig ecnOff = QosSamples.lossless(6).ecn().build();
        QosProfile.Fleet fleet = majority(QosSamples.lossless(6).ecn(6).build(), 48);
        assertEquals(Set.of(ECN_DISABLED_ON_LOSSLESS, QOS_CONFIG_DRIFT),
                fired(ecnOff, null, fleet, DiagnosisConfig.defaults()).keySet());
        assertEquals(Set.of(), fired(ecnOff, null, fleet, noEcn).keySet());
    }

    @Test
    void pfcFromTheConfigurationAloneNamesTheFixForTheRoceDscpsPriority() {
        String evidence = fired(QosSamples.lossless().build(), Map.of("NCCL_IB_TC", "106"), null,
                DiagnosisConfig.defaults()).get(PFC_NOT_ENABLED);
        assertTrue(evidence.contains("has PFC on no priority"), evidence);
        assertTrue(evidence.contains("`dcb pfc set dev ens2f1np1 prio-pfc 3:on`"), evidence);
        assertTrue(evidence.contains("RoCE DSCP 26 (NCCL_IB_TC=106 in /etc/nccl.conf)"), evidence);
    }

    @Test
    void roceDscpEvidenceNamesWhereTheDscpComesFrom() {
        String evidence = fired(QosSamples.lossless(4).dscp(34, 1).trafficClass(136).build(), null, null,
                DiagnosisConfig.defaults()).get(ROCE_DSCP_NOT_LOSSLESS);
        assertEquals("RoCE uses DSCP 34 (OFED traffic_class 136), which maps to priority 1 on ens2f1np1; PFC is on "
                + "priority 4; fix: `dcb app add dev ens2f1np1 dscp-prio 34:4`", evidence);
    }

    /** The engine learns the fleet's majority from the ports it sees and flags the odd one out within a window. */
    @Test
    void theFleetMajorityIsLearnedAndTheOddPortDrifts() {
        AtomicLong clock = new AtomicLong(1_700_000_000_000L);
        NodeStore store = new NodeStore(clock::get, 3, Long.MAX_VALUE / 2, 10, 1000);
        DiagnosisEngine engine = new DiagnosisEngine(DiagnosisConfig.defaults(), store, clock::get);
        Map<String, String> nccl = Map.of("NCCL_IB_TC", "0x98"); // DSCP 38 -> priority 4
        List<String> nodes = new ArrayList<>();
        for (int n = 0; n < 5; n++) {
            nodes.add("gpu-" + n);
        }
        for (int round = 0; round < 3; round++) {
            for (String node : nodes) {
                QosConfig qos = node.equals("gpu-3") ? QosSamples.lossless(4).trustPcp().build()
                        : QosSamples.lossless(4).build();
                clock.addAndGet(200);
                HostSample sample = new HostSample(node, clock.get(), List.of(device(port(qos))), List.of(), nccl);
                if (store.node(node).isEmpty()) {
                    store.connect(node, "test", 1000);
                }
                store.accept(sample);
                engine.accept(sample);
            }
        }
        Set<String> active = engine.snapshot().diagnoses().stream().map(d -> d.node() + " " + d.rule().id())
                .collect(Collectors.toCollection(TreeSet::new));
        // under trust pcp the DSCP of NCCL_IB_TC no longer reaches priority 4: nccl.conf contradicts gpu-3 too
        assertEquals(Set.of("gpu-3 qos_config_drift", "gpu-3 qos_trust_not_dscp", "gpu-3 nccl_conf_mismatch"), active);
        String evidence = engine.snapshot().diagnoses().stream().filter(d -> d.rule() == QOS_CONFIG_DRIFT)
                .findFirst().orElseThrow().evidence();
        assertTrue(evidence.contains("the fleet (4 of 5 RoCE ports) runs trust dscp, PFC {4}, DSCP 38 -> priority 4"),
                evidence);
    }

    private static DiagnosisConfig config(String json) throws Exception {
        return DiagnosisConfig.fromJson(StrictJson.of(StrictJson.mapper().readTree(json), "diagnosis"));
    }

    @Test
    void aConfiguredFleetProfileIsTheReferenceWithoutAnyFleet() throws Exception {
        DiagnosisConfig config = config("{\"qosProfile\": {\"trust\": \"dscp\", \"pfcPriorities\": [6], "
                + "\"roceDscp\": 46, \"roceDscpPriority\": 6}}");
        QosProfile.Fleet fleet = new QosProfile.Fleet(config.qosProfile(), 0, 0, true);
        String evidence = fired(QosSamples.lossless(4).build(), null, fleet, config).get(QOS_CONFIG_DRIFT);
        assertTrue(evidence.contains("the configured fleet profile runs trust dscp, PFC {6}, DSCP 46 -> priority 6"),
                evidence);
        assertTrue(evidence.contains("prio-pfc 4:off 6:on"), evidence);
        assertEquals(Set.of(), fired(QosSamples.lossless(6).dscp(46, 6).build(), null, fleet, config).keySet(),
                "the default map sends 46 to priority 5: only the remapped port matches");
        assertEquals(Set.of(QOS_CONFIG_DRIFT, ROCE_DSCP_NOT_LOSSLESS),
                fired(QosSamples.lossless(6).build(), null, fleet, config).keySet());
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {
            "{\"qosProfile\": {\"trust\": \"l3\", \"pfcPriorities\": [4]}}|diagnosis.qosProfile.trust must be dscp or pcp",
            "{\"qosProfile\": {\"trust\": \"dscp\", \"pfcPriorities\": [8]}}|priority 8 is not 0..7",
            "{\"qosProfile\": {\"trust\": \"dscp\", \"pfcPriorities\": [4], \"roceDscp\": 34}}|roceDscp and roceDscpPriority go together",
            "{\"qosProfile\": {\"trust\": \"dscp\", \"pfcPriorities\": [4], \"roceDscp\": 64, \"roceDscpPriority\": 4}}|roceDscp must be 0..63",
            "{\"qosProfile\": {\"trust\": \"dscp\", \"pfc\": [4]}}|pfc",
            "{\"minPortsForQosProfile\": 0}|minPortsForQosProfile must be >= 1"})
    void badQosSettingsAreRefusedNamingTheKey(String caseText) {
        String[] parts = caseText.split("\\|");
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> config(parts[0]));
        assertTrue(e.getMessage().contains(parts[1]), e.getMessage());
    }

    @Test
    void ncclConfValuesThatContradictThePortAreADiagnosis() {
        IbPort port = port(QosSamples.lossless(4).build());
        Rule rule = Rule.NCCL_CONF_MISMATCH;
        PortRule ncclRule = RuleTable.PORT_RULES.stream().filter(r -> r.id() == rule).findFirst().orElseThrow();
        // ROUTABLE_GIDS: index 3 is RoCE v2 IPv4, index 1 RoCE v2 link-local; DSCP 34 -> 4 (PFC), 26 -> 3 (no PFC)
        Map<Map<String, String>, String> cases = new java.util.LinkedHashMap<>();
        cases.put(Map.of("NCCL_IB_GID_INDEX", "3", "NCCL_IB_TC", "136"), null);
        cases.put(Map.of("NCCL_IB_HCA", "mlx5_9"), null); // host-wide: the advice reports it, not this port
        cases.put(Map.of("NCCL_IB_GID_INDEX", "1"), "NCCL_IB_GID_INDEX=1 in /etc/nccl.conf is not a RoCE v2 IPv4 GID on mlx5_3:1");
        cases.put(Map.of("NCCL_IB_TC", "106"), "NCCL_IB_TC=106 in /etc/nccl.conf is DSCP 26, which mlx5_3:1 maps to "
                + "priority 3 without PFC");
        cases.forEach((conf, expected) -> {
            PortInput in = new PortInput(device(port), null, port, 0, null, 0, conf, null);
            assertEquals(Optional.ofNullable(expected), ncclRule.evaluate(in, DiagnosisConfig.defaults()).map(Finding::evidence),
                    conf.toString());
        });
    }

    /**
     * The engine keeps a port's QoS view while the configuration, GID table and nccl.conf are those it was made of
     * (the usual case between the agent's slow-cadence reads), and makes a new one on any change.
     */
    @Test
    void aPortsQosViewIsKeptWhileItsInputsAreEqualAndRemadeOnAChange() {
        QosConfig lossless4 = QosSamples.lossless(4).ecn(4).trafficClass(4 * 26).build();
        IbPort first = port(lossless4);
        Map<String, String> conf = Map.of("NCCL_IB_TC", "106");
        PortQos kept = PortQos.reuse(null, device(first), first, conf);
        IbPort nextSample = port(lossless4);
        assertSame(kept, PortQos.reuse(kept, device(nextSample), nextSample, Map.of("NCCL_IB_TC", "106")));
        assertEquals(26, kept.roceDscp().dscp());
        assertEquals(new TreeSet<>(Set.of(4)), kept.profile().pfc());

        IbPort reconfigured = port(QosSamples.lossless(2).ecn(2).trafficClass(4 * 26).build());
        PortQos remade = PortQos.reuse(kept, device(reconfigured), reconfigured, conf);
        assertNotSame(kept, remade);
        assertEquals(new TreeSet<>(Set.of(2)), remade.profile().pfc());
        assertNotSame(remade, PortQos.reuse(remade, device(reconfigured), reconfigured, Map.of("NCCL_IB_TC", "138")),
                "another nccl.conf");
        PortQos withoutConf = PortQos.reuse(remade, device(reconfigured), reconfigured, null);
        assertEquals("OFED traffic_class 104", withoutConf.roceDscp().origin());
        assertEquals(List.of(), withoutConf.ncclMismatches());
    }
}
