package io.rdmamon.agent.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A process started by a benchmark: an argv list (never a shell), stderr to a log file. JVM children
 * run a {@link BenchControl} loop and answer one-line commands on stdin with a line starting
 * {@code bench } on stdout.
 */
final class BenchChild implements AutoCloseable {
    private final String name;
    private final Process process;
    private final Writer commands;
    private final BufferedReader answers;

    private BenchChild(String name, Process process) {
        this.name = name;
        this.process = process;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** A program with {@code env} added to this process's environment, whose output all goes to {@code log}. */
    static BenchChild program(String name, List<String> argv, Map<String, String> env, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        return new BenchChild(name, process);
    }

    /** A JVM on this JVM's class path running {@code mainClass}; stderr (logging) goes to {@code log}. */
    static BenchChild java(String name, List<String> jvmFlags, Class<?> mainClass, List<String> args, Path log)
            throws IOException {
        return java(name, 0, jvmFlags, mainClass, args, log);
    }

    /**
     * As {@link #java(String, List, Class, List, Path)}, run by nice(1) at {@code niceness} when it is not 0 (every
     * thread the JVM starts inherits it). A negative one needs root; without it nice warns in the log and the child
     * runs at this process's niceness ({@link #niceness} says which).
     */
    static BenchChild java(String name, int niceness, List<String> jvmFlags, Class<?> mainClass, List<String> args,
                           Path log) throws IOException {
        List<String> argv = new ArrayList<>();
        if (niceness != 0) {
            argv.addAll(List.of("nice", "-n", Integer.toString(niceness)));
        }
        argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        argv.addAll(jvmFlags);
        argv.add("-cp");
        argv.add(System.getProperty("java.class.path"));
        argv.add(mainClass.getName());
        argv.addAll(args);
        Process process = new ProcessBuilder(argv).redirectError(log.toFile()).start();
        return new BenchChild(name, process);
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    /** The child's niceness (field 19 of {@code /proc/<pid>/stat}). */
    int niceness() throws IOException {
        return Integer.parseInt(ProcessUsage.fieldsFromState(
                Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat")))[16]);
    }

    ProcessUsage usage() throws IOException {
        return ProcessUsage.of(process.pid());
    }

    /** Sends {@code command} and returns the answer (without the {@code bench } prefix). */
    String ask(String command) throws IOException {
        commands.write(command + "\n");
        commands.flush();
        return awaitAnswer();
    }

    /** The next answer line (e.g. the one a child prints when it is ready). */
    String awaitAnswer() throws IOException {
        for (String line; (line = answers.readLine()) != null; ) {
            if (line.startsWith(BenchControl.PREFIX)) {
                return line.substring(BenchControl.PREFIX.length());
            }
        }
        throw new IOException(name + " (pid " + process.pid() + ") exited with " + waitExit() + " before answering");
    }

    private int waitExit() {
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
