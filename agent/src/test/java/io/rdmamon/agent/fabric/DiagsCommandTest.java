package io.rdmamon.agent.fabric;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import org.junit.jupiter.api.Test;

import io.rdmamon.protocol.testing.Waits;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bounds every diags tool runs under, with ordinary programs standing in for the tools. */
class DiagsCommandTest {
    private static final Duration GENEROUS = Duration.ofSeconds(30);
    private final DiagsCommand command = new DiagsCommand(Map.of("RDMAMON_TEST_VALUE", "from the sweeper"));

    @Test
    void programsStartedTogetherEachGiveTheirOwnOutputExitAndWarnings() throws Exception {
        DiagsCommand.Running first = command.start(List.of("sh", "-c",
                "sleep 0.2; echo \"one $RDMAMON_TEST_VALUE\"; echo 'ibwarn: [4242] f: late' >&2; exit 1"), GENEROUS);
        DiagsCommand.Running second = command.start(List.of("echo", "two"), GENEROUS);

        DiagsCommand.Output two = second.await();
        DiagsCommand.Output one = first.await();

        assertEquals(new DiagsCommand.Output(0, "two\n", ""), two);
        assertEquals("one from the sweeper\n", one.stdout());
        assertEquals(1, one.exit());
        assertEquals(List.of("ibwarn: f: late"), one.warnings(), "libibmad's pid is left out");
    }

    @Test
    void aProgramPastItsDeadlineIsKilledWithItsChildrenAndNamed() throws Exception {
        long start = System.nanoTime();
        // the child sleep holds stdout open: only killing it too ends the read
        IOException e = assertThrows(IOException.class, () -> command.run(List.of("sh", "-c", "sleep 60 & sleep 60"),
                Duration.ofMillis(300)));
        assertTrue(e.getMessage().startsWith("sh -c sleep 60 & sleep 60: no answer within 300 ms"), e.getMessage());
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(20).toNanos(), "killed, not waited out");
    }

    @Test
    void aProgramThatPrintsPastTheLimitIsKilledAndItsAnswerRefused() {
        IOException e = assertThrows(IOException.class, () -> command.run(List.of("sh", "-c",
                "head -c " + (DiagsCommand.MAX_OUTPUT_BYTES + 1) + " /dev/zero; sleep 60"), GENEROUS));
        assertTrue(e.getMessage().endsWith("printed more than " + DiagsCommand.MAX_OUTPUT_BYTES + " bytes"),
                e.getMessage());
    }

    @Test
    void aProgramThatIsNotInstalledIsAnAbsentCapability() {
        UnsupportedCapabilityException e = assertThrows(UnsupportedCapabilityException.class,
                () -> command.start(List.of("rdmamon-no-such-diags-tool", "-x"), GENEROUS));
        assertTrue(e.getMessage().startsWith("rdmamon-no-such-diags-tool -x: cannot run rdmamon-no-such-diags-tool"),
                e.getMessage());
    }

    @Test
    void aStartedProgramWhoseAnswerIsNoLongerWantedIsKilled(@TempDir Path dir) throws Exception {
        Path pid = dir.resolve("pid");
        DiagsCommand.Running running = command.start(List.of("sh", "-c", "echo $$ > " + pid + "; exec sleep 60"),
                GENEROUS);
        // echo writes the pid and its newline in one write
        Waits.waitFor(() -> pid.toFile().length() > 0, "the program's pid");
        ProcessHandle program = ProcessHandle.of(Long.parseLong(Files.readString(pid).strip())).orElseThrow();

        running.kill();

        IOException e = assertThrows(IOException.class, running::await);
        assertEquals("sh -c echo $$ > " + pid + "; exec sleep 60: stopped before it answered", e.getMessage());
        Waits.waitFor(() -> !program.isAlive(), "the program to be gone");
    }
}
