package io.rdmamon.cli.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An Alertmanager webhook receiver on loopback: it keeps every notification posted to it (the webhook's JSON
 * payload: {@code status}, {@code groupLabels}, {@code alerts}), as a pager would receive them.
 */
final class AlertWebhook implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<JsonNode> notifications = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    AlertWebhook() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                notifications.add(JSON.readTree(body));
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    /** The notifications received so far, oldest first. */
    List<JsonNode> notifications() {
        return List.copyOf(notifications);
    }

    /** The alerts of every notification received so far, each with its {@code status} and {@code labels}. */
    List<JsonNode> alerts() {
        List<JsonNode> alerts = new ArrayList<>();
        notifications.forEach(n -> n.path("alerts").forEach(alerts::add));
        return alerts;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
