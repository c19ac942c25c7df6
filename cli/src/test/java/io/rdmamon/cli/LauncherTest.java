package io.rdmamon.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checkout's {@code rdmamon} launcher, run by bash on a copy of the checkout's layout with {@code mvn} and
 * {@code java} stubs first on the PATH: it builds when the jar is missing or older than any source, and only then.
 */
class LauncherTest {
    private static final Instant JAR_TIME = Instant.parse("2026-01-02T00:00:00Z");
    @TempDir
    Path checkout;
    private Path stubs;
    private Path builds;
    private Path jar;
    private Path source;

    @BeforeEach
    void layout() throws IOException {
        Files.copy(Path.of("..", "rdmamon"), checkout.resolve("rdmamon"));
        jar = checkout.resolve("cli/target/rdmamon.jar");
        Files.createDirectories(jar.getParent());
        Files.writeString(jar, "jar");
        Files.setLastModifiedTime(jar, FileTime.from(JAR_TIME));
        source = checkout.resolve("agent/src/main/java/io/rdmamon/agent/Reader.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "class Reader {}");
        Files.setLastModifiedTime(source, FileTime.from(JAR_TIME.minusSeconds(3600)));
        // build output in target/ never counts as a source
        Path classes = checkout.resolve("agent/target/classes/Reader.java");
        Files.createDirectories(classes.getParent());
        Files.writeString(classes, "generated");
        stubs = Files.createDirectories(checkout.resolve("stubs"));
        builds = checkout.resolve("builds.log");
        stub("mvn", "echo \"$PWD $*\" >> '" + builds + "'\ntouch '" + jar + "'\n");
        stub("java", "echo \"java $*\"\n");
    }

    @Test
    void upToDateJarRunsWithoutBuilding() throws Exception {
        Result run = launch("devinfo");
        assertEquals("java -jar " + jar.toRealPath() + " devinfo", run.stdout().strip(), run::toString);
        assertFalse(Files.exists(builds), run::toString);
    }

    @Test
    void sourceNewerThanTheJarRebuildsFirst() throws Exception {
        Files.setLastModifiedTime(source, FileTime.from(JAR_TIME.plusSeconds(60)));
        Result run = launch("devinfo");
        assertEquals(List.of(checkout.toRealPath() + " -B -q -DskipTests package"), Files.readAllLines(builds), run::toString);
        assertTrue(run.stderr().contains("older than the sources"), run::toString);
        assertEquals("java -jar " + jar.toRealPath() + " devinfo", run.stdout().strip(), run::toString);
        // built once: the jar is now newer than the sources
        launch("devinfo");
        assertEquals(1, Files.readAllLines(builds).size());
    }

    @Test
    void aTestNewerThanTheJarDoesNotRebuild() throws Exception {
        Path test = checkout.resolve("agent/src/test/java/io/rdmamon/agent/ReaderTest.java");
        Files.createDirectories(test.getParent());
        Files.writeString(test, "class ReaderTest {}");
        Files.setLastModifiedTime(test, FileTime.from(JAR_TIME.plusSeconds(60)));
        Result run = launch("devinfo");
        assertFalse(Files.exists(builds), "only what goes into the jar counts: " + run);
    }

    @Test
    void missingJarIsBuilt() throws Exception {
        Files.delete(jar);
        Result run = launch("--help");
        assertEquals(1, Files.readAllLines(builds).size(), run::toString);
        assertTrue(run.stderr().contains("not found"), run::toString);
    }

    private void stub(String name, String body) throws IOException {
        Path file = stubs.resolve(name);
        Files.writeString(file, "#!/usr/bin/env bash\n" + body, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private record Result(int exit, String stdout, String stderr) {
    }

    private Result launch(String... args) throws Exception {
        List<String> argv = new java.util.ArrayList<>(List.of("bash", checkout.resolve("rdmamon").toString()));
        argv.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(argv).directory(checkout.toFile());
        builder.environment().put("PATH", stubs + ":" + System.getenv("PATH"));
        Path out = Files.createTempFile(checkout, "out", ".txt");
        Path err = Files.createTempFile(checkout, "err", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "launcher did not finish");
        return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
    }
}
