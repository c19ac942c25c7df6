package io.rdmamon.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command contract of docs/architecture.md "The rdmamon command", exercised through picocli exactly as {@code
 * main} runs it. */
class MainTest {
    private static final Path MISSING_ROOT = Path.of("/nonexistent/rdmamon-host-root");

    @ParameterizedTest
    @ValueSource(strings = {"devinfo", "gids", "perf", "stat", "sample"})
    void everySubcommandHasHelpAndExitsZero(String subcommand) {
        CliRun run = CliRun.of(subcommand, "--help");
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().startsWith("Usage: rdmamon " + subcommand), run::toString);
        assertTrue(run.out().contains("--host-root=DIR"), run::toString);
        assertTrue(run.out().contains("-V, --version"), run::toString);
        assertEquals("", run.err());
    }

    @Test
    void topLevelHelpListsTheSubcommands() {
        CliRun run = CliRun.of("--help");
        assertEquals(0, run.exitCode());
        for (String sub : new String[] {"devinfo", "gids", "perf", "stat", "sample", "help"}) {
            assertTrue(run.out().lines().anyMatch(l -> l.strip().startsWith(sub + " ") || l.strip().equals(sub)),
                    () -> sub + " missing from\n" + run.out());
        }
    }

    @Test
    void versionIsTheProjectVersion() {
        for (String flag : new String[] {"-V", "--version"}) {
            CliRun run = CliRun.of(flag);
            assertEquals(0, run.exitCode(), run::toString);
            assertTrue(run.out().matches("rdmamon \\d+\\.\\d+\\.\\d+[-.\\w]*\\R"), run::toString);
        }
        // also inherited by subcommands
        assertEquals(CliRun.of("-V").out(), CliRun.of("gids", "-V").out());
    }

    @Test
    void badFlagIsOneLineReasonAndAHintWithExitTwo() {
        CliRun run = CliRun.of("devinfo", "--bogus");
        assertEquals(2, run.exitCode());
        assertArrayEquals(new String[] {
                "rdmamon: Unknown option: '--bogus'",
                "Try 'rdmamon devinfo --help' for more information."}, run.errLines());
        assertEquals("", run.out());
    }

    @Test
    void missingSubcommandAndUnknownSubcommandExitTwo() {
        CliRun none = CliRun.of();
        assertEquals(2, none.exitCode());
        assertEquals("rdmamon: missing subcommand", none.errLines()[0]);
        CliRun unknown = CliRun.of("frobnicate");
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.errLines()[0].contains("'frobnicate'"), unknown::toString);
    }

    static Stream<Arguments> readerInvocations() {
        return Stream.of(
                Arguments.of((Object) new String[] {"devinfo"}),
                Arguments.of((Object) new String[] {"gids", "-d", "mlx5_0"}),
                Arguments.of((Object) new String[] {"perf", "-i", "eth0", "-c", "1"}),
                Arguments.of((Object) new String[] {"stat", "-d", "erdma_0", "-l", "-c", "1"}),
                Arguments.of((Object) new String[] {"sample", "--json"}));
    }

    @ParameterizedTest
    @MethodSource("readerInvocations")
    void missingHostRootExitsTwoNamingThePath(String[] args) {
        String[] withRoot = Stream.concat(Stream.of(args), Stream.of("--host-root", MISSING_ROOT.toString()))
                .toArray(String[]::new);
        CliRun run = CliRun.of(withRoot);
        assertEquals(2, run.exitCode(), run::toString);
        assertArrayEquals(new String[] {"rdmamon: --host-root " + MISSING_ROOT + ": no such directory"},
                run.errLines());
        assertEquals("", run.out());
    }

    @Test
    void hostRootThatIsAFileExitsTwo(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("not-a-dir"), "x");
        CliRun run = CliRun.of("gids", "--host-root", file.toString());
        assertEquals(2, run.exitCode(), run::toString);
        assertArrayEquals(new String[] {"rdmamon: --host-root " + file + ": not a directory"}, run.errLines());
    }

    static Stream<Arguments> badIntervalsAndCounts() {
        return Stream.of(
                Arguments.of(new String[] {"perf", "-i", "eth0", "-t", "0"}, "-t/--interval: '0'"),
                Arguments.of(new String[] {"perf", "-i", "eth0", "-t", "-1"}, "-t/--interval: '-1'"),
                Arguments.of(new String[] {"perf", "-i", "eth0", "--interval", "abc"}, "-t/--interval: 'abc'"),
                Arguments.of(new String[] {"perf", "-i", "eth0", "-t", "NaN"}, "-t/--interval: 'NaN'"),
                Arguments.of(new String[] {"perf", "-d", "mlx5_0", "-c", "0"}, "-c/--count: '0'"),
                Arguments.of(new String[] {"stat", "-d", "erdma_0", "-l", "-t", "0"}, "-t/--interval: '0'"),
                Arguments.of(new String[] {"stat", "-d", "erdma_0", "-l", "-c", "-3"}, "-c/--count: '-3'"),
                Arguments.of(new String[] {"stat", "-d", "erdma_0", "-l", "-c", "x"}, "'x'"));
    }

    @ParameterizedTest
    @MethodSource("badIntervalsAndCounts")
    void badIntervalOrCountExitsTwoNamingTheFlag(String[] args, String culprit) {
        CliRun run = CliRun.of(args);
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals(2, run.errLines().length, run::toString);
        assertTrue(run.errLines()[0].startsWith("rdmamon: ") && run.errLines()[0].contains(culprit), run::toString);
        assertEquals("Try 'rdmamon " + args[0] + " --help' for more information.", run.errLines()[1]);
    }

    @Test
    void perfNeedsExactlyOneOfInterfaceOrDevice() {
        CliRun neither = CliRun.of("perf");
        assertEquals(2, neither.exitCode());
        assertTrue(neither.errLines()[0].contains("-i=IF") && neither.errLines()[0].contains("-d=DEV"),
                neither::toString);
        CliRun both = CliRun.of("perf", "-i", "eth0", "-d", "mlx5_0");
        assertEquals(2, both.exitCode());
        assertTrue(both.errLines()[0].contains("mutually exclusive"), both::toString);
    }

    @Test
    void statNeedsADevice() {
        CliRun noDevice = CliRun.of("stat", "-l");
        assertEquals(2, noDevice.exitCode());
        assertTrue(noDevice.errLines()[0].contains("--ib-dev=DEV"), noDevice::toString);
    }

    @Test
    void blankNodeNameExitsTwo() {
        CliRun run = CliRun.of("sample", "--node", " ");
        assertEquals(2, run.exitCode());
        assertArrayEquals(new String[] {"rdmamon: --node must not be blank"}, run.errLines());
    }

    @Test
    void helpSubcommandShowsASubcommandsUsage() {
        CliRun run = CliRun.of("help", "perf");
        assertEquals(0, run.exitCode());
        assertTrue(run.out().startsWith("Usage: rdmamon perf"), run::toString);
    }
}
