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
}
