package io.rdmamon.collector;

import io.rdmamon.collector.config.ConfigException;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.X509KeyManager;

/**
 * The collector's own certificate: TLS is on when both files are set, off when neither is. Each settings
 * layer may set either file; {@link #keyCertOptions} insists on both.
 *
 * @param certFile PEM certificate chain, the server's certificate first; null = not set
 * @param keyFile  PEM private key of that certificate, PKCS#8 ({@code BEGIN PRIVATE KEY}) or PKCS#1
 *                 ({@code BEGIN RSA PRIVATE KEY}); null = not set
 */
public record TlsConfig(Path certFile, Path keyFile) {
    /** Plain HTTP. */
    public static final TlsConfig NONE = new TlsConfig(null, null);

    /** True when both files are set. */
    public boolean enabled() {
        return certFile != null && keyFile != null;
    }

    public TlsConfig withCertFile(Path value) {
        return new TlsConfig(value, keyFile);
    }

    public TlsConfig withKeyFile(Path value) {
        return new TlsConfig(certFile, value);
    }

    /**
     * Reads and checks both files: the certificates parse, the key parses and belongs to the first certificate.
     * Blocking file I/O: call it off the event loop.
     *
     * @return the server's key material, held in memory (the files are read once, here)
     * @throws ConfigException naming the file and what is wrong with it, or the setting that is missing
     */
    public PemKeyCertOptions keyCertOptions(Vertx vertx) {
        if (certFile == null || keyFile == null) {
            throw new ConfigException("TLS needs both a certificate and a key: "
                    + (certFile == null ? "key file " + keyFile + " given but no certificate (tls.certFile, RDMAMON_TLS_CERT_FILE, --tls-cert)"
                    : "certificate file " + certFile + " given but no key (tls.keyFile, RDMAMON_TLS_KEY_FILE, --tls-key)"));
        }
        byte[] certPem = read(certFile, "certificate");
        X509Certificate leaf = firstCertificate(certPem);
        byte[] keyPem = read(keyFile, "key");
        PemKeyCertOptions options = new PemKeyCertOptions().setCertValue(Buffer.buffer(certPem))
                .setKeyValue(Buffer.buffer(keyPem));
        PrivateKey key;
        try {
            key = privateKey(options.getKeyManagerFactory(vertx).getKeyManagers());
        } catch (Exception e) {
            throw new ConfigException("TLS key file " + keyFile
                    + ": not a PEM private key (PKCS#8 BEGIN PRIVATE KEY or PKCS#1 BEGIN RSA PRIVATE KEY): " + reason(e), e);
        }
        requireMatch(key, leaf);
        return options;
    }

    private static byte[] read(Path file, String what) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ConfigException("TLS " + what + " file " + file + ": cannot read: " + e.getClass().getSimpleName(), e);
        }
    }

    private X509Certificate firstCertificate(byte[] pem) {
        Collection<? extends Certificate> chain;
        try {
            chain = CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem));
        } catch (CertificateException e) {
            throw new ConfigException("TLS certificate file " + certFile + ": not a PEM certificate chain: " + reason(e), e);
        }
        if (chain.isEmpty() || !(chain.iterator().next() instanceof X509Certificate leaf)) {
            throw new ConfigException("TLS certificate file " + certFile + ": holds no X.509 certificate");
        }
        return leaf;
    }

    private static PrivateKey privateKey(KeyManager[] managers) {
        for (KeyManager manager : managers) {
            if (manager instanceof X509KeyManager x509) {
                for (String type : List.of("RSA", "EC", "EdDSA", "Ed25519", "DSA")) {
                    String[] aliases = x509.getServerAliases(type, null);
                    if (aliases != null && aliases.length > 0) {
                        return x509.getPrivateKey(aliases[0]);
                    }
                }
            }
        }
        throw new IllegalStateException("no private key found");
    }

    /** A key that does not belong to the certificate would fail every handshake; say so at startup instead. */
    private void requireMatch(PrivateKey key, X509Certificate leaf) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "EdDSA", "Ed25519" -> "Ed25519";
            default -> null;
        };
        if (algorithm == null) {
            return; // no cheap check for other key types; the handshake will tell
        }
        byte[] probe = "rdmamon key/certificate match".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        boolean matches;
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(leaf.getPublicKey());
            verifier.update(probe);
            matches = verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            matches = false;
        }
        if (!matches) {
            throw new ConfigException("TLS key file " + keyFile + " does not belong to the certificate in " + certFile
                    + " (" + leaf.getSubjectX500Principal().getName() + ")");
        }
    }

    private static String reason(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return Optional.ofNullable(root.getMessage()).orElse(root.getClass().getSimpleName());
    }
}
