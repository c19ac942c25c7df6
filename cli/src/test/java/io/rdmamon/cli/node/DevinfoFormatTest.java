package io.rdmamon.cli.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.LldpNeighbor;
import io.rdmamon.protocol.testing.FixtureHosts;
import io.rdmamon.protocol.testing.Samples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DevinfoFormatTest {

    @Test
    void printsIbvDevinfoLayout() {
        String expected = ""
                + "hca_id:\tmlx5_0\n"
                + "\tnode_type:\t\t\tCA (1)\n"
                + "\tfw_ver:\t\t\t\t14.28.2006\n"
                + "\tnode_guid:\t\t\t0a7f:bc12:45ef:d23b\n"
                + "\tsys_image_guid:\t\t\t0a7f:bc12:45ef:d23b\n"
                + "\thca_type:\t\t\tMT4123\n"
                + "\tboard_id:\t\t\tMT_0000000010\n"
                + "\tphys_port_cnt:\t\t\t1\n"
                + "\t\tport:\t1\n"
                + "\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n"
                + "\t\t\tphys_state:\t\tLINK_UP (5)\n"
                + "\t\t\trate:\t\t\t100 Gb/sec (4X EDR)\n"
                + "\t\t\tport_lid:\t\t0\n"
                + "\t\t\tlink_layer:\t\tEthernet\n"
                + "\t\t\tgid_count:\t\t4\n"
                + "\t\t\tnetdev:\t\t\teth2\n"
                + "\n"
                // eRDMA: no hca_type, no board_id (the driver has no such files): lines left out
                + "hca_id:\terdma_0\n"
                + "\tnode_type:\t\t\tRNIC (4)\n"
                + "\tfw_ver:\t\t\t\t0.2.0\n"
                + "\tnode_guid:\t\t\t0216:3eff:fe01:0203\n"
                + "\tsys_image_guid:\t\t\t0216:3eff:fe01:0203\n"
                + "\tphys_port_cnt:\t\t\t1\n"
                + "\t\tport:\t1\n"
                + "\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n"
                + "\t\t\tphys_state:\t\tLINK_UP (5)\n"
                + "\t\t\trate:\t\t\t2.5 Gb/sec (1X SDR)\n"
                + "\t\t\tport_lid:\t\t0\n"
                + "\t\t\tlink_layer:\t\tEthernet\n"
                + "\t\t\tgid_count:\t\t1\n"
                + "\t\t\tnetdev:\t\t\teth0\n"
                + "\n";
        assertEquals(expected, DevinfoFormat.text(List.of(FixtureHosts.commandsMlx5(), FixtureHosts.erdma(Map.of()))));
    }

    @Test
    void unreadablePortFilesAreLeftOut() {
        IbDevice device = new IbDevice("irdma0", 0, null, null, null, null, null, null,
                List.of(Samples.unreadablePort(1)));
        assertEquals("hca_id:\tirdma0\n\tphys_port_cnt:\t\t\t1\n\t\tport:\t1\n\t\t\tgid_count:\t\t0\n\n",
                DevinfoFormat.text(List.of(device)));
    }

    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {
            "1, DOWN, PORT_DOWN", "2, INIT, PORT_INIT", "3, ARMED, PORT_ARMED", "4, ACTIVE, PORT_ACTIVE",
            "5, ACTIVE_DEFER, PORT_ACTIVE_DEFER", "0, NOP, NOP", "9, NULL, invalid state"})
    void portStateNames(int id, String kernel, String expected) {
        assertEquals(expected, DevinfoFormat.portStateName(id, kernel));
    }

    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {
            "1, Sleep, SLEEP", "2, Polling, POLLING", "3, Disabled, DISABLED",
            "4, PortConfigurationTraining, PORT_CONFIGURATION TRAINING", "5, LinkUp, LINK_UP",
            "6, LinkErrorRecovery, LINK_ERROR_RECOVERY", "7, Phy Test, PHY TEST",
            "0, <unknown>, <unknown>", "8, NULL, invalid physical state"})
    void physicalStateNames(int id, String kernel, String expected) {
        assertEquals(expected, DevinfoFormat.physStateName(id, kernel));
    }

    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {"0x0, 0", "0x1a, 26", "0X10, 16", "7, 7", "junk, NULL", "NULL, NULL"})
    void lidFromSysfsHexToDecimal(String lid, Integer expected) {
        assertEquals(expected, DevinfoFormat.parseLid(lid));
    }

    @Test
    void jsonCarriesTheSameFieldsAndOmitsAbsentOnes() throws Exception {
        JsonNode json = new ObjectMapper().readTree(
                JsonOutput.write(DevinfoFormat.info(List.of(FixtureHosts.commandsMlx5(), FixtureHosts.erdma(Map.of())))));
        JsonNode mlx5 = json.get(0);
        assertEquals("mlx5_0", mlx5.get("hcaId").asText());
        assertEquals("MT_0000000010", mlx5.get("boardId").asText());
        JsonNode port = mlx5.get("ports").get(0);
        assertEquals(12_500_000_000L, port.get("rateBytesPerSecond").asLong());
        assertEquals(4, port.get("gidCount").asInt());
        assertEquals(4, port.get("stateId").asInt());
        assertEquals("eth2", port.get("netdev").asText());
        assertFalse(json.get(1).has("boardId"), "absent board_id must be absent, not null");
    }

    private static IbDevice cabled(LldpNeighbor neighbor) {
        IbDevice device = FixtureHosts.commandsMlx5();
        return device.withPorts(List.of(device.ports().get(0).withNeighbor(neighbor)));
    }

    @Test
    void theLldpNeighbourFollowsTheNetdevInTextAndJson() throws Exception {
        LldpNeighbor leaf = new LldpNeighbor("1c:34:da:07:00:00", "mac", "leaf-07", "Ethernet8", "ifname", null);

        String text = DevinfoFormat.text(List.of(cabled(leaf)));
        assertTrue(text.contains("\t\t\tnetdev:\t\t\teth2\n"
                + "\t\t\tlldp_neighbor:\t\tleaf-07 port Ethernet8 (chassis 1c:34:da:07:00:00)\n\n"), text);

        JsonNode neighbor = new ObjectMapper().readTree(JsonOutput.write(DevinfoFormat.info(List.of(cabled(leaf)))))
                .get(0).get("ports").get(0).get("neighbor");
        assertEquals("leaf-07", neighbor.get("systemName").asText());
        assertEquals("Ethernet8", neighbor.get("portId").asText());
        assertEquals("ifname", neighbor.get("portIdType").asText());
        assertEquals("1c:34:da:07:00:00", neighbor.get("chassisId").asText());
        assertFalse(neighbor.has("portDescription"), "absent fields are omitted");
    }

    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {
            "1c:34:da:07:00:00, leaf-07, Ethernet8, leaf-07 port Ethernet8 (chassis 1c:34:da:07:00:00)",
            "f4:b5:2f:04:22:40, NULL,    525,       chassis f4:b5:2f:04:22:40 port 525",
            "NULL,              leaf-07, NULL,      leaf-07",
            "NULL,              NULL,    swp1,      port swp1"})
    void neighbourInOneLine(String chassisId, String systemName, String portId, String expected) {
        assertEquals(expected, DevinfoFormat.neighborText(new LldpNeighbor(chassisId, "mac", systemName, portId,
                "ifname", null)));
    }

    @Test
    void noNeighbourNoLine() {
        assertFalse(DevinfoFormat.text(List.of(FixtureHosts.commandsMlx5())).contains("lldp_neighbor"));
        assertFalse(JsonOutput.write(DevinfoFormat.info(List.of(FixtureHosts.commandsMlx5()))).contains("neighbor"));
    }
}
