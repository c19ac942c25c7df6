package io.rdmamon.collector.live;

import io.rdmamon.collector.model.PortKey;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerResponse;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One open {@code /api/live} stream. Nothing is queued per client beyond the HTTP connection's own
 * write queue, whose size is capped: when it is full at a tick, the tick is skipped for this client
 * (thinning), the client is marked to receive a full snapshot next, and a client that stays full
 * past the stall timeout is disconnected. Confined to the event loop.
 */
final class LiveClient {
    private final HttpServerResponse response;
    private final HttpConnection connection;
    private final String address;
    private final List<PortKey> watched = new ArrayList<>();
    private final List<PortKey> pending;
    private final Map<PortKey, Long> sentUpTo = new HashMap<>();
    private boolean needsFull = true;
    private long diagnosesVersion = -1;
    private long stalledSinceMillis = -1;

    /** {@code pending}: watches of nodes that have not sent a sample yet (settled by the feed later). */
    LiveClient(HttpServerResponse response, HttpConnection connection, String address, List<PortKey> pending) {
        this.response = response;
        this.connection = connection;
        this.address = address;
        this.pending = new ArrayList<>(pending);
    }

    /** The peer's IP address: watches are bounded per address. */
    String address() {
        return address;
    }

    /** Ports with a detail slot held for this client. */
    List<PortKey> watched() {
        return List.copyOf(watched);
    }

    void watching(PortKey key) {
        watched.add(key);
    }

    /** Watches waiting for their node's first sample. */
    List<PortKey> pending() {
        return List.copyOf(pending);
    }

    /** {@code key} is no longer pending (watched or refused). */
    void settled(PortKey key) {
        pending.remove(key);
    }

    /** The version of the diagnoses list this client has; -1 before the first. */
    long diagnosesVersion() {
        return diagnosesVersion;
    }

    void diagnosesSent(long version) {
        diagnosesVersion = version;
    }

    boolean needsFull() {
        return needsFull;
    }

    /** Newest detail timestamp already sent for {@code key}; {@link Long#MIN_VALUE} before any. */
    long sentUpTo(PortKey key) {
        return sentUpTo.getOrDefault(key, Long.MIN_VALUE);
    }

    void sentUpTo(PortKey key, long timestampMillis) {
        sentUpTo.put(key, timestampMillis);
    }

    boolean writeQueueFull() {
        return response.writeQueueFull();
    }

    /** Records a skipped tick; returns how long the client has been stalled. */
    long skipped(long nowMillis) {
        needsFull = true;
        if (stalledSinceMillis < 0) {
            stalledSinceMillis = nowMillis;
        }
        return nowMillis - stalledSinceMillis;
    }

    void event(String name, String json) {
        response.write(Buffer.buffer("event: " + name + "\ndata: " + json + "\n\n", StandardCharsets.UTF_8.name()));
    }

    /** A fleet message went out: the client is in step again. */
    void fleetSent(boolean full) {
        stalledSinceMillis = -1;
        if (full) {
            needsFull = false;
        }
    }

    void close() {
        connection.close();
    }
}
