package io.rdmamon.agent.ethtool;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.protocol.model.FecMode;

import java.io.IOException;
import java.util.LinkedHashMap;

/**
 * Where a netdev's {@code ethtool -S} statistics come from: the SIOCETHTOOL ioctl on a real host
 * ({@link IoctlEthtoolStatsSource}) or a captured text under a host root ({@link CapturedEthtoolStatsSource}).
 */
@FunctionalInterface
public interface EthtoolStatsSource {

    /**
     * Every statistic of {@code ifname}, name → value in the driver's order; values are u64 in a long
     * with unsigned semantics.
     *
     * @throws UnsupportedCapabilityException when the driver has no statistics
     * @throws IOException                     naming the interface (and the file or errno) when the statistics
     *                                         cannot be had
     */
    LinkedHashMap<String, Long> statistics(String ifname) throws IOException;

    /**
     * {@link #statistics} as the sampler keeps them. A source read on every sample overrides it to spare the
     * map, and hands back the names list of its last read of {@code ifname} when the names are the same.
     *
     * @throws IOException as {@link #statistics}
     */
    default RawStatistics sample(String ifname) throws IOException {
        return RawStatistics.of(statistics(ifname));
    }

    /**
     * The FEC encoding of {@code ifname} ({@code ethtool --show-fec}); null when the driver has none. Read on the
     * slow cadence. A source without FEC (the default) reports none.
     *
     * @throws IOException naming the interface (and the file or errno) when it cannot be had
     */
    default FecMode fec(String ifname) throws IOException {
        return null;
    }

    /** A source that always fails with {@code reason}: when the real one could not even be set up. */
    static EthtoolStatsSource unavailable(String reason) {
        return ifname -> {
            throw new IOException(ifname + ": " + reason);
        };
    }
}
