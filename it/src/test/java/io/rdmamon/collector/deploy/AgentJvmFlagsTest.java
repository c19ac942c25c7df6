package io.rdmamon.collector.deploy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The agent's JVM flags (docs/performance.md, "Agent footprint") are the same wherever an agent is started:
 * the checkout's launcher, the systemd unit, the container image's label and the DaemonSet; and the launcher
 * really passes them, while a set JAVA_OPTS replaces them.
 */
class AgentJvmFlagsTest {
    private static final Path LAUNCHER = DeployTree.REPO.resolve("rdmamon");
    /** What the measurements chose; a change here is a change of docs/performance.md too. */
    private static final List<String> MEASURED = List.of("-XX:+UseSerialGC", "-Xms16m", "-Xmx160m",
            "-XX:TieredStopAtLevel=1", "-XX:CompileThresholdScaling=0.1", "-Xss512k", "-XX:ReservedCodeCacheSize=32m", "-XX:MaxMetaspaceSize=64m",
            "-XX:TrimNativeHeapInterval=5000", "-XX:-UsePerfData", "-XX:+ExitOnOutOfMemoryError");

    @Test
    void theFourPlacesThatStartAnAgentGiveItTheMeasuredFlags() throws IOException {
        assertEquals(MEASURED, words(single(Files.readString(LAUNCHER), "(?m)^agent_java_opts=\"([^\"]*)\"$")), "launcher");
        assertEquals(MEASURED, words(single(Files.readString(DeployTree.SYSTEMD.resolve("rdmamon-agent.service")),
                "(?m)^Environment=\"JAVA_OPTS=([^\"]*)\"$")), "systemd unit");
        assertEquals(MEASURED, words(single(Files.readString(DeployTree.SYSTEMD.resolve("rdmamon-agent.default")),
                "(?m)^#JAVA_OPTS=(.*)$")), "the settings file's example");
        assertEquals(MEASURED, words(single(Files.readString(DeployTree.CONTAINERFILE),
                "(?m)^LABEL io\\.rdmamon\\.agent\\.java-options=\"([^\"]*)\"$")), "Containerfile label");

        assertEquals(MEASURED, ShippedAgentFlags.daemonSet(), "DaemonSet JDK_JAVA_OPTIONS");
    }

    /** The launcher run with a stand-in {@code java} first on PATH: what it would exec. */
    @Test
    void theLauncherPassesTheFlagsToTheAgentOnlyAndJavaOptsReplacesThem(@TempDir Path bin)
            throws Exception {
        Path fakeJava = bin.resolve("java");
        Files.writeString(fakeJava, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
        assertTrue(fakeJava.toFile().setExecutable(true));
        Path jar = DeployTree.REPO.resolve("cli/target/rdmamon.jar");
        assumeTrue(Files.exists(jar), "the launcher would build the jar first");
        assumeTrue(!launcherWouldBuild(jar), "sources newer than the jar: the launcher would build");

        List<String> agent = launch(bin, null, "agent", "--help");
        assertEquals(MEASURED, agent.subList(0, MEASURED.size()));
        assertTrue(agent.get(MEASURED.size()).matches("-XX:(SharedArchiveFile|ArchiveClassesAtExit)=.*rdmamon-agent\\.jsa"),
                "AppCDS archive beside the jar: " + agent);
        assertEquals(List.of("-jar", jar.toString(), "agent", "--help"), agent.subList(agent.size() - 4, agent.size()));

        assertEquals(List.of("-jar", jar.toString(), "nodes"), launch(bin, null, "nodes"), "other commands: JVM defaults");
        assertEquals(List.of("-Xmx1g", "-XX:+UseG1GC", "-jar", jar.toString(), "agent"), launch(bin, "-Xmx1g -XX:+UseG1GC", "agent"));
        assertEquals(List.of("-jar", jar.toString(), "agent"), launch(bin, "", "agent"), "an empty JAVA_OPTS means no flags");
    }

    private static List<String> launch(Path bin, String javaOpts, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(LAUNCHER.toString()));
        argv.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> env = builder.environment();
        env.put("PATH", bin + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.remove("JAVA_OPTS");
        if (javaOpts != null) {
            env.put("JAVA_OPTS", javaOpts);
        }
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), out);
        return out.lines().toList();
    }

    /** The launcher's own staleness test: a source newer than the jar. */
    private static boolean launcherWouldBuild(Path jar) throws IOException {
        long built = Files.getLastModifiedTime(jar).toMillis();
        try (Stream<Path> files = Files.walk(DeployTree.REPO)) {
            return files.filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/.git/"))
                    .filter(p -> p.toString().endsWith(".java") || p.getFileName().toString().equals("pom.xml")
                            || p.toString().contains("/src/main/resources/"))
                    .anyMatch(p -> p.toFile().lastModified() > built);
        }
    }

    private static String single(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), "no match for " + regex);
        String found = m.group(1);
        assertTrue(!m.find(), "more than one match for " + regex);
        return found;
    }

    private static List<String> words(String flags) {
        return List.of(flags.strip().split("\\s+"));
    }
}
