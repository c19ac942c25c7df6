package io.rdmamon.agent.lldp;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.agent.ethtool.InterfaceNames;
import io.rdmamon.agent.sysfs.RegularFiles;
import io.rdmamon.agent.sysfs.SlowCadenceCache;
import io.rdmamon.protocol.model.LldpNeighbor;
import io.rdmamon.protocol.model.SourceStatus;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The LLDP neighbour of a netdev (docs/architecture.md "Host root"): {@code <root>/lldp/<if>.json}, the output of
 * {@code lldpctl -f json}
 * captured for that interface, when it exists; else, on a live host (a reader given an {@link LldpctlCommand}), what
 * lldpctl answers now. No capture under another root, or no lldpctl on a live host, is no neighbour; a capture or
 * answer that does not parse is a failed {@code lldp} status naming it, and the port is still reported without one.
 *
 * <p>LLDP changes when cabling does: with a refresh interval a netdev's reading is reused for that long (sooner re-read
 * when the port's state changes, as a recabled link goes down first), through a {@link SlowCadenceCache}; a failed
 * reading is not kept, so it is reported again. Immutable apart from that cache.
 */
public final class LldpReader {
    /** The source of the statuses this reader makes. */
    public static final String SOURCE = "lldp";
    /** {@code lldpctl -f json} of one interface is a few KiB; a file far beyond that is not a capture. */
    static final long MAX_CAPTURE_BYTES = 1024 * 1024;

    /**
     * One netdev's reading.
     *
     * @param neighbor the neighbour; null when none is known
     * @param status   the {@code lldp} status of the read: ok (a capture or lldpctl's answer parsed, with or without a
     *                 neighbour), failed, or unsupported (no lldpctl); null when there was nothing to read (no capture
     *                 under a captured root)
     */
    public record Result(LldpNeighbor neighbor, SourceStatus status) {
        static final Result NONE = new Result(null, null);

        boolean failed() {
            return status != null && !status.success();
        }
    }

    /** A blocking read of one capture or one lldpctl run. */
    @FunctionalInterface
    public interface Blocking {
        String read() throws IOException;
    }

    /** How a read is run: the host reader gives each its deadline ({@code call} names it). */
    @FunctionalInterface
    public interface Watch {
        String run(String call, Blocking read) throws IOException;
    }

    private final Path hostRoot;
    private final LldpctlCommand lldpctl;
    private final Duration refresh;
    private final LongSupplier clockMillis;
    /** Null: every read is fresh (one-shot commands). */
    private final SlowCadenceCache cache;

    /** @param lldpctl what a live host runs when there is no capture; null to read captures only */
    public LldpReader(Path hostRoot, LldpctlCommand lldpctl) {
        this(hostRoot, lldpctl, Duration.ZERO, System::currentTimeMillis);
    }

    private LldpReader(Path hostRoot, LldpctlCommand lldpctl, Duration refresh, LongSupplier clockMillis) {
        this.hostRoot = hostRoot;
        this.lldpctl = lldpctl;
        this.refresh = refresh;
        this.clockMillis = clockMillis;
        this.cache = refresh.isZero() ? null : new SlowCadenceCache(refresh, clockMillis);
    }

    /** This reader reusing a reading for up to {@code refresh} ({@link Duration#ZERO}: never), with a fresh cache. */
    public LldpReader withRefresh(Duration refresh) {
        if (refresh.isNegative()) {
            throw new IllegalArgumentException("LLDP refresh interval must not be negative: " + refresh);
        }
        return new LldpReader(hostRoot, lldpctl, refresh, clockMillis);
    }

    /** This reader timing its refresh with {@code clockMillis}, with a fresh cache. */
    public LldpReader withClock(LongSupplier clockMillis) {
        return new LldpReader(hostRoot, lldpctl, refresh, clockMillis);
    }

    /** {@code <root>/lldp/<if>.json}. */
    public Path captureFile(String ifname) {
        return hostRoot.resolve("lldp").resolve(ifname + ".json");
    }

    /**
     * The neighbour of {@code ifname}, reused on the refresh interval while {@code changeKey} (the port's state) is
     * unchanged; never throws.
     */
    public Result read(String ifname, String changeKey, Watch watch) {
        if (cache == null) {
            return readNow(ifname, watch);
        }
        return cache.get(captureFile(ifname), changeKey, () -> {
            Result result = readNow(ifname, watch);
            return new SlowCadenceCache.Read<>(result, result.failed());
        });
    }

    private Result readNow(String ifname, Watch watch) {
        String origin = ifname;
        String text;
        try {
            InterfaceNames.requireValid(ifname);
            Path file = captureFile(ifname);
            if (Files.exists(file)) {
                origin = hostRoot.relativize(file).toString();
                String name = origin;
                text = watch.run(name, () -> readCapture(file, name));
            } else if (lldpctl != null) {
                origin = lldpctl.call(ifname);
                text = watch.run(origin, () -> lldpctl.run(ifname));
            } else {
                return Result.NONE;
            }
        } catch (UnsupportedCapabilityException e) {
            return new Result(null, SourceStatus.unsupported(SOURCE, ifname, e.getMessage()));
        } catch (NoSuchFileException e) {
            return Result.NONE; // the capture went between the check and the read: as if never there
        } catch (IOException e) {
            String reason = String.valueOf(e.getMessage());
            return failed(ifname, reason.startsWith(origin) ? reason : origin + ": " + reason);
        } catch (RuntimeException e) {
            return failed(ifname, origin + ": " + e);
        }
        try {
            return new Result(LldpctlJson.parse(text).get(ifname), SourceStatus.ok(SOURCE, ifname));
        } catch (IllegalArgumentException e) {
            return failed(ifname, origin + ": " + e.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            // a parser bug on odd input: costs this netdev's neighbour only
            return failed(ifname, origin + ": cannot parse: " + e);
        }
    }

    private static Result failed(String ifname, String reason) {
        return new Result(null, SourceStatus.failed(SOURCE, ifname, reason));
    }

    private static String readCapture(Path file, String name) throws IOException {
        RegularFiles.require(file, name); // a FIFO here would block the read for ever
        if (Files.size(file) > MAX_CAPTURE_BYTES) {
            throw new IOException(name + ": larger than " + MAX_CAPTURE_BYTES
                    + " bytes, not an lldpctl -f json capture");
        }
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new IOException(name + ": not UTF-8 text, not an lldpctl -f json capture", e);
        }
    }
}
