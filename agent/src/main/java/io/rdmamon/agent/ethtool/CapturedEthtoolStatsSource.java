package io.rdmamon.agent.ethtool;

import io.rdmamon.agent.sysfs.RegularFiles;
import io.rdmamon.protocol.model.FecMode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code <root>/ethtool/<if>/statistics}: the exact text of {@code ethtool -S <if>}, used instead of
 * the ioctl when the host root is not {@code /} (fixtures, captures, the simulator; docs/architecture.md "Host root").
 */
public final class CapturedEthtoolStatsSource implements EthtoolStatsSource {
    /** A capture of a NIC with every channel's counters is a few hundred KiB; more is not a capture. */
    private static final long MAX_CAPTURE_BYTES = 4L * 1024 * 1024;
    /** {@code ethtool --show-fec} prints three short lines. */
    private static final long MAX_FEC_CAPTURE_BYTES = 4096;

    private final Path hostRoot;
    /** The statistic names of each interface's last capture read in the usual way (thread-safe: see EthtoolViews). */
    private final Map<String, List<String>> knownNames = new ConcurrentHashMap<>();

    public CapturedEthtoolStatsSource(Path hostRoot) {
        this.hostRoot = hostRoot;
    }

    public Path statisticsFile(String ifname) {
        return hostRoot.resolve("ethtool").resolve(ifname).resolve("statistics");
    }

    @Override
    public LinkedHashMap<String, Long> statistics(String ifname) throws IOException {
        return sample(ifname).toMap();
    }

    /** Parsed from the bytes in the usual case, with the names of the last read of {@code ifname} when they are the
     * same. */
    @Override
    public RawStatistics sample(String ifname) throws IOException {
        InterfaceNames.requireValid(ifname);
        Path file = statisticsFile(ifname);
        String relative = hostRoot.relativize(file).toString();
        String text;
        try {
            RegularFiles.require(file, relative); // a FIFO here would block the read for ever
            if (Files.size(file) > MAX_CAPTURE_BYTES) {
                throw new IOException(relative + ": larger than " + MAX_CAPTURE_BYTES + " bytes, not an ethtool -S capture");
            }
            byte[] bytes = Files.readAllBytes(file);
            List<String> known = knownNames.getOrDefault(ifname, List.of());
            RawStatistics usual = EthtoolStatsParser.parseUsualAscii(bytes, known);
            if (usual != null) {
                if (usual.names() != known) {
                    knownNames.put(ifname, usual.names());
                }
                return usual;
            }
            text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (NoSuchFileException e) {
            throw new IOException(relative + ": no such file (no ethtool -S capture for " + ifname + ")", e);
        } catch (CharacterCodingException e) {
            // its own message ("Input length = 1") would not say which file or what is wrong with it
            throw new IOException(relative + ": not UTF-8 text, not an ethtool -S capture", e);
        }
        try {
            return RawStatistics.of(EthtoolStatsParser.parseText(text));
        } catch (IllegalArgumentException e) {
            throw new IOException(relative + ": " + e.getMessage(), e);
        }
    }

    /** {@code <root>/ethtool/<if>/fec}, the text {@code ethtool --show-fec IF} prints; no file is no FEC reported. */
    @Override
    public FecMode fec(String ifname) throws IOException {
        InterfaceNames.requireValid(ifname);
        Path file = hostRoot.resolve("ethtool").resolve(ifname).resolve("fec");
        String relative = hostRoot.relativize(file).toString();
        String text;
        try {
            RegularFiles.require(file, relative);
            if (Files.size(file) > MAX_FEC_CAPTURE_BYTES) {
                throw new IOException(relative + ": larger than " + MAX_FEC_CAPTURE_BYTES
                        + " bytes, not an ethtool --show-fec capture");
            }
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return null;
        } catch (CharacterCodingException e) {
            throw new IOException(relative + ": not UTF-8 text, not an ethtool --show-fec capture", e);
        }
        try {
            return FecText.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IOException(relative + ": " + e.getMessage(), e);
        }
    }
}
