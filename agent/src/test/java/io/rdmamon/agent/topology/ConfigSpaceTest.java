package io.rdmamon.agent.topology;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Table tests of the ACS Control and Device Control decoding and of the capability walk. */
class ConfigSpaceTest {

    @ParameterizedTest(name = "DevCtl {0}: MPS {1}, MRRS {2}, RO {3}")
    @CsvSource({
            // lspci: MaxPayload 256 bytes, MaxReadReq 4096 bytes, RlxdOrd+ ExtTag+ NoSnoop+ and the four error enables
            "0x593F, 256, 4096, true",
            "0x592F, 256, 4096, false",
            "0x0000, 128, 128, false",
            "0x2930, 256, 512, true",
            "0x5040, 512, 4096, false",
            "0x1010, 128, 256, true",
            "0x3040, 512, 1024, false",
            "0x00A0, 4096, 128, false",
    })
    void deviceControl(String raw, int mps, int mrrs, boolean ro) {
        DeviceControl devCtl = new DeviceControl(Integer.decode(raw));
        assertEquals(mps, devCtl.maxPayloadBytes());
        assertEquals(mrrs, devCtl.maxReadRequestBytes());
        assertEquals(ro, devCtl.relaxedOrdering());
    }

    @ParameterizedTest(name = "ACSCtl {0} = {1}")
    @CsvSource(delimiter = ';', value = {
            // Linux's default with a translating IOMMU (pci_std_enable_acs: SV, RR, CR, UF): rdma_topo's xx111x1
            "0x1D; 0011101; Source Validation,P2P Request Redirect,P2P Completion Redirect,Upstream Forwarding; true",
            "0x00; 0000000; ; false",
            "0x04; 0000100; P2P Request Redirect; true",
            "0x08; 0001000; P2P Completion Redirect; true",
            "0x10; 0010000; Upstream Forwarding; true",
            "0x01; 0000001; Source Validation; false",
            "0x02; 0000010; Translation Blocking; false",
            "0x20; 0100000; P2P Egress Control; false",
            // a virtualised NIC downstream port as rdma_topo wants it: 1x111x1
            "0x5D; 1011101; Source Validation,P2P Request Redirect,P2P Completion Redirect,Upstream Forwarding,Direct Translated P2P; true",
    })
    void acsControl(String raw, String bits, String enabled, boolean redirects) {
        AcsControl acs = new AcsControl(Integer.decode(raw));
        assertEquals(bits, acs.bits());
        assertEquals(enabled == null ? List.of() : Arrays.asList(enabled.split(",")), acs.enabled());
        assertEquals(redirects, acs.redirectsP2p());
    }

    @Test
    void walksBothListsOfAFullConfigSpace() {
        ConfigFacts facts = ConfigSpace.decode(PciTree.config().devCtl(PciTree.DEVCTL_RO_OFF)
                .acs(PciTree.ACS_REDIRECT).ats(true).bytes());

        assertTrue(facts.known());
        assertTrue(facts.pciExpress());
        assertTrue(facts.extended());
        assertEquals(PciTree.DEVCTL_RO_OFF, facts.devCtl().raw());
        assertEquals(0x1D, facts.acs().raw());
        assertTrue(facts.ats());
    }

    @Test
    void noAcsNoAtsIsAbsentWhenTheExtendedSpaceWasRead() {
        ConfigFacts facts = ConfigSpace.decode(PciTree.config().devCtl(PciTree.DEVCTL_RO_ON).bytes());

        assertTrue(facts.known());
        assertNull(facts.acs());
        assertFalse(facts.ats());
        assertTrue(facts.devCtl().relaxedOrdering());
    }

    @Test
    void atsWithoutAcs() {
        ConfigFacts facts = ConfigSpace.decode(PciTree.config().devCtl(PciTree.DEVCTL_RO_ON).ats(true).bytes());
        assertNull(facts.acs());
        assertTrue(facts.ats());
    }

    @Test
    void sixtyFourBytesMakeEveryFactBeyondUnknown() {
        ConfigFacts facts = ConfigSpace.decode(PciTree.config().devCtl(PciTree.DEVCTL_RO_ON).acs(0).readable(64)
                .bytes());

        assertFalse(facts.known());
        assertEquals("config space beyond 64 bytes not readable (needs root)", facts.unknown());
        assertNull(facts.devCtl());
        assertNull(facts.acs());
    }

    @Test
    void lessThanTheHeaderIsUnknownToo() {
        assertEquals("config holds 12 bytes, less than the 64-byte header", ConfigSpace.decode(new byte[12]).unknown());
    }

    @Test
    void conventionalPciSpaceHasNoExtendedCapabilities() {
        ConfigFacts facts = ConfigSpace.decode(PciTree.config().devCtl(PciTree.DEVCTL_RO_ON).acs(0x1D).readable(256)
                .bytes());

        assertTrue(facts.known());
        assertFalse(facts.extended());
        assertNull(facts.acs());
        assertEquals(PciTree.DEVCTL_RO_ON, facts.devCtl().raw());
    }

    @Test
    void noCapabilityListMeansNoPciExpressCapability() {
        byte[] config = PciTree.config().devCtl(PciTree.DEVCTL_RO_ON).bytes();
        config[0x06] = 0;

        ConfigFacts facts = ConfigSpace.decode(config);

        assertFalse(facts.pciExpress());
        assertNull(facts.devCtl());
    }

    @Test
    void aLoopInTheExtendedListEnds() {
        byte[] config = new byte[4096];
        config[0x100] = 0x01; // AER whose next pointer is itself
        config[0x101] = 0x00;
        config[0x102] = 0x01;
        config[0x103] = 0x10;

        ConfigFacts facts = ConfigSpace.decode(config);

        assertNull(facts.acs());
        assertFalse(facts.ats());
    }
}
