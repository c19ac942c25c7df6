package io.rdmamon.collector.cluster;

import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.vertx.core.json.JsonObject;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Seals the cluster messages that make an agent act (a probe's start and stop frames, forwarded to the replica that
 * holds the agent) with an HMAC keyed by the configured operator tokens, which every replica shares: a member that
 * joined without being given them (possible only with {@code --insecure-cluster}) cannot make an agent generate
 * traffic, because the agent's replica forwards only what it can verify. Without operator tokens the collector is
 * open to anyone who reaches it anyway, and nothing is sealed.
 */
public final class ClusterSeal {
    /** How far a sealed message's time may be from the receiver's clock (replays of old frames are refused). */
    static final long MAX_AGE_MILLIS = 60_000;
    private static final String ALGORITHM = "HmacSHA256";
    private final byte[] key;
    private final LongSupplier clock;

    private ClusterSeal(byte[] key, LongSupplier clock) {
        this.key = key;
        this.clock = clock;
    }

    /** The seal of a cluster whose replicas are configured with {@code tokens}. */
    public static ClusterSeal of(List<TokenEntry> tokens, LongSupplier clock) {
        List<String> operators = tokens.stream().filter(t -> t.role() == Role.OPERATOR).map(TokenEntry::token).sorted()
                .toList();
        if (operators.isEmpty()) {
            return new ClusterSeal(null, clock);
        }
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update("rdmamon cluster seal 1".getBytes(StandardCharsets.UTF_8));
            for (String token : operators) {
                digest.update((byte) 0);
                digest.update(token.getBytes(StandardCharsets.UTF_8));
            }
            return new ClusterSeal(digest.digest(), clock);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** Whether messages are sealed at all (operator tokens are configured). */
    public boolean active() {
        return key != null;
    }

    /** A frame for {@code node}'s agent, sealed. */
    JsonObject frame(String node, byte[] frame) {
        JsonObject message = new JsonObject().put("node", node).put("frame", frame);
        if (key != null) {
            long at = clock.getAsLong();
            message.put("at", at).put("seal", Base64.getEncoder().encodeToString(mac(node, frame, at)));
        }
        return message;
    }

    /** Why {@code message} (a frame for an agent) must not be forwarded, or null when it may. */
    String refusal(JsonObject message) {
        if (key == null) {
            return null;
        }
        String seal = message.getString("seal");
        Long at = message.getLong("at");
        if (seal == null || at == null) {
            return "not sealed";
        }
        if (Math.abs(clock.getAsLong() - at) > MAX_AGE_MILLIS) {
            return "sealed " + (clock.getAsLong() - at) / 1000 + " s ago";
        }
        byte[] presented;
        try {
            presented = Base64.getDecoder().decode(seal);
        } catch (IllegalArgumentException e) {
            return "seal is not base64";
        }
        return MessageDigest.isEqual(presented, mac(message.getString("node"), message.getBinary("frame"), at)) ? null
                : "seal does not verify (a member without this cluster's operator tokens)";
    }

    private byte[] mac(String node, byte[] frame, long at) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            mac.update(String.valueOf(node).getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            mac.update(frame == null ? new byte[0] : frame);
            mac.update((byte) 0);
            mac.update(Long.toString(at).getBytes(StandardCharsets.UTF_8));
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }
}
