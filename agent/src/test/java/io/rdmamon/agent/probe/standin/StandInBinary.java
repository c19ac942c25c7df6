package io.rdmamon.agent.probe.standin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes an executable {@code ib_write_bw} into a directory that execs {@link StandInPerftest} in a
 * new JVM with the test classpath, so the agent starts it exactly as it starts the real binary.
 */
public final class StandInBinary {
    private StandInBinary() {
    }

    /** @param environment STANDIN_* settings baked into the script */
    public static Path write(Path dir, Map<String, String> environment) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        StringBuilder script = new StringBuilder("#!/bin/sh\n");
        new TreeMap<>(environment).forEach((name, value) ->
                script.append(name).append('=').append(quote(value)).append("; export ").append(name).append('\n'));
        // a small, quick JVM: the stand-in lives for seconds
        script.append("exec ").append(quote(java)).append(" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss512k -cp ")
                .append(quote(System.getProperty("java.class.path"))).append(' ')
                .append(StandInPerftest.class.getName()).append(" \"$@\"\n");
        Path binary = dir.resolve("ib_write_bw");
        Files.writeString(binary, script);
        Files.setPosixFilePermissions(binary, PosixFilePermissions.fromString("rwx------"));
        return binary;
    }

    private static String quote(String value) {
        return "'" + value.replace("'", "'\\''") + "'";
    }
}
