package io.rdmamon.agent.sysfs;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads one small text file (a sysfs attribute) and returns its trimmed content. An interface so
 * that tests can put a real filesystem change (a device directory deleted) between two reads.
 */
@FunctionalInterface
public interface SmallFileReader {

    /** The kernel-facing reader: {@link SysfsFiles#readOnce(Path)}. */
    SmallFileReader SYSFS = SysfsFiles::readOnce;

    String read(Path file) throws IOException;

    /**
     * A counter file: its value (unsigned 64-bit in a long), null for {@code N/A (no PMA)}; as
     * {@link SysfsParsers#parseCounter} of {@link #read}, whose {@link IllegalArgumentException} quotes a refused text.
     */
    default Long readCounter(Path file) throws IOException {
        return SysfsParsers.parseCounter(read(file));
    }

    /** Called when a sample's reads are done: a reader that keeps descriptors closes those the sample did not use. */
    default void sampleEnded() {
    }
}
