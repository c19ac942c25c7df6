package io.rdmamon.agent.lldp;

import io.rdmamon.agent.host.Fixtures;
import io.rdmamon.protocol.model.LldpNeighbor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code lldpctl -f json} in every shape lldpd prints (fixtures/lldpctl/README.md names where each comes from): one
 * interface or several, a chassis keyed by its name or not, values wrapped by the cleanup or not, json0, none.
 */
class LldpctlJsonTest {
    private static final LldpNeighbor LEAF_PORT_8 = new LldpNeighbor("1c:34:da:07:00:00", "mac", "leaf-07",
            "Ethernet8", "ifname", "gpu-node-13:ens1f0np0");

    private static String fixture(String name) throws IOException {
        return Files.readString(Fixtures.root("lldpctl").resolve(name));
    }

    static Stream<Arguments> captures() {
        return Stream.of(
                Arguments.of("one-interface.json", Map.of("ens1f0np0", LEAF_PORT_8)),
                Arguments.of("several-interfaces.json", Map.of(
                        "eno1", new LldpNeighbor("00:11:22:33:44:55", "mac", "mgmt-sw-03", "ge-0/0/17", "ifname",
                                "rack 7 node 13 BMC-side"),
                        "ens1f0np0", new LldpNeighbor("1c:34:da:07:00:00", "mac", "leaf-07", "Ethernet8", "ifname", null),
                        "ens1f1np1", new LldpNeighbor("1c:34:da:07:00:00", "mac", "leaf-07", "Ethernet12", "ifname",
                                "gpu-node-13:ens1f1np1"))),
                Arguments.of("no-system-name.json", Map.of("ens1f0np0",
                        new LldpNeighbor("f4:b5:2f:04:22:40", "mac", null, "525", "local", "ge-0/0/12.0"))),
                Arguments.of("no-neighbor.json", Map.of()),
                Arguments.of("json0.json", Map.of("ens1f0np0", LEAF_PORT_8)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("captures")
    void eachCaptureGivesTheNeighbourOfEachInterface(String file, Map<String, LldpNeighbor> expected) throws IOException {
        assertEquals(expected, LldpctlJson.parse(fixture(file)));
    }

    @Test
    void interfacesKeepTheOrderPrinted() throws IOException {
        assertEquals(List.of("eno1", "ens1f0np0", "ens1f1np1"),
                List.copyOf(LldpctlJson.parse(fixture("several-interfaces.json")).keySet()));
    }

    /** Shapes the cleanup makes from particular data; each row one document and the neighbour of {@code eth0}. */
    static Stream<Arguments> oddShapes() {
        return Stream.of(
                Arguments.of("two neighbours on one interface: the first",
                        """
                        {"lldp": {"interface": [
                          {"eth0": {"chassis": {"sw1": {"id": {"type": "mac", "value": "00:00:00:00:00:01"}}},
                                    "port": {"id": {"type": "ifname", "value": "swp1"}}}},
                          {"eth0": {"chassis": {"sw2": {"id": {"type": "mac", "value": "00:00:00:00:00:02"}}},
                                    "port": {"id": {"type": "ifname", "value": "swp2"}}}}]}}""",
                        new LldpNeighbor("00:00:00:00:00:01", "mac", "sw1", "swp1", "ifname", null)),
                Arguments.of("a chassis with nothing but its id",
                        """
                        {"lldp": {"interface": {"eth0": {"chassis": {"id": {"type": "local", "value": "abc"}},
                                                         "port": {"id": {"type": "mac", "value": "00:00:00:00:00:09"}}}}}}""",
                        new LldpNeighbor("abc", "local", null, "00:00:00:00:00:09", "mac", null)),
                Arguments.of("a switch named id",
                        """
                        {"lldp": {"interface": {"eth0": {"chassis": {"id": {"id": {"type": "mac", "value": "00:00:00:00:00:03"}}},
                                                         "port": {"id": {"type": "ifname", "value": "Ethernet0"}}}}}}""",
                        new LldpNeighbor("00:00:00:00:00:03", "mac", "id", "Ethernet0", "ifname", null)),
                Arguments.of("values still wrapped in {value} and in arrays",
                        """
                        {"lldp": {"interface": {"eth0": {"chassis": [{"sw1": {"id": [{"type": "mac", "value": "00:00:00:00:00:04"}]}}],
                                                         "port": {"id": {"type": "ifname", "value": {"value": "swp4"}},
                                                                  "descr": [{"value": "uplink"}, {"value": "second"}]}}}}}""",
                        new LldpNeighbor("00:00:00:00:00:04", "mac", "sw1", "swp4", "ifname", "uplink")),
                Arguments.of("an id without a type is the bare value",
                        """
                        {"lldp": {"interface": {"eth0": {"chassis": {"sw1": {"id": "00:00:00:00:00:05"}},
                                                         "port": {"id": "swp5", "descr": "on"}}}}}""",
                        new LldpNeighbor("00:00:00:00:00:05", null, "sw1", "swp5", null, "on")),
                Arguments.of("yes/no/on/off printed as booleans, empty values as empty strings",
                        """
                        {"lldp": {"interface": {"eth0": {"chassis": {"sw1": {"id": {"type": "mac", "value": ""}}},
                                                         "port": {"id": {"type": "ifname", "value": "swp6"}, "descr": true}}}}}""",
                        new LldpNeighbor(null, "mac", "sw1", "swp6", "ifname", "true")),
                Arguments.of("a neighbour with no chassis or port printed",
                        """
                        {"lldp": {"interface": {"eth0": {"via": "CDPv2", "rid": "3"}}}}""",
                        new LldpNeighbor(null, null, null, null, null, null)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oddShapes")
    void oddShapesStillGiveTheNeighbour(String name, String json, LldpNeighbor expected) {
        assertEquals(expected, LldpctlJson.parse(json).get("eth0"));
    }

    @Test
    void whatTheCollectorWouldRefuseIsMadeSendable() {
        String json = """
                {"lldp": {"interface": {"eth0": {"chassis": {"leaf\\u001b[2J": {"id": {"type": "local", "value": "%s"}}},
                                                 "port": {"id": {"type": "ifname", "value": "swp\\n1"}}}}}}"""
                .formatted("ab".repeat(50));

        LldpNeighbor neighbor = LldpctlJson.parse(json).get("eth0");

        assertEquals("leaf\uFFFD[2J", neighbor.systemName());
        assertEquals("swp\uFFFD1", neighbor.portId());
        assertEquals("ab".repeat(32), neighbor.chassisId(), "cut to LldpNeighbor.MAX_FIELD_CHARS");
        assertEquals("a\uD83D\uDE00", LldpctlJson.sendable("a\uD83D\uDE00"), "a surrogate pair is text");
        assertEquals("\uFFFDb", LldpctlJson.sendable("\uD83Db"), "a lone half is not");
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("", "not lldpctl -f json output: expected an object with key \"lldp\""),
                Arguments.of("Interface:    eth0, via: LLDP", "not JSON: Unrecognized token 'Interface'"),
                Arguments.of("{\"lldp\": {\"interface\": {\"eth0\": {}}}", "not JSON: Unexpected end-of-input"),
                Arguments.of("{\"lldp\": {}} {\"lldp\": {}}", "not JSON: Trailing token"),
                Arguments.of("[{\"lldp\": {}}]", "not lldpctl -f json output: expected an object with key \"lldp\""),
                Arguments.of("{\"lldp-deleted\": {}}", "not lldpctl -f json output: expected an object with key \"lldp\""),
                Arguments.of("{\"lldp\": \"none\"}", "lldp: expected an object, got string"),
                Arguments.of("{\"lldp\": {\"interface\": [{\"eth0\": {}, \"eth1\": {}}]}}",
                        "lldp.interface[0]: expected an object keyed by the interface name, got an object with 2 keys"),
                Arguments.of("{\"lldp\": {\"interface\": \"eth0\"}}",
                        "lldp.interface: expected an object keyed by the interface name, got string"),
                Arguments.of("{\"lldp\": {\"interface\": {\"eth0\": {\"chassis\": \"sw1\"}}}}",
                        "lldp.interface.eth0.chassis: expected an object, got string"),
                Arguments.of("{\"lldp\": {\"interface\": {\"eth0\": {\"port\": 7}}}}",
                        "lldp.interface.eth0.port: expected an object, got number"),
                Arguments.of("{\"lldp\": {\"interface\": {\"eth0\": {\"port\": {\"id\": {\"type\": \"ifname\","
                        + " \"value\": {\"name\": \"x\", \"more\": 1}}}}}}}",
                        "lldp.interface.eth0.port.id: expected text, got object"));
    }

    /** Refused by Jackson's StreamReadConstraints, whose exception carries no location (once a NullPointerException). */
    static Stream<Arguments> pastJacksonsLimits() {
        return Stream.of(
                Arguments.of("5,000 nested arrays", "{\"lldp\":" + "[".repeat(5_000), "not JSON: Document nesting depth"),
                Arguments.of("a 2,000-digit chassis id", "{\"lldp\": {\"interface\": {\"eth0\": {\"chassis\": {\"id\": "
                        + "{\"type\": \"local\", \"value\": " + "7".repeat(2_000) + "}}}}}}", "not JSON: Number value length"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pastJacksonsLimits")
    void inputPastJacksonsLimitsIsRefusedAsNotJson(String name, String text, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LldpctlJson.parse(text));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
        assertTrue(e.getMessage().length() < 300, "one line: " + e.getMessage());
    }

    @ParameterizedTest(name = "{index}: {1}")
    @MethodSource("malformed")
    void malformedOutputIsRefusedNamingThePlace(String text, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LldpctlJson.parse(text));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }
}
