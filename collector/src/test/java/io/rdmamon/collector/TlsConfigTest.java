package io.rdmamon.collector;

import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.collector.config.ConfigException;
import io.vertx.core.Vertx;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code tls} settings: layering of file, environment and flags, and the startup check of the PEM files. */
@ExtendWith(VertxExtension.class)
class TlsConfigTest {
    @TempDir
    static Path dir;
    private static Vertx vertx;
    private static TestCertificate certificate;
    private static TestCertificate other;

    @BeforeAll
    static void setUp(Vertx vertx) throws Exception {
        TlsConfigTest.vertx = vertx;
        certificate = TestCertificate.generate(Files.createDirectory(dir.resolve("one")));
        other = TestCertificate.generate(Files.createDirectory(dir.resolve("two")));
    }

    @Test
    void fileThenEnvironmentThenFlags() throws Exception {
        Path file = dir.resolve("layers.json");
        Files.writeString(file, "{\"tls\": {\"certFile\": \"file.crt\", \"keyFile\": \"/etc/rdmamon/file.key\"}}");

        CollectorConfig fromFile = CollectorConfig.load(file, Map.of());
        assertEquals(new TlsConfig(dir.resolve("file.crt"), Path.of("/etc/rdmamon/file.key")), fromFile.tls(),
                "a relative name resolves against the config file's directory, an absolute one is kept");
        assertTrue(fromFile.tls().enabled());

        CollectorConfig fromEnv = CollectorConfig.load(file, Map.of("RDMAMON_TLS_KEY_FILE", "/env/tls.key"));
        assertEquals(new TlsConfig(dir.resolve("file.crt"), Path.of("/env/tls.key")), fromEnv.tls());

        CollectorConfig fromFlags = fromEnv.withTlsFiles(Path.of("/flag/tls.crt"), null);
        assertEquals(new TlsConfig(Path.of("/flag/tls.crt"), Path.of("/env/tls.key")), fromFlags.tls());

        CollectorConfig envOnly = CollectorConfig.load(null, Map.of("RDMAMON_TLS_CERT_FILE", "a.crt",
                "RDMAMON_TLS_KEY_FILE", "a.key"));
        assertEquals(new TlsConfig(Path.of("a.crt"), Path.of("a.key")), envOnly.tls());
        assertFalse(CollectorConfig.defaults().tls().enabled());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"tls\": \"/etc/tls.crt\"}                      | tls: expected an object, got string",
            "{\"tls\": {\"cert\": \"a.crt\"}}                 | unknown key 'tls.cert' (known: [certFile, keyFile])",
            "{\"tls\": {\"certFile\": 7, \"keyFile\": \"k\"}} | tls.certFile: expected a string, got number"})
    void badTlsSectionIsNamed(String content, String message) throws Exception {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, content);
        ConfigException e = assertThrows(ConfigException.class, () -> CollectorConfig.load(file, Map.of()));
        assertTrue(e.getMessage().startsWith(file + ": "), e.getMessage());
        assertTrue(e.getMessage().endsWith(message), e.getMessage());
    }

    @Test
    void emptyVariableIsNamed() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> CollectorConfig.load(null, Map.of("RDMAMON_TLS_CERT_FILE", " ")));
        assertEquals("RDMAMON_TLS_CERT_FILE is set but empty", e.getMessage());
    }

    @Test
    void matchingPemFilesGiveKeyMaterial() {
        PemKeyCertOptions options = new TlsConfig(certificate.certFile(), certificate.keyFile()).keyCertOptions(vertx);
        assertTrue(options.getCertValue().toString().startsWith("-----BEGIN CERTIFICATE-----"));
        assertTrue(options.getKeyValue().toString().startsWith("-----BEGIN PRIVATE KEY-----"));
    }

    @Test
    void certificateWithoutKeyNamesWhatIsMissing() {
        assertEquals("TLS needs both a certificate and a key: certificate file /x/tls.crt given but no key"
                        + " (tls.keyFile, RDMAMON_TLS_KEY_FILE, --tls-key)",
                failure(new TlsConfig(Path.of("/x/tls.crt"), null)));
        assertEquals("TLS needs both a certificate and a key: key file /x/tls.key given but no certificate"
                        + " (tls.certFile, RDMAMON_TLS_CERT_FILE, --tls-cert)",
                failure(new TlsConfig(null, Path.of("/x/tls.key"))));
    }

    @Test
    void missingFileIsNamed() {
        Path missing = dir.resolve("missing.crt");
        assertEquals("TLS certificate file " + missing + ": cannot read: NoSuchFileException",
                failure(new TlsConfig(missing, certificate.keyFile())));
        assertEquals("TLS key file " + missing + ": cannot read: NoSuchFileException",
                failure(new TlsConfig(certificate.certFile(), missing)));
    }

    @Test
    void garbagePemIsNamed() throws Exception {
        Path garbage = dir.resolve("garbage.pem");
        Files.writeString(garbage, "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n");
        String cert = failure(new TlsConfig(garbage, certificate.keyFile()));
        assertTrue(cert.startsWith("TLS certificate file " + garbage + ": not a PEM certificate chain: "), cert);

        Path text = dir.resolve("notes.txt");
        Files.writeString(text, "this is not a key\n");
        String key = failure(new TlsConfig(certificate.certFile(), text));
        assertTrue(key.startsWith("TLS key file " + text + ": not a PEM private key (PKCS#8 BEGIN PRIVATE KEY"
                + " or PKCS#1 BEGIN RSA PRIVATE KEY): "), key);
        String empty = failure(new TlsConfig(text, certificate.keyFile()));
        assertTrue(empty.startsWith("TLS certificate file " + text + ": "), empty);
    }

    @Test
    void keyOfAnotherCertificateIsRefused() {
        assertEquals("TLS key file " + other.keyFile() + " does not belong to the certificate in "
                        + certificate.certFile() + " (CN=localhost)",
                failure(new TlsConfig(certificate.certFile(), other.keyFile())));
    }

    @Test
    void collectorStartFailsWithTheConfigError() {
        CollectorConfig config = CollectorConfig.defaults().withListen("127.0.0.1:0")
                .withTlsFiles(certificate.certFile(), null);
        Exception e = assertThrows(Exception.class, () -> Collector.start(vertx, config).toCompletionStage()
                .toCompletableFuture().get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof ConfigException, String.valueOf(e));
        assertTrue(e.getCause().getMessage().startsWith("TLS needs both a certificate and a key"), e.getMessage());
    }

    @Test
    void tokensWithoutTlsOnANonLoopbackAddressAreWarnedAbout() {
        CollectorConfig exposed = CollectorConfig.defaults().withListen("192.0.2.10:9470")
                .withTokens(List.of(new TokenEntry(Role.VIEWER, "v", null)));
        String warning = Collector.checkExposure(exposed).orElseThrow();
        assertTrue(warning.startsWith("listening on 192.0.2.10 without TLS: bearer tokens cross the network in clear text"),
                warning);
        assertTrue(warning.contains("--tls-cert/--tls-key") && warning.contains("TLS-terminating proxy"), warning);
        assertEquals(Optional.empty(), Collector.checkExposure(
                exposed.withTlsFiles(certificate.certFile(), certificate.keyFile())));
        assertEquals(Optional.empty(), Collector.checkExposure(exposed.withListen("127.0.0.1:9470")));
    }

    private static String failure(TlsConfig tls) {
        return assertThrows(ConfigException.class, () -> tls.keyCertOptions(vertx)).getMessage();
    }
}
