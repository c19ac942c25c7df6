package io.rdmamon.agent.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;

/**
 * The LLDP neighbour of a simulated Ethernet port, written as {@code lldp/<if>.json} in the shape
 * {@code lldpctl -f json <if>} prints for one interface (lldpd's {@code json_writer.c} cleanup: the interface and the
 * chassis keyed by their names, ids as {@code {"type", "value"}}): the node's leaf ({@link SimulatedRacks}) as a SONiC
 * switch with a MAC chassis id made from the leaf's number, and the leaf port the port is cabled to, by name.
 */
final class SimulatedLldp {
    /** NVIDIA's (Mellanox's) OUI, as a Spectrum switch's base MAC has it. */
    private static final long SWITCH_OUI = 0x1c34daL;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private SimulatedLldp() {
    }

    /** The chassis id of leaf {@code leafNumber}: {@code 1c:34:da:00:00:<n>}. */
    static String chassisMac(int leafNumber) {
        return Addresses.macText((SWITCH_OUI << 24) | leafNumber);
    }

    /**
     * Writes {@code lldp/<netdev>.json} for the {@code portOrdinal}-th RDMA port (0-based) of node {@code nodeIndex}
     * (1-based) named {@code nodeName}.
     */
    static void write(HostTree tree, int nodeIndex, String nodeName, int portOrdinal, String netdev) throws IOException {
        tree.write("lldp/" + netdev + ".json", json(nodeIndex, nodeName, portOrdinal, netdev));
    }

    static String json(int nodeIndex, String nodeName, int portOrdinal, String netdev) {
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode neighbour = root.putObject("lldp").putObject("interface").putObject(netdev)
                .put("via", "LLDP").put("rid", "1").put("age", "0 day, 03:12:40");
        ObjectNode chassis = neighbour.putObject("chassis").putObject(SimulatedRacks.leafOf(nodeIndex));
        chassis.putObject("id").put("type", "mac").put("value", chassisMac(SimulatedRacks.leafNumberOf(nodeIndex)));
        chassis.put("descr", "SONiC Software Version: SONiC.202311 - HwSku: ACS-SN4600C");
        ArrayNode capabilities = chassis.putArray("capability");
        capabilities.addObject().put("type", "Bridge").put("enabled", true);
        capabilities.addObject().put("type", "Router").put("enabled", true);
        ObjectNode port = neighbour.putObject("port");
        port.putObject("id").put("type", "ifname").put("value", SimulatedRacks.leafPortOf(nodeIndex, portOrdinal));
        port.put("descr", nodeName + ":" + netdev).put("ttl", "120").put("mfs", "9236");
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a JSON tree", e);
        }
    }
}
