package io.rdmamon.collector.diagnosis.engine;

import io.rdmamon.collector.model.QosProfile;
import io.rdmamon.protocol.testing.QosSamples;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class QosFleetTest {
    @Test
    void aSplitFleetHasAMajorityOnlyForThePartsMostPortsShare() {
        QosFleet fleet = new QosFleet();
        QosProfile a = QosProfile.of(QosSamples.lossless(2).build(), 18);
        QosProfile b = QosProfile.of(QosSamples.lossless(6).build(), 50);
        fleet.add(a);
        fleet.add(a);
        fleet.add(b);
        fleet.add(b);
        // 2 of 4 is no majority for PFC or the DSCP: the profile keeps only what all agree on, trust dscp
        assertEquals(new QosProfile.Fleet(new QosProfile("dscp", null, null, null, null, null), 4, 4, false),
                fleet.majority(3), "2 of 4 is no majority");
        fleet.add(a);
        assertEquals(new QosProfile.Fleet(a, 3, 5, false), fleet.majority(3));
        fleet.remove(a);
        fleet.remove(a);
        assertEquals(new QosProfile.Fleet(b, 2, 3, false), fleet.majority(3), "b runs on 2 of the 3 ports left");
        assertEquals(null, fleet.majority(4), "below minPortsForQosProfile");
    }
}
