package io.rdmamon.agent.stream;

import io.rdmamon.agent.daemon.AgentDaemon;
import io.rdmamon.agent.daemon.AgentDaemonOptions;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.TestCertificate;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.SourceStatus;
import io.vertx.core.Vertx;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The real streamer over wss to the real collector serving TLS from PEM files, on loopback. */
@ExtendWith(VertxExtension.class)
class AgentStreamerTlsTest {
    private static final String AGENT_TOKEN = "agent-token";
    private static final String VIEWER_TOKEN = "viewer-token";
    @TempDir
    static Path dir;
    private static TestCertificate certificate;
    private final AtomicInteger samplesTaken = new AtomicInteger();
    private Vertx vertx;
    private Collector.Running collector;

    @BeforeAll
    static void certificate() throws Exception {
        certificate = TestCertificate.generate(dir);
    }

    @BeforeEach
    void start(Vertx vertx) throws Exception {
        this.vertx = vertx;
        collector = await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0")
                .withTlsFiles(certificate.certFile(), certificate.keyFile())
                .withTokens(List.of(new TokenEntry(Role.AGENT, AGENT_TOKEN, null),
                        new TokenEntry(Role.VIEWER, VIEWER_TOKEN, null)))));
    }

    private AgentStreamer deploy(String url, Path caFile) throws Exception {
        Duration interval = Duration.ofMillis(100);
        AgentStreamerOptions options = AgentStreamerOptions.of(url, "node-tls")
                .withToken(AGENT_TOKEN).withInterval(interval)
                .withBackoff(Duration.ofMillis(50), Duration.ofMillis(200)).withTrustCaFile(caFile);
        AgentDaemon daemon = new AgentDaemon(AgentDaemonOptions.of("node-tls", interval, () -> {
            samplesTaken.incrementAndGet();
            return new HostSample("ignored", System.currentTimeMillis(), List.of(),
                    List.of(SourceStatus.ok("sysfs", "host")));
        }).withStreamer(options));
        await(vertx.deployVerticle(daemon));
        return daemon.streamer();
    }

    @Test
    void streamsOverWssTrustingThePrivateCa() throws Exception {
        AgentStreamer streamer = deploy("https://localhost:" + collector.port(), certificate.certFile());
        assertEquals("wss://localhost:" + collector.port() + "/api/agent/stream", streamer.endpoint().toString());
        waitFor(() -> streamer.stats().acknowledgedSeq() >= 3, "three samples acknowledged over wss");
        assertNull(streamer.stats().lastFailure());

        WebClient https = WebClient.create(vertx, new WebClientOptions().setSsl(true).setVerifyHost(true)
                .setTrustOptions(new PemTrustOptions().addCertPath(certificate.certFile().toString())));
        String nodes = await(https.get(collector.port(), "localhost", "/api/nodes")
                .bearerTokenAuthentication(VIEWER_TOKEN).send()).bodyAsString();
        assertTrue(nodes.contains("\"node\":\"node-tls\"") && nodes.contains("\"up\":true"), nodes);
    }

    @Test
    void withoutTheCaTheCertificateIsRefusedAndNothingIsStored() throws Exception {
        AgentStreamer streamer = deploy("https://localhost:" + collector.port(), null); // the JVM's default trust store
        // the sampler's own count runs ahead of the buffer (a sample is buffered after it is taken): wait on the buffer
        waitFor(() -> streamer.stats().lastFailure() != null && streamer.stats().buffered() >= 5,
                "a failed handshake and a few buffered samples");
        AgentStreamer.Stats stats = streamer.stats();
        assertEquals(0, stats.connects(), String.valueOf(stats));
        assertTrue(stats.lastFailure().contains("PKIX path building failed"), stats.lastFailure());
        assertTrue(stats.buffered() >= 5, "samples are kept for when the certificate is fixed: " + stats);
        assertTrue(collector.store().nodes().isEmpty());
    }

    @Test
    void plainWebSocketToTheTlsPortNeverConnects() throws Exception {
        AgentStreamer streamer = deploy("http://127.0.0.1:" + collector.port(), null);
        waitFor(() -> streamer.stats().lastFailure() != null && samplesTaken.get() >= 5,
                "a failed handshake and a few sampling rounds");
        assertEquals(0, streamer.stats().connects(), String.valueOf(streamer.stats()));
        assertTrue(collector.store().nodes().isEmpty());
    }
}
