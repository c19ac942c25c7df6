package io.rdmamon.protocol.testing;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.QosConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.rdmamon.protocol.testing.Samples.ordered;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The shared builders give what the other modules' tests rely on. */
class SamplesTest {

    @Test
    void theTypedEthtoolViewIsDerivedFromTheRawStatisticsOfThePortsNetdev() {
        IbPort port = Samples.rocePort().netdev("ens6f1np1")
                .ethtool(ordered("tx_prio2_pause", 9L)).withPriorityBytes(2, 10L, 20L).build();
        assertEquals("ens6f1np1", port.ethtool().netdev());
        assertEquals(ordered("tx_prio2_pause", 9L, "rx_prio2_bytes", 10L, "tx_prio2_bytes", 20L), port.ethtool().raw());
        assertEquals(Set.of(2), port.ethtool().pfcEnabledPriorities());
        assertEquals(List.of(2), port.ethtool().priorities().stream().map(p -> p.priority()).toList());
        assertEquals(20L, port.ethtool().priorities().get(0).txBytes());
    }

    @Test
    void ethtoolStatisticsNeedTheNetdevTheyWereReadFrom() {
        Samples.PortBuilder port = Samples.ibPort().ethtool(ordered("port_rcv_data", 1L));
        IllegalStateException e = assertThrows(IllegalStateException.class, port::build);
        assertEquals("ethtool statistics without a netdev: set netdev(...) too", e.getMessage());
    }

    @Test
    void theStateDecidesItsNameAndThePhysicalState() {
        IbPort down = Samples.ibPort().state(1).build();
        assertEquals(List.of("DOWN", 3, "Disabled"), List.of(down.state(), down.physStateId(), down.physState()));
        IbPort deferred = Samples.ibPort().state(IbPort.STATE_ACTIVE_DEFER).build();
        assertEquals(List.of("ACTIVE_DEFER", 5, "LinkUp"),
                List.of(deferred.state(), deferred.physStateId(), deferred.physState()));
    }

    @Test
    void qosAndNcclConfAreNullUnlessSet() {
        QosConfig qos = new QosConfig(QosConfig.SOURCE_CAPTURE, null, null, null, List.of(), null, null, null, null,
                null, null);
        assertNull(Samples.rocePort().build().qos());
        assertSame(qos, Samples.rocePort().withQos(qos).build().qos());
        assertNull(Samples.host("n", 1).build().ncclConf());
        HostSample withConf = Samples.host("n", 1).withNcclConf(Map.of("NCCL_IB_GID_INDEX", "3")).build();
        assertEquals(Map.of("NCCL_IB_GID_INDEX", "3"), withConf.ncclConf());
    }

    @Test
    void orderedNamesTheMissingValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ordered("a", 1L, "b"));
        assertEquals("ordered needs name, value pairs; got 3 arguments", e.getMessage());
    }
}
