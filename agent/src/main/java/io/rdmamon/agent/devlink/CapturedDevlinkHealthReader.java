package io.rdmamon.agent.devlink;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.nativeio.devlink.HealthReporter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code <root>/devlink/health.json}: the stdout of {@code devlink -j health show} on the captured host. Absent or
 * empty (devlink printed nothing: "Failed to connect to devlink Netlink" on a kernel without the family) is unsupported.
 */
public final class CapturedDevlinkHealthReader implements DevlinkHealthReader {
    /** The capture's path under a host root. */
    public static final String CAPTURE = "devlink/health.json";
    /** A capture is stdout of one command: anything larger is not one. */
    private static final long MAX_BYTES = 4L << 20;

    private final Path file;

    public CapturedDevlinkHealthReader(Path hostRoot) {
        this.file = hostRoot.resolve(CAPTURE);
    }

    @Override
    public String subject() {
        return CAPTURE;
    }

    @Override
    public List<HealthReporter> reporters() throws IOException {
        String json;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new IOException(CAPTURE + ": larger than " + MAX_BYTES + " bytes");
            }
            json = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UnsupportedCapabilityException(CAPTURE + ": absent (no devlink health capture)");
        }
        if (json.isBlank()) {
            throw new UnsupportedCapabilityException(CAPTURE + ": empty (devlink found no devlink family)");
        }
        return DevlinkHealthJson.parse(json, CAPTURE);
    }
}
