package io.rdmamon.collector.cluster;

import io.vertx.core.Future;
import io.vertx.core.shareddata.AsyncMap;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A map whose reads answer at once and whose writes wait for {@code released}: a replicated cache while a killed
 * member is still in the view (its writes wait for that member until the failure detector drops it). Released with a
 * failure, the first conditional replace fails with it (a write the view change cut short) and later writes go on.
 */
final class StalledWrites implements AsyncMap<String, String> {
    private final AsyncMap<String, String> map;
    private final Future<Void> released;
    private boolean failedOnce;

    StalledWrites(AsyncMap<String, String> map, Future<Void> released) {
        this.map = map;
        this.released = released;
    }

    @Override
    public Future<String> get(String k) {
        return map.get(k);
    }

    @Override
    public Future<Void> put(String k, String v) {
        return released.compose(r -> map.put(k, v));
    }

    @Override
    public Future<Void> put(String k, String v, long ttl) {
        return released.compose(r -> map.put(k, v, ttl));
    }

    @Override
    public Future<String> putIfAbsent(String k, String v) {
        return released.compose(r -> map.putIfAbsent(k, v));
    }

    @Override
    public Future<String> putIfAbsent(String k, String v, long ttl) {
        return released.compose(r -> map.putIfAbsent(k, v, ttl));
    }

    @Override
    public Future<String> remove(String k) {
        return released.compose(r -> map.remove(k));
    }

    @Override
    public Future<Boolean> removeIfPresent(String k, String v) {
        return released.compose(r -> map.removeIfPresent(k, v));
    }

    @Override
    public Future<String> replace(String k, String v) {
        return released.compose(r -> map.replace(k, v));
    }

    @Override
    public Future<String> replace(String k, String v, long ttl) {
        return released.compose(r -> map.replace(k, v, ttl));
    }

    @Override
    public Future<Boolean> replaceIfPresent(String k, String oldValue, String newValue) {
        return released.transform(r -> {
            if (r.failed() && !failedOnce) {
                failedOnce = true;
                return Future.failedFuture(r.cause());
            }
            return map.replaceIfPresent(k, oldValue, newValue);
        });
    }

    @Override
    public Future<Boolean> replaceIfPresent(String k, String oldValue, String newValue, long ttl) {
        return released.compose(r -> map.replaceIfPresent(k, oldValue, newValue, ttl));
    }

    @Override
    public Future<Void> clear() {
        return released.compose(r -> map.clear());
    }

    @Override
    public Future<Integer> size() {
        return map.size();
    }

    @Override
    public Future<Set<String>> keys() {
        return map.keys();
    }

    @Override
    public Future<List<String>> values() {
        return map.values();
    }

    @Override
    public Future<Map<String, String>> entries() {
        return map.entries();
    }
}
