package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.QosProfile;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.testing.QosSamples;
import io.rdmamon.protocol.testing.Samples;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class LosslessTrafficClassTest {
    private static final HostSample HOST = Samples.host("n1", 0).build();

    private static LosslessTrafficClass.RocePort port(QosConfig qos) {
        return new LosslessTrafficClass.RocePort(HOST, Samples.rocePort().withQos(qos).build());
    }

    /** DSCP 26 (ToS 104) on priority 3 under the default map. */
    private static QosConfig sendsDscp26(int... pfc) {
        return QosSamples.lossless(pfc).defaultRoceTos(104).build();
    }

    @Test
    void theDscpMostPortsSendWithWhenItLandsOnAPfcPriority() {
        assertEquals(104, LosslessTrafficClass.of(null, List.of(port(sendsDscp26(3)), port(sendsDscp26(3)))));
        // one port sends DSCP 34 (priority 4, lossless there too): the majority's DSCP wins
        QosConfig dscp34 = QosSamples.lossless(3, 4).defaultRoceTos(136).build();
        assertEquals(104, LosslessTrafficClass.of(null, List.of(port(sendsDscp26(3)), port(dscp34), port(sendsDscp26(3)))));
        // a tie takes the lower DSCP, whatever the order
        assertEquals(104, LosslessTrafficClass.of(null, List.of(port(dscp34), port(sendsDscp26(3)))));
    }

    @Test
    void noTrafficClassWhenTheDscpIsNotLosslessOrUnknown() {
        assertNull(LosslessTrafficClass.of(null, List.of(port(sendsDscp26(4)))), "DSCP 26 lands on 3, PFC is on 4");
        assertNull(LosslessTrafficClass.of(null, List.of(port(QosSamples.lossless(3).build()))), "no ToS set anywhere: "
                + "DSCP 0 on priority 0");
        assertNull(LosslessTrafficClass.of(null, List.of(port(QosSamples.lossless(3).pfcUnread().defaultRoceTos(104)
                .build()))), "PFC not read");
        assertNull(LosslessTrafficClass.of(null, List.of()));
    }

    @Test
    void theConfiguredProfileDecidesWhenItNamesTheDscp() {
        QosProfile configured = new QosProfile("dscp", new TreeSet<>(List.of(4)), 34, 4, null, null);
        assertEquals(136, LosslessTrafficClass.of(configured, List.of(port(sendsDscp26(3)))));
        QosProfile notLossless = new QosProfile("dscp", new TreeSet<>(List.of(3)), 34, 4, null, null);
        assertNull(LosslessTrafficClass.of(notLossless, List.of(port(sendsDscp26(3)))));
        QosProfile withoutDscp = new QosProfile("dscp", new TreeSet<>(List.of(3)), null, null, null, null);
        assertEquals(104, LosslessTrafficClass.of(withoutDscp, List.of(port(sendsDscp26(3)))), "the ports decide");
    }
}
