package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.diagnosis.rules.GpuNicCrossNuma;
import io.rdmamon.collector.diagnosis.rules.GpudirectNotReady;
import io.rdmamon.collector.diagnosis.rules.PcieAcsRedirect;
import io.rdmamon.collector.diagnosis.rules.PcieRelaxedOrderingOff;
import io.rdmamon.protocol.model.GpuTopology;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.testing.FixtureHosts;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The four host-topology rules on the ports of a NIC, from the node's GPU↔NIC topology. */
class TopologyRulesTest {
    private static final DiagnosisConfig DEFAULTS = DiagnosisConfig.defaults();
    private final HostSample golden = FixtureHosts.golden("gpu-01", 1_000_000L, 1);
    private final IbDevice nic = golden.devices().get(0);

    private PortInput input(GpuTopology topology) {
        return new PortInput(nic, null, nic.ports().get(0), 0, null, 0, null, null, null, null, null, null, topology);
    }

    private GpuTopology topology(String path, String verdict, boolean chosen, List<String> acs, Boolean ro) {
        return new GpuTopology(List.of(
                new GpuTopology.Endpoint("GPU0", "GPU0", "gpu", "0000:19:00.0", 0, "0-7", null),
                new GpuTopology.Endpoint(nic.name(), "NIC0", "nic", "0000:3d:00.0", 1, "8-15", ro)),
                List.of(List.of("X", path), List.of(path, "X")),
                List.of(new GpuTopology.Pair("GPU0", nic.name(), path, verdict, chosen, acs,
                        List.of("GPU0↔" + nic.name() + " path " + path + ": NCCL will not use GPUDirect RDMA"))),
                true, List.of());
    }

    @Test
    void aGoodNodeRaisesNone() {
        PortInput good = input(topology("PIX", "ready", true, List.of(), true));
        assertEquals(Optional.empty(), new GpudirectNotReady().evaluate(good, DEFAULTS));
        assertEquals(Optional.empty(), new GpuNicCrossNuma().evaluate(good, DEFAULTS));
        assertEquals(Optional.empty(), new PcieAcsRedirect().evaluate(good, DEFAULTS));
        assertEquals(Optional.empty(), new PcieRelaxedOrderingOff().evaluate(good, DEFAULTS));
        PortInput none = input(null);
        assertEquals(Optional.empty(), new GpudirectNotReady().evaluate(none, DEFAULTS));
        assertEquals(Optional.empty(), new PcieRelaxedOrderingOff().evaluate(none, DEFAULTS));
    }

    @Test
    void theFarSocketNicIsNotReadyAndCrossNuma() {
        PortInput far = input(topology("SYS", "not_ready", true, List.of(), true));

        Finding notReady = new GpudirectNotReady().evaluate(far, DEFAULTS).orElseThrow();
        Finding cross = new GpuNicCrossNuma().evaluate(far, DEFAULTS).orElseThrow();

        assertTrue(notReady.evidence().startsWith("GPU0↔" + nic.name() + " (SYS) not_ready: GPU0↔" + nic.name()
                + " path SYS"), notReady.evidence());
        assertEquals("GPU0: the closest NIC is " + nic.name() + ", on the other NUMA node (path SYS); NCCL will not "
                + "use GPUDirect RDMA (NCCL_NET_GDR_LEVEL default PXB)", cross.evidence());
    }

    @Test
    void aPairNcclWouldNotChooseRaisesNeither() {
        PortInput notChosen = input(topology("SYS", "not_ready", false, List.of(), true));
        assertEquals(Optional.empty(), new GpudirectNotReady().evaluate(notChosen, DEFAULTS));
        assertEquals(Optional.empty(), new GpuNicCrossNuma().evaluate(notChosen, DEFAULTS));
    }

    @Test
    void acsRedirectNamesTheBridge() {
        PortInput acs = input(topology("PXB", "not_ready", true, List.of("0000:3b:01.0"), true));

        assertEquals("ACS redirects P2P on bridge 0000:3b:01.0 between " + nic.name() + " and GPU0",
                new PcieAcsRedirect().evaluate(acs, DEFAULTS).orElseThrow().evidence());
    }

    @Test
    void relaxedOrderingOffButNotUnknown() {
        assertEquals("relaxed ordering off in the PCIe DevCtl of " + nic.name() + " 0000:3d:00.0",
                new PcieRelaxedOrderingOff().evaluate(input(topology("PIX", "degraded", true, List.of(), false)),
                        DEFAULTS).orElseThrow().evidence());
        assertEquals(Optional.empty(), new PcieRelaxedOrderingOff().evaluate(
                input(topology("PIX", "degraded", true, List.of(), null)), DEFAULTS));
    }
}
