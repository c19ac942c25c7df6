package io.rdmamon.cli.node;

import io.rdmamon.protocol.fabric.FabricSweep;
import io.rdmamon.protocol.testing.FabricSweeps;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** rdmamon fabric's text: iblinkinfo's links by both ends, ibqueryerrors' counter lists, --errors. */
class FabricFormatTest {
    private final FabricSweep sweep = FabricSweeps.leafAndTwoHosts("sweeper-1");

    @Test
    void linksByBothEndsWithWhatTheyCouldBe() {
        String text = FabricFormat.text(sweep, false);
        assertTrue(text.startsWith("Fabric 0xfe80000000000000, SM lid 1, swept from sweeper-1 in 310 ms: 3 nodes, "
                + "2 links\n"), text);
        assertTrue(text.contains("  \"h2 mlx5_0\" 0x0000000000100002[1] lid 3 <==> \"leaf1\" 0x0000000000200000[2] lid 2"
                + "  1X SDR Active/LinkUp (could be 12X QDR)\n"), text);
        assertTrue(text.contains("Ports with nothing linked:\n  \"leaf1\" 0x0000000000200000[3] lid 2  Down/Polling\n"),
                text);
        assertTrue(text.contains("[SymbolErrorCounter == 50] [PortXmitWait == 1234] "
                + "[PortXmitData == 18446744073709551615]"), text);
    }

    @Test
    void errorsOnlyKeepsThePortsWithErrors() {
        String text = FabricFormat.text(sweep, true);
        assertTrue(text.contains("Errors:\n  \"leaf1\" 0x0000000000200000[2] lid 2: [SymbolErrorCounter == 50] "
                + "[PortXmitWait == 1234]\n"), text);
        assertFalse(text.contains("PortXmitData"), text);
        assertFalse(text.contains("Links:"), text);
        FabricSweep errors = FabricFormat.errorsOnly(sweep);
        assertEquals(1, errors.nodes().size());
        assertEquals(1, errors.nodes().get(0).ports().size());
    }
}
