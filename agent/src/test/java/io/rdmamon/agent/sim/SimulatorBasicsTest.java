package io.rdmamon.agent.sim;

import io.rdmamon.protocol.rates.CounterWidth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pure parts: scenario names, rate text, address formats, counter overflow rules. */
class SimulatorBasicsTest {

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void everyScenarioParsesFromItsCliName(Scenario scenario) {
        assertEquals(scenario, Scenario.fromCliName(scenario.cliName()));
        assertEquals(scenario, Scenario.fromCliName(" " + scenario.cliName().toUpperCase() + " "));
    }

    @Test
    void unknownScenarioNamesTheValueAndListsValidOnes() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> Scenario.fromCliName("pfc_storm"));
        assertEquals("unknown scenario 'pfc_storm'; valid scenarios: healthy, wrong-priority, pfc-storm, ecn-off, "
                + "link-degraded, gid-missing, dirty-optic, pcie-x8, erdma-ratelimit, pfc-lost, trust-pcp, dscp-map-wrong, "
                + "gpu-far-nic, acs-redirect, no-peermem, tor-uplink-loss, module-swap, reboot-qos, firmware-fatal, mixed", error.getMessage());
    }

    @Test
    void specRejectsOutOfRangeValues() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new SimulationSpec(0, Scenario.HEALTHY, 1, 3))
                .getMessage().contains("node count"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new SimulationSpec(3, Scenario.HEALTHY, 1, 8))
                .getMessage().contains("lossless priority must be 0..7, got 8"));
    }

    @ParameterizedTest
    @CsvSource({
            "SDR_1X, 2.5 Gb/sec (1X SDR), 312500000",
            "EDR_1X, 25 Gb/sec (1X EDR), 3125000000",
            "EDR_2X, 50 Gb/sec (2X EDR), 6250000000",
            "EDR_4X, 100 Gb/sec (4X EDR), 12500000000",
            "HDR_4X, 200 Gb/sec (4X HDR), 25000000000",
            "NDR_4X, 400 Gb/sec (4X NDR), 50000000000",
    })
    void rateTextMatchesTheKernelFormat(LinkSpeed speed, String text, long bytesPerSecond) {
        assertEquals(text, speed.rateText());
        assertEquals(bytesPerSecond, (long) speed.bytesPerSecond());
    }

    @Test
    void erdmaNodeGuidIsTheEui64OfTheMac() {
        long mac = 0x00163e010203L;
        assertEquals("0216:3eff:fe01:0203", Addresses.guidText(Addresses.eui64(mac)));
        assertEquals("00:16:3e:01:02:03", Addresses.macText(mac));
    }

    @Test
    void gidTextsAreEightUncompressedGroups() {
        assertEquals("0000:0000:0000:0000:0000:ffff:c0a8:0102",
                Addresses.ipv4MappedGid(Addresses.ipv4(192, 168, 1, 2)));
        assertEquals("fe80:0000:0000:0000:0e42:a1ff:fe12:3456",
                Addresses.linkLocalGid(Addresses.eui64(0x0c42a1123456L)));
        assertEquals("0016:3e01:0203:0000:0000:0000:0000:0000", Addresses.iwarpGid(0x00163e010203L));
        assertEquals("0000:0000:0000:0000:0000:0000:0000:0000", Addresses.emptyGidText());
    }

    @Test
    void narrowPmaCountersSaturateInsteadOfWrapping() {
        Counter xmitWait = new Counter(CounterWidth.saturating(32), 4_294_967_000L);
        xmitWait.add(1_000L);
        assertEquals(4_294_967_295L, xmitWait.value());
        xmitWait.add(1L);
        assertEquals(4_294_967_295L, xmitWait.value());

        Counter linkDowned = new Counter(CounterWidth.saturating(8), 300);
        assertEquals(255, linkDowned.value());
    }

    @Test
    void u64CountersUseUnsignedArithmeticAndRendering() {
        Counter bytes = new Counter(CounterWidth.WRAPPING_64, Long.MAX_VALUE);
        bytes.add(2L);
        assertEquals("9223372036854775809\n", CounterSet.sysfsValue(bytes.value()));
    }

    @Test
    void fractionalIncrementsCarryOver() {
        Counter rare = new Counter(CounterWidth.WRAPPING_64, 0);
        for (int i = 0; i < 5; i++) {
            rare.add(0.3);
        }
        assertEquals(1, rare.value());
        rare.add(0.5);
        assertEquals(2, rare.value());
    }
}
