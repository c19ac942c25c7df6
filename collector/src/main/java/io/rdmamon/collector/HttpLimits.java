package io.rdmamon.collector;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Bounds of the collector's HTTP side (the {@code "http"} section of the config file, docs/collector.md "Limits").
 *
 * @param maxConnections           open connections at most (agents, browsers, scrapers together); a further one is
 *                                 answered 503 and closed
 * @param requestTimeout           a new connection must deliver a complete request (headers and body) within this,
 *                                 and a request's body must be complete within this of its headers
 * @param idleTimeout              a connection on which no byte moves either way for this long is closed, and a
 *                                 kept-alive connection must deliver its next complete request within this; well
 *                                 above the agents' 5 s heartbeat and the dashboard stream's 1 s tick
 * @param refusalLogWindow         refusals of one (reason, peer) are logged once per window, then summarised
 * @param maxPortWatchesPerAddress dashboard port-detail watches one client address may hold at once
 */
public record HttpLimits(int maxConnections, Duration requestTimeout, Duration idleTimeout, Duration refusalLogWindow,
                         int maxPortWatchesPerAddress) {
    private static final Set<String> KEYS = Set.of("maxConnections", "requestTimeout", "idleTimeout", "refusalLogWindow",
            "maxPortWatchesPerAddress");

    public HttpLimits {
        requirePositive("http.maxConnections", maxConnections);
        requirePositive("http.maxPortWatchesPerAddress", maxPortWatchesPerAddress);
        requirePositive("http.requestTimeout", requestTimeout);
        requirePositive("http.idleTimeout", idleTimeout);
        requirePositive("http.refusalLogWindow", refusalLogWindow);
        if (idleTimeout.compareTo(Duration.ofDays(1)) > 0) {
            throw new ConfigException("http.idleTimeout must be at most 1 day: " + idleTimeout);
        }
    }

    /** 12,000 connections (10,000 agents and room for browsers and scrapers), 10 s, 60 s, 60 s, 8 watches. */
    public static HttpLimits defaults() {
        return new HttpLimits(12_000, Duration.ofSeconds(10), Duration.ofSeconds(60), Duration.ofSeconds(60), 8);
    }

    public HttpLimits withMaxConnections(int value) {
        return new HttpLimits(value, requestTimeout, idleTimeout, refusalLogWindow, maxPortWatchesPerAddress);
    }

    public HttpLimits withTimeouts(Duration request, Duration idle) {
        return new HttpLimits(maxConnections, request, idle, refusalLogWindow, maxPortWatchesPerAddress);
    }

    public HttpLimits withRefusalLogWindow(Duration value) {
        return new HttpLimits(maxConnections, requestTimeout, idleTimeout, value, maxPortWatchesPerAddress);
    }

    public HttpLimits withMaxPortWatchesPerAddress(int value) {
        return new HttpLimits(maxConnections, requestTimeout, idleTimeout, refusalLogWindow, value);
    }

    /** The {@code "http"} section over these values; {@code where} names the file. */
    HttpLimits overlay(JsonNode section, String where) {
        if (!section.isObject()) {
            throw new ConfigException(where + "http must be an object");
        }
        for (Iterator<String> keys = section.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!KEYS.contains(key)) {
                throw new ConfigException(where + "unknown key 'http." + key + "' (known: " + new TreeSet<>(KEYS) + ")");
            }
        }
        String prefix = where + "http.";
        try {
            return new HttpLimits(
                    section.has("maxConnections") ? CollectorConfig.integer(section, "maxConnections", prefix) : maxConnections,
                    durationOr(section, "requestTimeout", prefix, requestTimeout),
                    durationOr(section, "idleTimeout", prefix, idleTimeout),
                    durationOr(section, "refusalLogWindow", prefix, refusalLogWindow),
                    section.has("maxPortWatchesPerAddress")
                            ? CollectorConfig.integer(section, "maxPortWatchesPerAddress", prefix) : maxPortWatchesPerAddress);
        } catch (ConfigException e) {
            throw e.getMessage().startsWith(where) ? e : new ConfigException(where + e.getMessage());
        }
    }

    /** {@code RDMAMON_HTTP_MAX_CONNECTIONS}, {@code _REQUEST_TIMEOUT}, {@code _IDLE_TIMEOUT}, {@code _REFUSAL_LOG_WINDOW}, {@code _MAX_PORT_WATCHES_PER_ADDRESS}. */
    HttpLimits overlayEnv(Map<String, String> env) {
        return new HttpLimits(CollectorConfig.envInt(env, "RDMAMON_HTTP_MAX_CONNECTIONS", maxConnections),
                envDuration(env, "RDMAMON_HTTP_REQUEST_TIMEOUT", requestTimeout),
                envDuration(env, "RDMAMON_HTTP_IDLE_TIMEOUT", idleTimeout),
                envDuration(env, "RDMAMON_HTTP_REFUSAL_LOG_WINDOW", refusalLogWindow),
                CollectorConfig.envInt(env, "RDMAMON_HTTP_MAX_PORT_WATCHES_PER_ADDRESS", maxPortWatchesPerAddress));
    }

    private static Duration durationOr(JsonNode section, String key, String prefix, Duration fallback) {
        if (!section.has(key)) {
            return fallback;
        }
        JsonNode node = section.get(key);
        if (!node.isTextual()) {
            throw new ConfigException(prefix + key + " must be a string like \"10s\"");
        }
        return CollectorConfig.duration(node.textValue(), prefix + key);
    }

    private static Duration envDuration(Map<String, String> env, String variable, Duration fallback) {
        return env.containsKey(variable) ? CollectorConfig.duration(env.get(variable), variable) : fallback;
    }

    private static void requirePositive(String key, int value) {
        if (value <= 0) {
            throw new ConfigException(key + " must be positive: " + value);
        }
    }

    private static void requirePositive(String key, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new ConfigException(key + " must be positive: " + value);
        }
    }
}
