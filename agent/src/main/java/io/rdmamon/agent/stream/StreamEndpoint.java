package io.rdmamon.agent.stream;

import io.rdmamon.protocol.wire.WireFormat;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where the agent streams to, derived from a collector's base URL ({@code http(s)://host:port},
 * {@code ws(s)://} also accepted): http → ws, https → wss, path + {@code /api/agent/stream}.
 */
public record StreamEndpoint(String host, int port, boolean ssl, String path) {

    /** @throws IllegalArgumentException naming the URL when it is not an http(s)/ws(s) URL with a host */
    public static StreamEndpoint from(String collectorUrl) {
        URI uri;
        try {
            uri = new URI(collectorUrl.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("collector URL '" + collectorUrl + "' is not a URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean ssl = switch (scheme) {
            case "http", "ws" -> false;
            case "https", "wss" -> true;
            default -> throw new IllegalArgumentException("collector URL '" + collectorUrl
                    + "' must start with http://, https://, ws:// or wss://");
        };
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new IllegalArgumentException("collector URL '" + collectorUrl + "' has no host");
        }
        int port = uri.getPort() >= 0 ? uri.getPort() : ssl ? 443 : 80;
        String base = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        String path = base.endsWith(WireFormat.STREAM_PATH) ? base : base + WireFormat.STREAM_PATH;
        String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1) : uri.getHost();
        return new StreamEndpoint(host, port, ssl, path);
    }

    /**
     * The endpoints of {@code collectorUrls}: one URL, or several separated by commas (replicas of one cluster, in
     * the order the agent tries them).
     *
     * @throws IllegalArgumentException naming the URL at fault, an empty entry, or one given twice
     */
    public static List<StreamEndpoint> list(String collectorUrls) {
        List<StreamEndpoint> endpoints = new ArrayList<>();
        for (String url : collectorUrls.split(",", -1)) {
            if (url.isBlank()) {
                throw new IllegalArgumentException("empty collector URL in '" + collectorUrls + "'");
            }
            StreamEndpoint endpoint = from(url);
            if (endpoints.contains(endpoint)) {
                throw new IllegalArgumentException("collector URL '" + url.trim() + "' is listed twice");
            }
            endpoints.add(endpoint);
        }
        return List.copyOf(endpoints);
    }

    @Override
    public String toString() {
        return (ssl ? "wss://" : "ws://") + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + path;
    }
}
