package io.rdmamon.cli;

import picocli.CommandLine.IVersionProvider;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** {@code rdmamon -V}: the project version, filtered into a resource at build time. */
public final class VersionProvider implements IVersionProvider {
    static final String RESOURCE = "/io/rdmamon/cli/version.properties";

    @Override
    public String[] getVersion() {
        return new String[] {"rdmamon " + version()};
    }

    static String version() {
        try (InputStream in = VersionProvider.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE + " (build with Maven)");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
