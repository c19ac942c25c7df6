package io.rdmamon.collector;

import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.vertx.core.Vertx;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The collector serving HTTPS from PEM files: scraping with a viewer token works over TLS for a client that
 * trusts the certificate, while plain HTTP to the same port and clients that do not trust it get nothing.
 */
@ExtendWith(VertxExtension.class)
class CollectorTlsTest {
    private static final String VIEWER_TOKEN = "viewer-secret";
    @TempDir
    static Path dir;
    private static TestCertificate certificate;
    private static Vertx vertx;
    private static Collector.Running collector;

    @BeforeAll
    static void start(Vertx vertx) throws Exception {
        certificate = TestCertificate.generate(dir);
        CollectorTlsTest.vertx = vertx;
        Path configFile = dir.resolve("collector.json");
        // relative names: resolved against the config file's directory
        Files.writeString(configFile, "{\"listen\": \"127.0.0.1:0\", \"tls\": {\"certFile\": \"tls.crt\", \"keyFile\": \"tls.key\"}}");
        CollectorConfig config = CollectorConfig.load(configFile, Map.of())
                .withTokens(List.of(new TokenEntry(Role.VIEWER, VIEWER_TOKEN, null)));
        collector = Collector.start(vertx, config).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    private static WebClient client(boolean ssl, boolean trust) {
        WebClientOptions options = new WebClientOptions().setSsl(ssl).setVerifyHost(true).setConnectTimeout(5000);
        if (trust) {
            options.setTrustOptions(new PemTrustOptions().addCertPath(certificate.certFile().toString()));
        }
        return WebClient.create(vertx, options);
    }

    private static HttpResponse<io.vertx.core.buffer.Buffer> get(WebClient client, String path, String token) throws Exception {
        var request = client.get(collector.port(), "localhost", path);
        if (token != null) {
            request.bearerTokenAuthentication(token);
        }
        return request.send().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void metricsOverHttpsWithViewerToken() throws Exception {
        WebClient https = client(true, true);
        HttpResponse<io.vertx.core.buffer.Buffer> metrics = get(https, "/metrics", VIEWER_TOKEN);
        assertEquals(200, metrics.statusCode(), metrics.bodyAsString());
        assertTrue(metrics.bodyAsString().contains("rdmamon_collector_"), metrics.bodyAsString());
        assertEquals(401, get(https, "/metrics", null).statusCode(), "the token is still required over TLS");
        assertEquals(200, get(https, "/api/nodes", VIEWER_TOKEN).statusCode());
    }

    @Test
    void plainHttpToTheTlsPortGetsNoAnswer() throws Exception {
        assertEquals(200, get(client(true, true), "/healthz", null).statusCode(), "the same request over https");
        assertThrows(ExecutionException.class, () -> get(client(false, false), "/healthz", null));
    }

    @Test
    void clientNotTrustingTheCertificateIsRefusedForThePkixReason() {
        ExecutionException e = assertThrows(ExecutionException.class, () -> get(client(true, false), "/healthz", null));
        assertTrue(chain(e).contains("PKIX") || chain(e).contains("certification path"), chain(e));
    }

    static String chain(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            text.append(t).append(" / ");
        }
        return text.toString();
    }
}
