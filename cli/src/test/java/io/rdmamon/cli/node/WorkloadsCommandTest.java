package io.rdmamon.cli.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.rdmamon.cli.CliRun;
import io.rdmamon.protocol.model.PortWorkload;

/** {@code rdmamon workloads}: a table per port, JSON, a captured root (no QPs read) and bad input. */
class WorkloadsCommandTest {
    /** Surefire runs in the module directory (cli/); the fixture belongs to the agent module. */
    private static final String ROOT = Path.of("..", "agent", "src", "test", "fixtures", "mlx5-roce")
            .toAbsolutePath().normalize().toString();

    @Test
    void eachWorkloadIsOneRowWithHowItWasAttributed() {
        String text = WorkloadsCommand.text(new WorkloadsCommand.Report("mlx5_0", 1, List.of(
                new PortWorkload(1, "ml", "train-llama-0", "worker", "python3", PortWorkload.PROCESS, null, 12),
                new PortWorkload(1, null, null, null, "[ib_core]", PortWorkload.NONE, "kernel QP", 1))));
        assertEquals("""
                mlx5_0/1
                \tQPS\tATTRIBUTION\tNAMESPACE/POD\tCONTAINER\tCOMM\tREASON
                \t12\tprocess\tml/train-llama-0\tworker\tpython3\t-
                \t1\tnone\t-\t-\t[ib_core]\tkernel QP
                """, text);
        assertEquals("mlx5_0/2\tno QPs\n", WorkloadsCommand.text(new WorkloadsCommand.Report("mlx5_0", 2, List.of())));
    }

    @Test
    void aCapturedRootSaysNoQpsWereReadOnEachPort() throws Exception {
        CliRun run = CliRun.of("workloads", "--host-root", ROOT);
        assertEquals(0, run.exitCode(), run::toString);
        assertEquals("mlx5_0/1\t" + WorkloadsCommand.NOT_READ, run.out().lines().findFirst().orElseThrow());

        JsonNode json = new ObjectMapper().readTree(CliRun.of("workloads", "-d", "mlx5_0", "--json", "--host-root",
                ROOT).out());
        assertEquals(1, json.size(), json.toString());
        // JSON leaves nulls out: no workloads key means the QPs were not read
        assertEquals("{\"device\":\"mlx5_0\",\"port\":1}", json.get(0).toString());
    }

    @Test
    void anUnknownDeviceIsBadInputInOneLine() {
        CliRun unknown = CliRun.of("workloads", "-d", "mlx5_9", "--host-root", ROOT);
        assertEquals(2, unknown.exitCode());
        assertEquals(1, unknown.errLines().length);
        assertTrue(unknown.errLines()[0].startsWith("rdmamon: unknown device 'mlx5_9' (devices: "), unknown.toString());
        CliRun noRoot = CliRun.of("workloads", "--host-root", "/nonexistent-root");
        assertEquals(2, noRoot.exitCode());
        assertArrayEquals(new String[] {"rdmamon: --host-root /nonexistent-root: no such directory"}, noRoot.errLines());
    }

    @Test
    void helpNamesTheOptions() {
        CliRun help = CliRun.of("workloads", "--help");
        assertEquals(0, help.exitCode());
        assertTrue(help.out().contains("--host-root") && help.out().contains("--json") && help.out().contains("-d"),
                help.out());
    }
}
