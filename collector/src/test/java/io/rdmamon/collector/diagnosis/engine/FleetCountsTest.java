package io.rdmamon.collector.diagnosis.engine;

import io.rdmamon.collector.model.QosProfile;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Fleet baselines counted over the replicas of a cluster: the counts' wire form and their merge. */
class FleetCountsTest {
    private static final FleetRates.Model CX6 = new FleetRates.Model("MT4123", "Ethernet");
    private static final long G100 = 12_500_000_000L;
    private static final long G25 = 3_125_000_000L;

    private static QosProfile profile(String trust, int pfcPriority) {
        return new QosProfile(trust, new TreeSet<>(List.of(pfcPriority)), 26, "dscp".equals(trust) ? pfcPriority : 0,
                List.of(pfcPriority), true);
    }

    @Test
    void countsSurviveTheWire() {
        FleetCounts counts = new FleetCounts(Map.of(CX6, Map.of(G100, 5, G25, 1)),
                Map.of(profile("dscp", 4), 7, new QosProfile("pcp", null, null, null, null, null), 2));
        assertEquals(counts, FleetCounts.fromJson(new JsonObject(counts.toJson().encode())));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"rates\": [{\"hcaType\": \"MT4123\", \"linkLayer\": \"Ethernet\", \"rate\": 1}]}              | rates[0].ports is missing",
            "{\"rates\": [{\"hcaType\": \"MT4123\", \"linkLayer\": \"Ethernet\", \"rate\": 1, \"ports\": 0}]} | rates[0].ports must be positive",
            "{\"qos\": [{\"ports\": 2}]}                                                                 | qos[0].trust is missing",
            "{\"qos\": [{\"trust\": \"dscp\", \"pfc\": \"3\", \"ports\": 2}]}                             | wrong type"})
    void aMalformedMessageIsRefusedNamingTheField(String json, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FleetCounts.fromJson(new JsonObject(json)));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void tooManyEntriesAreRefused() {
        JsonArray items = new JsonArray();
        for (int i = 0; i <= FleetCounts.MAX_ENTRIES; i++) {
            items.add(new JsonObject().put("hcaType", "M").put("linkLayer", "Ethernet").put("rate", i).put("ports", 1));
        }
        assertThrows(IllegalArgumentException.class, () -> FleetCounts.fromJson(new JsonObject().put("rates", items)));
    }

    @Test
    void theModalRateCountsTheOtherReplicasPortsUntilTheyAreForgotten() {
        FleetRates rates = new FleetRates();
        rates.add(CX6, G25);
        rates.add(CX6, G25);
        assertNull(rates.modal(CX6, 3), "two ports are too few");
        rates.remote("replica-b", Map.of(CX6, Map.of(G100, 3)));
        FleetRates.Modal modal = rates.modal(CX6, 3);
        assertEquals(new FleetRates.Modal(G100, 3, 5), modal, "the cluster runs at 100G: the two local ports are slow");
        rates.forget("replica-b");
        assertNull(rates.modal(CX6, 3));
    }

    @Test
    void theQosMajorityCountsTheOtherReplicasPorts() {
        QosFleet fleet = new QosFleet();
        fleet.add(profile("pcp", 5));
        assertNull(fleet.majority(3), "one port alone has no fleet");
        fleet.remote("replica-b", Map.of(profile("dscp", 5), 3));
        QosProfile.Fleet majority = fleet.majority(3);
        assertEquals("dscp", majority.profile().trust());
        assertEquals(3, majority.ports());
        assertEquals(4, majority.total());
        fleet.remote("replica-b", Map.of(profile("pcp", 5), 3));
        assertEquals("pcp", fleet.majority(3).profile().trust(), "newer counts replace the replica's older ones");
        fleet.forget("replica-b");
        assertNull(fleet.majority(3));
    }
}
