package io.rdmamon.agent.kmsg;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class KernelEventPatternsTest {

    private static KernelEvent classify(String text, Map<String, String> dictionary) {
        return KernelEventPatterns.classify(new KmsgRecord(0, 3, 1, 1, text, dictionary));
    }

    /** Lines in the form the cited kernel files print them (the mlx5 health and command lines as seen on real hosts). */
    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "mlx5_core 0000:3b:00.0: poll_health:852:(pid 0): device's health compromised - reached miss count"
                    + " | firmware_fatal | critical | 0000:3b:00.0 | - | -",
            "mlx5_core 0000:3b:00.0: print_health_info:458:(pid 0): synd 0x8: unrecoverable hardware error"
                    + " | firmware_fatal | critical | 0000:3b:00.0 | - | -",
            "mlx5_core 0000:3b:00.1: mlx5_health_check_fatal_sensors:120:(pid 5): Fatal error 1 detected"
                    + " | firmware_fatal | critical | 0000:3b:00.1 | - | -",
            "mlx5_core 0000:3b:00.0: mlx5_health_try_recover:335:(pid 9): FW is unable to respond to initialization"
                    + " segment reads | firmware_fatal | critical | 0000:3b:00.0 | - | -",
            "mlx5_core 0000:3b:00.0: wait_func:964:(pid 112): ENABLE_HCA(0x104) timeout. Will cause a leak of a"
                    + " command resource | command_timeout | warning | 0000:3b:00.0 | - | -",
            "mlx5_core 0000:3b:00.0: cmd_work_handler:877:(pid 8): QUERY_VPORT_COUNTER(0x770) canceled on out of"
                    + " queue timeout. | command_timeout | warning | 0000:3b:00.0 | - | -",
            "mlx5_core 0002:01:00.0: mlx5_pcie_event:326:(pid 3202): Detected insufficient power on the PCIe slot"
                    + " (27W). | pcie_power_insufficient | warning | 0002:01:00.0 | - | -",
            "mlx5_core 0000:3b:00.0: mlx5_port_module_event:1100:(pid 0): Port module event: module 0, Cable"
                    + " unplugged | module_event | info | 0000:3b:00.0 | - | -",
            "mlx5_core 0000:3b:00.0: port_module:291:(pid 0): Port module event[error]: module 0, Cable error,"
                    + " Bus stuck (I2C or data shorted) | module_error | warning | 0000:3b:00.0 | - | -",
            "mlx5_core 0000:3b:00.0: temp_warn:167:(pid 0): High temperature on sensors with bit set 0 1"
                    + " | thermal | warning | 0000:3b:00.0 | - | -",
            "mlx5_core 0000:3b:00.0 eth2: NETDEV WATCHDOG: CPU: 3: transmit queue 5 timed out 5120 ms"
                    + " | tx_timeout | critical | 0000:3b:00.0 | - | eth2",
            "NETDEV WATCHDOG: eth2 (mlx5_core): transmit queue 5 timed out"
                    + " | tx_timeout | critical | - | - | eth2",
            "mlx4_core 0000:04:00.0: Internal error detected: | firmware_fatal | critical | 0000:04:00.0 | - | -",
            "mlx4_core 0000:04:00.0: command 0x23 timed out (go bit not cleared)"
                    + " | command_timeout | warning | 0000:04:00.0 | - | -",
            "erdma 0000:00:05.0: cmdq timeout | command_timeout | warning | 0000:00:05.0 | - | -",
            "rdma_rxe: loaded | driver_loaded | info | - | - | -",
            "rdma_rxe: unloaded | driver_unloaded | info | - | - | -",
            "infiniband rxe0: set active | port_state | info | - | rxe0 | -",
            "pcieport 0000:00:01.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer,"
                    + " (Receiver ID) | pcie_aer_fatal | critical | 0000:00:01.0 | - | -",
            "mlx5_core 0000:3b:00.0: PCIe Bus Error: severity=Uncorrectable (Non-Fatal), type=Transaction Layer,"
                    + " (Requester ID) | pcie_aer_nonfatal | warning | 0000:3b:00.0 | - | -",
            "pcieport 0000:00:01.0: PCIe Bus Error: severity=Correctable, type=Physical Layer, (Receiver ID)"
                    + " | pcie_aer_corrected | info | 0000:00:01.0 | - | -"})
    void recognisedLines(String text, String kind, String severity, String pci, String ibDevice, String netdev) {
        KernelEvent event = classify(text, Map.of());
        assertEquals(kind, event.kind(), text);
        assertEquals(severity, event.severity());
        assertEquals(new KernelEvent.Subject(pci, ibDevice, netdev), event.subject());
    }

    @Test
    void theDictionaryNamesTheDevice() {
        KernelEvent event = classify("infiniband rxe0: set down",
                Map.of("SUBSYSTEM", "infiniband", "DEVICE", "+infiniband:rxe0"));
        assertEquals(new KernelEvent.Subject(null, "rxe0", null), event.subject());
        KernelEvent pci = classify("mlx5_core 0000:3b:00.0: Fatal error 2 detected",
                Map.of("SUBSYSTEM", "pci", "DEVICE", "+pci:0000:3b:00.0"));
        assertEquals("0000:3b:00.0", pci.subject().pci());
    }

    @Test
    void userspaceImitationsAreIgnored() {
        KmsgRecord forged = new KmsgRecord(1, 2, 7, 7,
                "mlx5_core 0000:3b:00.0: poll_health:852:(pid 0): device's health compromised - reached miss count",
                Map.of());
        assertNull(KernelEventPatterns.classify(forged));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "e1000e 0000:00:19.0 eth0: NIC Link is Up 1000 Mbps Full Duplex",
            "rdma_rxe: unknown text",
            "ixgbe 0000:01:00.0: Fatal error 1 detected", // an mlx5 text from another driver
            "mlx5_core 0000:3b:00.0: mlx5_pcie_event:300:(pid 1): PCIe slot advertised sufficient power (75W)."})
    void otherLinesAreNoEvent(String text) {
        assertNull(classify(text, Map.of()));
    }

    @Test
    void everyEntryCitesItsSource() {
        KernelEventPatterns.sources().forEach(line -> org.junit.jupiter.api.Assertions.assertTrue(
                line.matches("\\w+ <- \\S+\\.c.*"), line));
    }
}
