package io.rdmamon.collector;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for {@code localhost} and {@code 127.0.0.1}, made by the JDK's own {@code keytool}
 * (always present with the JDK; no openssl, no download) and written as PEM. keytool rather than Vert.x's
 * SelfSignedCertificate because the subject alternative names must be set explicitly: Go clients (Prometheus)
 * ignore the common name, and an IP-address host check needs an IP entry. Shared with the agent and cli tests
 * through the collector's test jar.
 *
 * @param certFile PEM certificate; also serves as the CA file clients trust, since it signed itself
 * @param keyFile  PEM PKCS#8 private key
 */
public record TestCertificate(Path certFile, Path keyFile) {
    private static final String PASSWORD = "rdmamon-test";

    /** Generates a fresh EC P-256 certificate valid for two days into {@code dir} ({@code tls.crt}, {@code tls.key}). */
    public static TestCertificate generate(Path dir) throws IOException, InterruptedException, GeneralSecurityException {
        Path keystore = dir.resolve("tls.p12");
        Path log = dir.resolve("keytool.out");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-alias", "collector",
                "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                "-storetype", "PKCS12", "-keystore", keystore.toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException("keytool failed: " + Files.readString(log));
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, PASSWORD.toCharArray());
        }
        Path cert = dir.resolve("tls.crt");
        Path key = dir.resolve("tls.key");
        Files.writeString(cert, pem("CERTIFICATE", store.getCertificate("collector").getEncoded()));
        Files.writeString(key, pem("PRIVATE KEY", store.getKey("collector", PASSWORD.toCharArray()).getEncoded()));
        return new TestCertificate(cert, key);
    }

    private static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }
}
