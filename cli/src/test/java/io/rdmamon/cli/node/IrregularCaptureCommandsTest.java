package io.rdmamon.cli.node;

import io.rdmamon.cli.CliRun;
import io.rdmamon.protocol.testing.Fifos;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A FIFO at {@code etc/nccl.conf} or at a module capture hung these commands in the read; now each refuses the host
 * root as bad input (exit 2) naming the file.
 */
@EnabledOnOs(OS.LINUX)
class IrregularCaptureCommandsTest {
    /** Far above a command's cost on this small root: reached only when a read blocks. */
    private static final Duration BOUND = Duration.ofSeconds(60);

    @ParameterizedTest(name = "{0} with a FIFO at {1}")
    @CsvSource(delimiter = '|', value = {
            "sample|etc/nccl.conf",
            "nccl-env|etc/nccl.conf",
            "sample|ethtool/ens1f0np0/module",
            "nccl-env|ethtool/ens1f0np0/module",
            "module -i ens1f0np0|ethtool/ens1f0np0/module"})
    void exitsTwoNamingTheFile(String command, String fifo, @TempDir Path root) throws Exception {
        Files.createDirectories(root.resolve("sys/class/net/ens1f0np0"));
        Fifos.make(root.resolve(fifo));
        String[] args = (command + " --host-root " + root).split(" ");

        CliRun run = Fifos.callWithin(BOUND, () -> CliRun.of(args));

        assertEquals(2, run.exitCode(), run::toString);
        assertArrayEquals(new String[] {"rdmamon: " + fifo + ": not a regular file (FIFO)"}, run.errLines());
    }
}
