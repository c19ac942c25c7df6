package io.rdmamon.protocol.telemetry;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What {@code rdmamon_build_info} says: the Maven version and git revision the build was made from (the resource
 * {@code build.properties}, filtered by Maven), and the Java runtime running it. A build outside a git checkout (a
 * source tarball) has revision {@code unknown}.
 */
public record BuildInfo(String version, String revision, String java) {
    private static final String UNKNOWN = "unknown";

    /** This build's, read from the class path. */
    public static BuildInfo current() {
        Properties properties = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read build.properties", e);
        }
        return new BuildInfo(filtered(properties.getProperty("version")), filtered(properties.getProperty("revision")),
                System.getProperty("java.runtime.version", UNKNOWN));
    }

    /** A value Maven did not fill in (no such property in that build: {@code ${...}} stays) is unknown. */
    static String filtered(String value) {
        return value == null || value.isBlank() || value.startsWith("${") ? UNKNOWN : value;
    }
}
