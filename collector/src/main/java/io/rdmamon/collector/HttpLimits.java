package io.rdmamon.collector;

import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.protocol.json.StrictJson;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

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
        ConfigException.requirePositive("http.maxConnections", maxConnections);
        ConfigException.requirePositive("http.maxPortWatchesPerAddress", maxPortWatchesPerAddress);
        ConfigException.requirePositive("http.requestTimeout", requestTimeout);
        ConfigException.requirePositive("http.idleTimeout", idleTimeout);
        ConfigException.requirePositive("http.refusalLogWindow", refusalLogWindow);
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

    /** The {@code "http"} section over these values. */
    HttpLimits overlay(StrictJson section) {
        section.requireKnownKeys(KEYS);
        return new HttpLimits(section.integer("maxConnections", maxConnections),
                section.duration("requestTimeout", requestTimeout),
                section.duration("idleTimeout", idleTimeout),
                section.duration("refusalLogWindow", refusalLogWindow),
                section.integer("maxPortWatchesPerAddress", maxPortWatchesPerAddress));
    }

    /** {@code RDMAMON_HTTP_MAX_CONNECTIONS}, {@code _REQUEST_TIMEOUT}, {@code _IDLE_TIMEOUT}, {@code _REFUSAL_LOG_WINDOW}, {@code _MAX_PORT_WATCHES_PER_ADDRESS}. */
    HttpLimits overlayEnv(Map<String, String> env) {
        return new HttpLimits(CollectorConfig.envInt(env, "RDMAMON_HTTP_MAX_CONNECTIONS", maxConnections),
                CollectorConfig.envDuration(env, "RDMAMON_HTTP_REQUEST_TIMEOUT", requestTimeout),
                CollectorConfig.envDuration(env, "RDMAMON_HTTP_IDLE_TIMEOUT", idleTimeout),
                CollectorConfig.envDuration(env, "RDMAMON_HTTP_REFUSAL_LOG_WINDOW", refusalLogWindow),
                CollectorConfig.envInt(env, "RDMAMON_HTTP_MAX_PORT_WATCHES_PER_ADDRESS", maxPortWatchesPerAddress));
    }
}
