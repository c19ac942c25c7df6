package io.rdmamon.collector.cluster;

import io.rdmamon.protocol.testing.LoopbackPorts;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.TestCertificate;
import io.rdmamon.collector.config.ConfigException;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Mutual TLS on the clustered event bus: replicas with the cluster's certificate talk; bad settings are named. */
class ClusterTlsTest {
    @TempDir
    Path dir;

    @Test
    void replicasWithTheClustersCertificateExchangeMessagesOverTls() throws Exception {
        TestCertificate cert = TestCertificate.generate(dir);
        ClusterTls tls = new ClusterTls(cert.certFile(), cert.keyFile(), cert.certFile());
        try (TestReplicas replicas = TestReplicas.start(2, CollectorConfig.defaults(), tls)) {
            Collector.Running a = replicas.replica(0);
            Collector.Running b = replicas.replica(1);
            await(b.vertx().eventBus().<JsonObject>consumer("test.echo." + b.cluster().selfId(),
                    message -> message.reply(new JsonObject().put("from", b.cluster().selfId()))).completion());
            JsonObject answer = poll(() -> await(a.vertx().eventBus().<JsonObject>request(
                    "test.echo." + b.cluster().selfId(), new JsonObject(), new io.vertx.core.eventbus.DeliveryOptions()
                            .setSendTimeout(2000))).body());
            assertEquals(b.cluster().selfId(), answer.getString("from"));

            // the event bus port speaks TLS and wants a client certificate: a client without one is refused
            int busPort = Integer.parseInt(replicas.memberAddress(1).split(":")[1]) + 1;
            java.util.List<java.security.cert.X509Certificate> served = new java.util.concurrent.CopyOnWriteArrayList<>();
            javax.net.ssl.SSLContext trustAll = javax.net.ssl.SSLContext.getInstance("TLS");
            trustAll.init(null, new javax.net.ssl.TrustManager[]{new javax.net.ssl.X509TrustManager() {
                public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String type) {
                }

                public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String type) {
                    served.addAll(java.util.List.of(chain));
                }

                public java.security.cert.X509Certificate[] getAcceptedIssuers() {
                    return new java.security.cert.X509Certificate[0];
                }
            }}, null);
            try (javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) trustAll.getSocketFactory()
                    .createSocket("127.0.0.1", busPort)) {
                socket.setSoTimeout(5000);
                Exception refused = assertThrows(Exception.class, () -> {
                    socket.startHandshake();
                    socket.getOutputStream().write(new byte[]{1, 2, 3, 4});
                    socket.getOutputStream().flush();
                    if (socket.getInputStream().read() < 0) {
                        throw new java.io.EOFException("closed");
                    }
                });
                assertTrue(refused instanceof javax.net.ssl.SSLException || refused instanceof java.io.IOException,
                        refused.toString());
            }
            assertEquals("CN=localhost", served.get(0).getSubjectX500Principal().getName(),
                    "the event bus presented the replica's certificate: it speaks TLS");
        }
    }

    /**
     * The consumer's registration, complete on its replica, reaches the other replica's view of the cluster a moment
     * later: until then a request there finds no handler. The last failure is reported if it never answers.
     */
    private static JsonObject poll(io.rdmamon.protocol.testing.Waits.Probe<JsonObject, Exception> request) throws Exception {
        Exception[] last = {null};
        JsonObject answer = io.rdmamon.protocol.testing.Waits.pollUntil(() -> {
            try {
                return request.observe();
            } catch (Exception e) {
                last[0] = e;
                return null;
            }
        }, reply -> reply != null, Duration.ofSeconds(20), Duration.ofMillis(200));
        if (answer == null) {
            throw last[0];
        }
        return answer;
    }

    @Test
    void aMissingOrUnreadableFileIsNamedAtStart() throws Exception {
        Path cert = Files.writeString(dir.resolve("replica.crt"), "not read");
        ClusterTls noCa = new ClusterTls(cert, cert, null);
        ClusterConfig config = new ClusterConfig(new io.rdmamon.collector.config.ListenAddress("127.0.0.1",
                LoopbackPorts.freePair()), java.util.List.of("127.0.0.1:1"), null, "rdmamon", 0, noCa);
        Exception e = assertThrows(Exception.class, () -> await(Collector.startReplica(
                CollectorConfig.defaults().withListen("127.0.0.1:0").withCluster(config), new VertxOptions())));
        assertTrue(e.getCause() instanceof ConfigException
                && e.getCause().getMessage().contains("cluster.tls.caFile is not set"), e.toString());

        ClusterTls missing = new ClusterTls(cert, dir.resolve("absent.key"), cert);
        ConfigException unread = assertThrows(ConfigException.class, () -> missing.apply(new io.vertx.core.eventbus.EventBusOptions()));
        assertTrue(unread.getMessage().contains("cluster.tls.keyFile: cannot read"), unread.getMessage());
    }

    @Test
    void theSectionAndTheEnvironmentSetTheFiles() throws Exception {
        Path file = Files.writeString(dir.resolve("collector.json"), """
                {"cluster": {"listen": "10.1.0.11:6701", "members": ["10.1.0.11:6701"],
                             "tls": {"certFile": "replica.crt", "keyFile": "replica.key", "caFile": "/etc/ca.pem"}}}""");
        ClusterTls fromFile = CollectorConfig.load(file, Map.of()).cluster().tls();
        assertEquals(new ClusterTls(dir.resolve("replica.crt"), dir.resolve("replica.key"), Path.of("/etc/ca.pem")), fromFile);
        ClusterTls fromEnv = CollectorConfig.load(file, Map.of("RDMAMON_CLUSTER_TLS_CA_FILE", "/run/ca.pem"))
                .cluster().tls();
        assertEquals(Path.of("/run/ca.pem"), fromEnv.caFile());
        assertEquals(dir.resolve("replica.key"), fromEnv.keyFile());
    }
}
