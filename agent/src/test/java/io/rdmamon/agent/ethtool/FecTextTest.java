package io.rdmamon.agent.ethtool;

import io.rdmamon.protocol.model.FecMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@code ethtool --show-fec} output as ethtool 5.x and 6.x print it, and what is not such output. */
class FecTextTest {
    static Stream<Arguments> captures() {
        return Stream.of(
                Arguments.of("ethtool 6.x, RS active", "FEC parameters for ens2f1np1:\n"
                        + "Supported/Configured FEC encodings: Auto RS\nActive FEC encoding: RS\n",
                        new FecMode("RS", List.of("Auto", "RS"))),
                Arguments.of("ethtool 5.x wording, Fire Code", "FEC parameters for eth3:\n"
                        + "Configured FEC encodings: BaseR\nActive FEC encoding: BaseR\n",
                        new FecMode("BaseR", List.of("BaseR"))),
                Arguments.of("FEC off by configuration", "FEC parameters for p1p2:\n"
                        + "Supported/Configured FEC encodings: Off\nActive FEC encoding: Off\n",
                        new FecMode("Off", List.of("Off"))),
                Arguments.of("no encoding active (link down): None is null", "FEC parameters for p1p2:\n"
                        + "Supported/Configured FEC encodings: Auto\nActive FEC encoding: None\n",
                        new FecMode(null, List.of("Auto"))),
                Arguments.of("LLRS on a 100G-per-lane link, CRLF line ends", "FEC parameters for enp65s0f0np0:\r\n"
                        + "Supported/Configured FEC encodings: Auto RS LLRS\r\nActive FEC encoding: LLRS\r\n",
                        new FecMode("LLRS", List.of("Auto", "RS", "LLRS"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("captures")
    void parses(String name, String text, FecMode expected) {
        assertEquals(expected, FecText.parse(text));
    }

    static Stream<Arguments> notCaptures() {
        return Stream.of(
                Arguments.of("FEC parameters for eth0:\nActive FEC encoding: Reed-Solomon\n",
                        "\"Reed-Solomon\" in \"Active FEC encoding: Reed-Solomon\" is not an ethtool FEC encoding"),
                Arguments.of("netlink error: Operation not supported\n",
                        "no \"Active FEC encoding:\" line: not an ethtool --show-fec capture"),
                Arguments.of("", "no \"Active FEC encoding:\" line"));
    }

    @ParameterizedTest
    @MethodSource("notCaptures")
    void refusesNamingTheCulprit(String text, String messageStart) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FecText.parse(text));
        assertEquals(messageStart, e.getMessage().substring(0, Math.min(messageStart.length(), e.getMessage().length())));
    }
}
