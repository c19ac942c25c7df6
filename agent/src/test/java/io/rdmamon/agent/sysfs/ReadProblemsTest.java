package io.rdmamon.agent.sysfs;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link ReadProblems#parse}, the one parse every sysfs reader (devices, PCI functions, the topology) goes through:
 * whatever the parser throws costs the one file, named.
 */
class ReadProblemsTest {
    private static final Path ROOT = Path.of("/host");
    private static final Path FILE = ROOT.resolve("sys/bus/pci/devices/0000:01:00.0/numa_node");

    static Stream<Arguments> parses() {
        Function<String, Integer> number = Integer::valueOf;
        Function<String, Integer> buggy = text -> text.isEmpty() ? 0 : null;
        return Stream.of(
                Arguments.of("7", number, 7, List.of()),
                Arguments.of(null, number, null, List.of()),
                Arguments.of("x", number, null,
                        List.of("sys/bus/pci/devices/0000:01:00.0/numa_node: For input string: \"x\"")),
                Arguments.of("1", (Function<String, Integer>) text -> {
                    throw new NullPointerException("bug");
                }, null, List.of("sys/bus/pci/devices/0000:01:00.0/numa_node: cannot parse \"1\": "
                        + "java.lang.NullPointerException: bug")),
                Arguments.of("1", buggy, null, List.of()));
    }

    @ParameterizedTest(name = "{index}: {0}")
    @MethodSource("parses")
    void aParserFailureIsTheFilesProblem(String text, Function<String, Integer> parser, Integer value,
                                         List<String> problems) {
        ReadProblems read = new ReadProblems(ROOT);
        assertEquals(value, read.parse(FILE, text, parser));
        assertEquals(problems, read.messages());
    }
}
