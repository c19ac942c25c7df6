package io.rdmamon.agent.probe.standin;

import io.rdmamon.protocol.probe.PerftestTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes executables {@code ib_write_bw} and {@code ib_send_lat} into a directory that exec {@link StandInPerftest}
 * in a new JVM with the test classpath, so the agent starts them exactly as it starts the real binaries.
 */
public final class StandInBinary {
    private StandInBinary() {
    }

    /**
     * @param environment STANDIN_* settings baked into the scripts
     * @return the {@code ib_write_bw} (its {@code ib_send_lat} beside it)
     */
    public static Path write(Path dir, Map<String, String> environment) throws IOException {
        Path bandwidth = write(dir, PerftestTest.WRITE_BW, environment);
        write(dir, PerftestTest.SEND_LAT, environment);
        return bandwidth;
    }

    private static Path write(Path dir, PerftestTest test, Map<String, String> environment) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        StringBuilder script = new StringBuilder("#!/bin/sh\n");
        new TreeMap<>(environment).forEach((name, value) ->
                script.append(name).append('=').append(quote(value)).append("; export ").append(name).append('\n'));
        // a small, quick JVM: the stand-in lives for seconds
        script.append("exec ").append(quote(java)).append(" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss512k -cp ")
                .append(quote(System.getProperty("java.class.path"))).append(' ')
                .append(StandInPerftest.class.getName()).append(' ').append(test.wireName()).append(" \"$@\"\n");
        Path binary = dir.resolve(test.program());
        Files.writeString(binary, script);
        Files.setPosixFilePermissions(binary, PosixFilePermissions.fromString("rwx------"));
        return binary;
    }

    private static String quote(String value) {
        return "'" + value.replace("'", "'\\''") + "'";
    }
}
