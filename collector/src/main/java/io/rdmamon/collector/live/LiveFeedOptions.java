package io.rdmamon.collector.live;

import java.time.Duration;

/**
 * Settings of the dashboard's push channel.
 *
 * @param tickInterval       how often the fleet delta (and watched ports' new points) are pushed
 * @param detailPollInterval how often watched ports are checked for a new sample; shorter than the
 *                           agents' interval so that no 1 s sample is skipped between two ticks
 * @param writeQueueMaxBytes a client's outbound queue high-water mark: above it the client is skipped
 *                           (thinned) instead of buffered
 * @param stallTimeout       a client whose queue stays full this long is disconnected
 * @param maxWatchedPorts    ports with a full detail history, over all clients (each costs about
 *                           {@code series × historyPoints × 4} bytes)
 * @param maxWatchPerClient  ports one stream may watch at once
 * @param historyPoints      points kept per watched port (900 = 15 min at 1 Hz)
 * @param maxWatchesPerAddress watches all streams from one client address may hold at once, so that one client
 *                           cannot take every detail history by opening many streams
 */
public record LiveFeedOptions(Duration tickInterval, Duration detailPollInterval, int writeQueueMaxBytes,
                              Duration stallTimeout, int maxWatchedPorts, int maxWatchPerClient, int historyPoints,
                              int maxWatchesPerAddress) {
    public LiveFeedOptions {
        if (tickInterval.isNegative() || tickInterval.isZero() || detailPollInterval.isNegative()
                || detailPollInterval.isZero() || stallTimeout.isNegative() || stallTimeout.isZero()) {
            throw new IllegalArgumentException("live feed intervals must be positive");
        }
        if (writeQueueMaxBytes < 1024 || maxWatchedPorts < 1 || maxWatchPerClient < 1 || historyPoints < 2
                || maxWatchesPerAddress < 1) {
            throw new IllegalArgumentException("live feed limits too small: queue " + writeQueueMaxBytes
                    + " B, watched " + maxWatchedPorts + ", per client " + maxWatchPerClient + ", points " + historyPoints
                    + ", per address " + maxWatchesPerAddress);
        }
    }

    /** 1 s ticks, 250 ms detail polls, 256 KiB queue, 30 s stall timeout, 64 watched ports, 4 per stream, 8 per address. */
    public static LiveFeedOptions defaults(int historyPoints) {
        return new LiveFeedOptions(Duration.ofSeconds(1), Duration.ofMillis(250), 256 * 1024, Duration.ofSeconds(30),
                64, 4, historyPoints, 8);
    }

    public LiveFeedOptions withMaxWatchesPerAddress(int watches) {
        return new LiveFeedOptions(tickInterval, detailPollInterval, writeQueueMaxBytes, stallTimeout, maxWatchedPorts,
                maxWatchPerClient, historyPoints, watches);
    }

    public LiveFeedOptions withTick(Duration tick, Duration stall) {
        return new LiveFeedOptions(tick, detailPollInterval, writeQueueMaxBytes, stall, maxWatchedPorts,
                maxWatchPerClient, historyPoints, maxWatchesPerAddress);
    }

    public LiveFeedOptions withWriteQueueMaxBytes(int bytes) {
        return new LiveFeedOptions(tickInterval, detailPollInterval, bytes, stallTimeout, maxWatchedPorts,
                maxWatchPerClient, historyPoints, maxWatchesPerAddress);
    }

    public LiveFeedOptions withMaxWatchedPorts(int ports) {
        return new LiveFeedOptions(tickInterval, detailPollInterval, writeQueueMaxBytes, stallTimeout, ports,
                maxWatchPerClient, historyPoints, maxWatchesPerAddress);
    }
}
