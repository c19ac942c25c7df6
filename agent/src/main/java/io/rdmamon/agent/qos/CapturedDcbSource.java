package io.rdmamon.agent.qos;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.rdmamon.agent.ethtool.InterfaceNames;
import io.rdmamon.agent.sysfs.RegularFiles;
import io.rdmamon.protocol.json.StrictJson;
import io.rdmamon.protocol.json.JsonSyntax;
import io.rdmamon.protocol.json.StrictJsonException;
import io.rdmamon.protocol.model.QosConfig;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code <root>/dcb/<if>/{pfc,ets,app,apptrust,buffer,maxrate,dcbx}.json}: the exact stdout of
 * {@code dcb -j <obj> show dev <if>} (docs/architecture.md "Host root", docs/reference/qos-dcb.md §5), for fixtures,
 * captures and the simulator.
 *
 * <p>Per file: absent = not captured (that part null); only whitespace = {@code dcb} said not supported ("Attribute
 * read: Operation not supported" goes to stderr, a bare newline to stdout), so the part is null and the reading lists
 * it as unsupported where the part matters (PFC, ETS, the APP table); otherwise one JSON object, keys in any order,
 * unknown keys ignored (later iproute2 releases add some), both iproute2 shapes of the APP pairs. A directory whose
 * PFC, ETS and APP parts all said not supported is a netdev without DCB ({@link UnsupportedCapabilityException}); one
 * with none of them captured is a broken capture, and an error.
 */
public final class CapturedDcbSource implements DcbSource {
    /** {@code dcb -j -p app} of 64 DSCP entries is about 4 KiB; a file far beyond that is not a capture. */
    static final long MAX_CAPTURE_BYTES = 256 * 1024;

    private final Path hostRoot;

    public CapturedDcbSource(Path hostRoot) {
        this.hostRoot = hostRoot;
    }

    /** {@code <root>/dcb/<if>}. */
    public Path captureDir(String ifname) {
        return hostRoot.resolve("dcb").resolve(ifname);
    }

    @Override
    public QosConfig read(String ifname) throws IOException {
        return readParts(ifname).config();
    }

    @Override
    public Reading readParts(String ifname) throws IOException {
        InterfaceNames.requireValid(ifname);
        Path dir = captureDir(ifname);
        if (!Files.isDirectory(dir)) {
            throw new NotCapturedException(relative(dir) + ": no dcb -j captures for " + ifname);
        }
        List<String> unsupported = new ArrayList<>();
        JsonNode pfcJson = part(dir, "pfc", true, unsupported);
        JsonNode etsJson = part(dir, "ets", true, unsupported);
        JsonNode appJson = part(dir, "app", true, unsupported);
        if (pfcJson == null && etsJson == null && appJson == null) {
            if (unsupported.size() == 3) {
                throw new UnsupportedCapabilityException("no DCB support on " + ifname + " (" + relative(dir)
                        + ": dcb pfc, ets and app show printed nothing)");
            }
            throw new IOException(relative(dir) + ": no pfc, ets or app capture holds a configuration");
        }
        // apptrust, buffer, maxrate and dcbx are optional: mlx5 has no apptrust, iproute2 6.1 no apptrust command,
        // and a NIC without port buffers no buffer object; their absence is the normal case, not even unsupported
        JsonNode trustJson = part(dir, "apptrust", false, unsupported);
        JsonNode bufferJson = part(dir, "buffer", false, unsupported);
        JsonNode maxrateJson = part(dir, "maxrate", false, unsupported);
        JsonNode dcbxJson = part(dir, "dcbx", false, unsupported);
        QosConfig config = new QosConfig(QosConfig.SOURCE_CAPTURE,
                parse(dir, "dcbx", dcbxJson, DcbJson::dcbx),
                parse(dir, "pfc", pfcJson, DcbJson::pfc),
                parse(dir, "ets", etsJson, DcbJson::ets),
                appJson == null ? List.of() : parse(dir, "app", appJson, DcbJson::app),
                parse(dir, "apptrust", trustJson, DcbJson::trustOrder),
                parse(dir, "buffer", bufferJson, DcbJson::buffer),
                parse(dir, "maxrate", maxrateJson, DcbJson::maxrate),
                null, null, null);
        return new Reading(config, unsupported);
    }

    /**
     * The JSON of {@code <obj>.json}, or null when it is absent or whitespace (a required part's whitespace is noted
     * in {@code unsupported}).
     */
    private JsonNode part(Path dir, String object, boolean required, List<String> unsupported) throws IOException {
        Path file = dir.resolve(object + ".json");
        if (!Files.exists(file)) {
            // not captured; checked first because most captures lack some object, and an exception per absent file
            // was most of the cost of a read
            return null;
        }
        String text;
        try {
            RegularFiles.require(file, relative(file)); // a FIFO here would block the read for ever
            if (Files.size(file) > MAX_CAPTURE_BYTES) {
                throw new IOException(relative(file) + ": larger than " + MAX_CAPTURE_BYTES
                        + " bytes, not a dcb -j capture");
            }
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return null;
        } catch (CharacterCodingException e) {
            throw new IOException(relative(file) + ": not UTF-8 text, not a dcb -j capture", e);
        }
        if (text.isBlank()) {
            if (required) {
                unsupported.add(relative(file) + ": dcb " + object + " show printed nothing (not supported on "
                        + dir.getFileName() + ")");
            }
            return null;
        }
        try {
            return StrictJson.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new IOException(relative(file) + ": not JSON: " + JsonSyntax.describe(e), e);
        }
    }

    @FunctionalInterface
    private interface PartParser<T> {
        T parse(StrictJson json);
    }

    private <T> T parse(Path dir, String object, JsonNode json, PartParser<T> parser) throws IOException {
        if (json == null) {
            return null;
        }
        Path file = dir.resolve(object + ".json");
        try {
            return parser.parse(StrictJson.of(json, ""));
        } catch (StrictJsonException | IllegalArgumentException e) {
            throw new IOException(relative(file) + ": " + e.getMessage(), e);
        }
    }

    private String relative(Path path) {
        return hostRoot.relativize(path).toString();
    }
}
