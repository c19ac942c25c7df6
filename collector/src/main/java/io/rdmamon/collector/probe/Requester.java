package io.rdmamon.collector.probe;

import io.rdmamon.collector.auth.TokenEntry;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Who asked for a probe action, for the audit log and the probe's {@code requestedBy}: the token's role
 * and a fingerprint (the first 8 hex digits of its SHA-256, enough to tell tokens apart, useless to
 * recover one), never the token itself.
 *
 * @param role        {@code operator}, {@code viewer}, ...; {@code open} when no operator token is configured
 * @param fingerprint SHA-256 prefix of the token; null without a token
 * @param remote      the client's address
 */
public record Requester(String role, String fingerprint, String remote) {
    public static Requester of(TokenEntry token, String remote) {
        if (token == null) {
            return new Requester("open", null, remote);
        }
        return new Requester(token.role().name().toLowerCase(java.util.Locale.ROOT), fingerprint(token.token()), remote);
    }

    static String fingerprint(String token) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** {@code operator:1a2b3c4d}, or {@code open} when the action needed no token. */
    public String label() {
        return fingerprint == null ? role : role + ":" + fingerprint;
    }

    JsonObject json() {
        return new JsonObject().put("role", role).put("tokenFingerprint", fingerprint).put("remote", remote);
    }
}
