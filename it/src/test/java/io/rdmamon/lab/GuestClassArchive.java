package io.rdmamon.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * A class-data-sharing archive (AppCDS) of the classes rdmamon loads, for the guests' JVMs. Under TCG a guest JVM
 * spends most of its 15 to 60 s start parsing and verifying the shaded jar's classes; mapped from an archive they
 * cost about 30 % less (0.75 s instead of 1.05 s for {@code rdmamon sample} on the host, same ratio in the guests),
 * and the lab suites start about twenty guest JVMs.
 *
 * <p>Made on the host, once per jar: the classes that {@code rdmamon sample}, {@code devinfo} and a starting
 * {@code agent} load from a captured host root are listed ({@code -XX:DumpLoadedClassList}), then dumped
 * ({@code -Xshare:dump}). The guests see the host's JDK and the jar at the same paths over 9p, which is what the
 * archive's validation checks; should it not match, the JVM ignores the archive and loads the jar as before
 * ({@code -Xshare:auto}, the default), so the archive can only save time, never change a result.
 */
final class GuestClassArchive {
    static final Path FILE = LabBootFiles.REPOSITORY.resolve("it/target/lab-cds/rdmamon.jsa");
    private static final Path CAPTURED_HOST = LabBootFiles.REPOSITORY.resolve("agent/src/test/fixtures/mlx5-roce");
    private static final Duration STEP_LIMIT = Duration.ofMinutes(2);

    private GuestClassArchive() {
    }

    /** Makes {@link #FILE} unless it is newer than the jar; a failure leaves no archive and is only reported. */
    static synchronized void ensure() throws InterruptedException {
        Path jar = Path.of(Guest.JAR);
        try {
            if (Files.exists(FILE) && Files.getLastModifiedTime(FILE).compareTo(Files.getLastModifiedTime(jar)) > 0) {
                return;
            }
            Path dir = Files.createDirectories(FILE.getParent());
            Files.deleteIfExists(FILE);
            TreeSet<String> classes = new TreeSet<>();
            String root = "--host-root=" + CAPTURED_HOST;
            classes.addAll(loadedBy(dir, "sample", List.of("sample", "--json", root), null));
            classes.addAll(loadedBy(dir, "devinfo", List.of("devinfo", "--json", root), null));
            // the agent runs until stopped: its classes are listed once it has sampled and tried to stream
            classes.addAll(loadedBy(dir, "agent", List.of("agent", root, "--node=archive",
                    "--collector=ws://127.0.0.1:9", "--listen=127.0.0.1:0"), "cannot connect"));
            Path list = dir.resolve("classes.lst");
            Files.write(list, classes);
            Path partial = dir.resolve("rdmamon.jsa.partial");
            List<String> dump = java(List.of("-Xshare:dump", "-XX:SharedClassListFile=" + list,
                    "-XX:SharedArchiveFile=" + partial, "-cp", Guest.JAR));
            run(dump, dir.resolve("dump.log"), null);
            Files.move(partial, FILE, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | IllegalStateException e) {
            System.err.println("lab: no class archive for the guests' JVMs (they load the jar as before): " + e);
        }
    }

    /** The class names a run of {@code rdmamon args} loads, in the list format {@code -Xshare:dump} takes. */
    private static List<String> loadedBy(Path dir, String name, List<String> args, String stopAt)
            throws IOException, InterruptedException {
        Path list = dir.resolve(name + ".lst");
        List<String> argv = new ArrayList<>(java(List.of("-XX:DumpLoadedClassList=" + list, "-jar", Guest.JAR)));
        argv.addAll(args);
        run(argv, dir.resolve(name + ".log"), stopAt);
        return Files.readAllLines(list).stream().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
    }

    /**
     * {@code java} as the guests run it: the one on the PATH (the guests' userland is this host's), with their JVM
     * flags; an archive is only mapped by the JDK that made it, with compatible settings.
     */
    private static List<String> java(List<String> args) {
        List<String> argv = new ArrayList<>();
        argv.add("java");
        argv.addAll(Guest.JVM_FLAGS);
        argv.addAll(args);
        return argv;
    }

    /** Runs {@code argv} to its exit, or until its log shows {@code stopAt} (then stops it); bounded either way. */
    private static void run(List<String> argv, Path log, String stopAt) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        process.getOutputStream().close();
        long deadline = System.nanoTime() + STEP_LIMIT.toNanos();
        try {
            while (process.isAlive() && System.nanoTime() < deadline) {
                if (stopAt != null && Files.readString(log, StandardCharsets.ISO_8859_1).contains(stopAt)) {
                    return;
                }
                process.waitFor(100, TimeUnit.MILLISECONDS);
            }
            if (process.isAlive()) {
                throw new IllegalStateException(String.join(" ", argv) + ": not done within " + STEP_LIMIT);
            }
            if (stopAt != null || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", argv) + " exited " + process.exitValue()
                        + "; see " + log);
            }
        } finally {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
