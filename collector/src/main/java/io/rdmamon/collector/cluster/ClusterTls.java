package io.rdmamon.collector.cluster;

import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.protocol.json.StrictJson;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * Mutual TLS between replicas (the {@code "cluster": {"tls": {...}}} section), on both cluster ports: the member
 * port (JGroups: membership, the node directory) and the event bus. Every replica presents {@code certFile}/
 * {@code keyFile} and accepts only peers whose certificate {@code caFile} signed, so that a host which reaches
 * either port cannot join, read the replicas' traffic or inject messages.
 *
 * @param certFile PEM certificate chain of this replica; null = TLS off
 * @param keyFile  its PEM private key
 * @param caFile   PEM certificate(s) of the CA that signed every replica's certificate
 */
public record ClusterTls(Path certFile, Path keyFile, Path caFile) {
    public static final ClusterTls NONE = new ClusterTls(null, null, null);
    private static final String PKCS8_BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String PKCS8_END = "-----END PRIVATE KEY-----";
    /** Protects nothing: the in-memory key store lives only as long as building the context. */
    private static final char[] PASSWORD = "in-memory".toCharArray();
    private static final Set<String> KEYS = Set.of("certFile", "keyFile", "caFile");

    public boolean enabled() {
        return certFile != null || keyFile != null || caFile != null;
    }

    /** The {@code "tls"} section of {@code "cluster"}; relative paths resolve against {@code baseDir}. */
    static ClusterTls fromJson(StrictJson section, Path baseDir) {
        section.requireKnownKeys(KEYS);
        return new ClusterTls(path(section, "certFile", baseDir), path(section, "keyFile", baseDir),
                path(section, "caFile", baseDir));
    }

    /** {@code RDMAMON_CLUSTER_TLS_CERT_FILE}, {@code _KEY_FILE}, {@code _CA_FILE} over these. */
    ClusterTls overlayEnv(Map<String, String> env) {
        return new ClusterTls(envPath(env, "RDMAMON_CLUSTER_TLS_CERT_FILE", certFile),
                envPath(env, "RDMAMON_CLUSTER_TLS_KEY_FILE", keyFile), envPath(env, "RDMAMON_CLUSTER_TLS_CA_FILE", caFile));
    }

    /**
     * Turns TLS on in {@code options} when configured: all three files must be set and readable (checked here, at
     * start, so that a typo is named instead of every event-bus connection failing later).
     */
    EventBusOptions apply(EventBusOptions options) {
        if (!enabled()) {
            return options;
        }
        requireFiles();
        return options.setSsl(true).setClientAuth(ClientAuth.REQUIRED)
                .setKeyCertOptions(new PemKeyCertOptions().setCertPath(certFile.toString()).setKeyPath(keyFile.toString()))
                .setTrustOptions(new PemTrustOptions().addCertPath(caFile.toString()));
    }

    private void requireFiles() {
        for (Map.Entry<String, Path> file : Map.of("cluster.tls.certFile", nullSafe(certFile),
                "cluster.tls.keyFile", nullSafe(keyFile), "cluster.tls.caFile", nullSafe(caFile)).entrySet()) {
            if (file.getValue().toString().isEmpty()) {
                throw new ConfigException(file.getKey() + " is not set: cluster TLS needs certFile, keyFile and caFile");
            }
            if (!Files.isReadable(file.getValue())) {
                throw new ConfigException(file.getKey() + ": cannot read " + file.getValue());
            }
        }
    }

    /**
     * The same identity and trust for the member port: JGroups takes a JDK {@link SSLContext}. PEM is read with the
     * JDK alone: the certificate chain, a PKCS#8 private key ({@code BEGIN PRIVATE KEY}, RSA or EC; Vert.x reads
     * the same files for the event bus), the CA certificates as the only trust anchors.
     */
    SSLContext sslContext() {
        requireFiles();
        try {
            CertificateFactory x509 = CertificateFactory.getInstance("X.509");
            List<Certificate> chain = certificates(x509, certFile, "cluster.tls.certFile");
            PrivateKey key = privateKey(keyFile);
            KeyStore identity = KeyStore.getInstance("PKCS12");
            identity.load(null, null);
            identity.setKeyEntry("replica", key, PASSWORD, chain.toArray(Certificate[]::new));
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(identity, PASSWORD);
            KeyStore anchors = KeyStore.getInstance("PKCS12");
            anchors.load(null, null);
            List<Certificate> cas = certificates(x509, caFile, "cluster.tls.caFile");
            for (int i = 0; i < cas.size(); i++) {
                anchors.setCertificateEntry("ca-" + i, cas.get(i));
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(anchors);
            SSLContext context = SSLContext.getInstance("TLSv1.3");
            context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException("cluster.tls: " + e.getMessage());
        }
    }

    private static List<Certificate> certificates(CertificateFactory x509, Path file, String key) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            List<Certificate> certificates = List.copyOf(x509.generateCertificates(in));
            if (certificates.isEmpty()) {
                throw new ConfigException(key + ": no PEM certificate in " + file);
            }
            return certificates;
        } catch (CertificateException e) {
            throw new ConfigException(key + ": " + file + " is not a PEM certificate: " + e.getMessage());
        }
    }

    private static PrivateKey privateKey(Path file) throws IOException {
        String pem = Files.readString(file, StandardCharsets.US_ASCII);
        int begin = pem.indexOf(PKCS8_BEGIN);
        int end = pem.indexOf(PKCS8_END);
        if (begin < 0 || end < begin) {
            throw new ConfigException("cluster.tls.keyFile: " + file + " holds no PKCS#8 key ('" + PKCS8_BEGIN
                    + "'); convert it with: openssl pkcs8 -topk8 -nocrypt -in OLD -out NEW");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(pem.substring(begin + PKCS8_BEGIN.length(), end));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("cluster.tls.keyFile: " + file + ": bad base64 in the PEM key");
        }
        for (String algorithm : List.of("EC", "RSA", "Ed25519", "RSASSA-PSS")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException notThisOne) {
                // the PKCS#8 envelope names the algorithm, but the JDK needs a factory of the right kind to read it
            }
        }
        throw new ConfigException("cluster.tls.keyFile: " + file + ": not an EC, RSA or Ed25519 PKCS#8 key");
    }

    private static Path nullSafe(Path path) {
        return path == null ? Path.of("") : path;
    }

    private static Path path(StrictJson section, String key, Path baseDir) {
        if (!section.has(key)) {
            return null;
        }
        String value = section.string(key);
        try {
            Path path = Path.of(value);
            return baseDir == null ? path : baseDir.resolve(path);
        } catch (java.nio.file.InvalidPathException e) {
            throw new ConfigException(section.path(key) + ": not a file name");
        }
    }

    private static Path envPath(Map<String, String> env, String variable, Path fallback) {
        String value = env.get(variable);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Path.of(value);
        } catch (java.nio.file.InvalidPathException e) {
            throw new ConfigException(variable + ": not a file name");
        }
    }
}
