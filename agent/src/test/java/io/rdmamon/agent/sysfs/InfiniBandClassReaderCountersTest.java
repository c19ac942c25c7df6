package io.rdmamon.agent.sysfs;

import io.rdmamon.protocol.model.IbPort;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The counter directories of a port, read sample after sample over one listing. */
class InfiniBandClassReaderCountersTest {
    @TempDir
    Path root;

    private Path port;

    private void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    /** A one-port device {@code bnxt_re3} (port 2) with three PMA counters and two hw counters besides {@code lifespan}. */
    private InfiniBandClassReader reader() throws IOException {
        Path device = root.resolve("sys/class/infiniband/bnxt_re3");
        write(device.resolve("fw_ver"), "220.0.83.0\n");
        port = device.resolve("ports/2");
        write(port.resolve("state"), "4: ACTIVE\n");
        write(port.resolve("phys_state"), "5: LinkUp\n");
        write(port.resolve("rate"), "100 Gb/sec (2X EDR)\n");
        write(port.resolve("link_layer"), "Ethernet\n");
        write(port.resolve("counters/port_rcv_data"), "1000\n");
        write(port.resolve("counters/port_xmit_discards"), "7\n");
        write(port.resolve("counters/symbol_error"), "0\n");
        write(port.resolve("hw_counters/rx_atomic_requests"), "12\n");
        write(port.resolve("hw_counters/lifespan"), "10\n");
        write(port.resolve("hw_counters/out_of_sequence"), "3\n");
        // the listings are kept on the slow cadence: every sample below reads the same names
        return new InfiniBandClassReader(root, AttributeFiles.openingEachRead(),
                new SlowCadenceCache(Duration.ofMinutes(5), () -> 0L));
    }

    private IbPort readPort(InfiniBandClassReader reader) {
        DeviceReading reading = reader.readDevice("bnxt_re3");
        assertEquals(List.of(), reading.problems());
        return reading.device().ports().get(0);
    }

    @Test
    void valuesFollowTheFilesSampleAfterSampleInNameOrder() throws IOException {
        InfiniBandClassReader reader = reader();
        IbPort first = readPort(reader);
        assertEquals(List.of(Map.entry("port_rcv_data", 4000L), Map.entry("port_xmit_discards", 7L),
                Map.entry("symbol_error", 0L)), List.copyOf(first.counters().entrySet()), "data counters ×4, sorted");
        assertEquals(List.of(Map.entry("out_of_sequence", 3L), Map.entry("rx_atomic_requests", 12L)),
                List.copyOf(first.hwCounters().entrySet()), "lifespan is a setting, not a counter");

        write(port.resolve("counters/port_rcv_data"), "18446744073709551615\n");
        write(port.resolve("hw_counters/out_of_sequence"), "4\n");
        IbPort second = readPort(reader);
        assertEquals(Map.of("port_rcv_data", -4L, "port_xmit_discards", 7L, "symbol_error", 0L), second.counters(),
                "u64 max × 4 wraps as the kernel's u64 would");
        assertEquals(Map.of("out_of_sequence", 4L, "rx_atomic_requests", 12L), second.hwCounters());
        assertEquals(Map.of("port_rcv_data", 4000L, "port_xmit_discards", 7L, "symbol_error", 0L), first.counters(),
                "an earlier sample keeps its own values");
    }

    @Test
    void aCounterWithoutValueThisSampleHasNoKeyWhileTheOthersKeepTheirs() throws IOException {
        InfiniBandClassReader reader = reader();
        readPort(reader);
        write(port.resolve("counters/port_xmit_discards"), "N/A (no PMA)\n");
        IbPort withoutValue = readPort(reader);
        assertEquals(List.of(Map.entry("port_rcv_data", 4000L), Map.entry("symbol_error", 0L)),
                List.copyOf(withoutValue.counters().entrySet()));
        assertFalse(withoutValue.counters().containsKey("port_xmit_discards"), "absent, not zero and not a null value");

        write(port.resolve("counters/port_xmit_discards"), "9\n");
        assertEquals(Map.of("port_rcv_data", 4000L, "port_xmit_discards", 9L, "symbol_error", 0L),
                readPort(reader).counters(), "back once the file has a value again");
    }
}
