package io.rdmamon.agent.module;

import io.rdmamon.agent.ethtool.InterfaceNames;
import io.rdmamon.agent.sysfs.RegularFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** {@code <root>/ethtool/<if>/module}: the bytes of {@code ethtool -m IF raw on} (CMIS: the pages concatenated). */
public final class CapturedModuleEepromSource implements ModuleEepromSource {
    /** The largest image: CMIS lower, 00h, 01h, 02h, 10h and 11h of 4 banks; more is not a capture. */
    static final int MAX_CAPTURE_BYTES = 64 * 1024;

    private final Path hostRoot;

    public CapturedModuleEepromSource(Path hostRoot) {
        this.hostRoot = hostRoot;
    }

    public Path moduleFile(String ifname) {
        return hostRoot.resolve("ethtool").resolve(ifname).resolve("module");
    }

    @Override
    public byte[] read(String ifname) throws IOException {
        InterfaceNames.requireValid(ifname);
        Path file = moduleFile(ifname);
        String relative = hostRoot.relativize(file).toString();
        try {
            RegularFiles.require(file, relative); // a FIFO here would block the read for ever
            if (Files.size(file) > MAX_CAPTURE_BYTES) {
                throw new IOException(relative + ": larger than " + MAX_CAPTURE_BYTES + " bytes, not an ethtool -m capture");
            }
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new NoModuleException(relative + ": no such file (no ethtool -m capture for " + ifname + ")");
        }
    }
}
