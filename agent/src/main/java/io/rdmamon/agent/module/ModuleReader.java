package io.rdmamon.agent.module;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.protocol.model.TransceiverModule;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Reads and decodes the transceiver of each netdev, at most once per refresh interval (the slow cadence: a module's
 * DOM moves slowly, and an mlx5 EEPROM read is several firmware register accesses). Between reads the last result is
 * reused, so every sample carries the module. A failure is retried on the next sample rather than cached, so that it
 * is reported again instead of hidden.
 */
public final class ModuleReader {
    /**
     * What one read gave.
     *
     * @param module      the decoded module; null when there is none, the read failed or this host cannot read it
     * @param failure     one line naming the interface and what failed; null unless the read failed
     * @param unsupported one line naming why this host cannot read the module (a CMIS module behind mlx5's ioctl on a
     *                    kernel without ethtool netlink); null otherwise
     */
    public record Result(TransceiverModule module, String failure, String unsupported) {
        static final Result NONE = new Result(null, null, null);

        /** The reason the module was not read: the failure, or why the host cannot read it; null when read or none. */
        public String reason() {
            return failure != null ? failure : unsupported;
        }
    }

    /** How a read is run (the host reader passes its watchdog). */
    @FunctionalInterface
    public interface Runner {
        byte[] run(String call, ModuleEepromSource source, String ifname) throws IOException;
    }

    private record Cached(long readAtMillis, Result result) {
    }

    private final ModuleEepromSource source;
    private final long refreshMillis;
    private final LongSupplier clockMillis;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    /** @param refresh null or zero: read on every call (one-shot commands) */
    public ModuleReader(ModuleEepromSource source, Duration refresh, LongSupplier clockMillis) {
        if (refresh != null && refresh.isNegative()) {
            throw new IllegalArgumentException("module refresh interval must not be negative: " + refresh);
        }
        this.source = source;
        this.refreshMillis = refresh == null ? 0 : refresh.toMillis();
        this.clockMillis = clockMillis;
    }

    /** This reader with another refresh interval (and a fresh cache). */
    public ModuleReader withRefresh(Duration refresh) {
        return new ModuleReader(source, refresh, clockMillis);
    }

    /** This reader timing its refresh with another clock (and a fresh cache). */
    public ModuleReader withClock(LongSupplier clockMillis) {
        return new ModuleReader(source, Duration.ofMillis(refreshMillis), clockMillis);
    }

    public Result read(String ifname, Runner runner) {
        long now = clockMillis.getAsLong();
        Cached cached = cache.get(ifname);
        if (cached != null && refreshMillis > 0 && now - cached.readAtMillis() < refreshMillis) {
            return cached.result();
        }
        Result result = readNow(ifname, runner);
        if (result.failure() == null && refreshMillis > 0) {
            cache.put(ifname, new Cached(now, result));
        } else {
            cache.remove(ifname);
        }
        return result;
    }

    private Result readNow(String ifname, Runner runner) {
        String call = "ethtool -m " + ifname;
        byte[] image;
        try {
            image = runner.run(call, source, ifname);
        } catch (ModuleEepromSource.NoModuleException e) {
            return Result.NONE;
        } catch (UnsupportedCapabilityException e) {
            return new Result(null, null, call + ": " + e.getMessage());
        } catch (IOException e) {
            return new Result(null, call + ": " + e.getMessage(), null);
        } catch (RuntimeException e) {
            return new Result(null, call + ": " + e, null);
        }
        try {
            return new Result(ModuleDecoder.decode(image), null, null);
        } catch (IllegalArgumentException e) {
            return new Result(null, call + ": " + e.getMessage(), null);
        }
    }
}
