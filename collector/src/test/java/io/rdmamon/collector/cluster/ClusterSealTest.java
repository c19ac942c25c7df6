package io.rdmamon.collector.cluster;

import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Frames for an agent cross the cluster sealed with the operator tokens; a member without them is refused. */
class ClusterSealTest {
    private static final List<TokenEntry> TOKENS = List.of(new TokenEntry(Role.VIEWER, "viewer-secret", null),
            new TokenEntry(Role.OPERATOR, "operator-b", null), new TokenEntry(Role.OPERATOR, "operator-a", null));
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final byte[] frame = {1, 2, 3, 4};

    @Test
    void aFrameSealedByAReplicaWithTheSameOperatorTokensIsForwarded() {
        ClusterSeal sender = ClusterSeal.of(TOKENS, now::get);
        ClusterSeal receiver = ClusterSeal.of(List.of(TOKENS.get(2), TOKENS.get(1)), now::get); // order does not matter
        JsonObject sealed = sender.frame("node-1", frame);
        now.addAndGet(ClusterSeal.MAX_AGE_MILLIS - 1);
        assertNull(receiver.refusal(sealed));
    }

    @Test
    void forgedTamperedReplayedOrUnsealedFramesAreRefused() {
        ClusterSeal replica = ClusterSeal.of(TOKENS, now::get);
        ClusterSeal rogue = ClusterSeal.of(List.of(new TokenEntry(Role.OPERATOR, "guessed", null)), now::get);
        ClusterSeal viewerOnly = ClusterSeal.of(List.of(TOKENS.get(0)), now::get);
        assertTrue(replica.refusal(rogue.frame("node-1", frame)).contains("does not verify"));
        assertFalse(viewerOnly.active(), "viewer tokens do not key the seal");
        assertEquals("not sealed", replica.refusal(viewerOnly.frame("node-1", frame)));
        JsonObject sealed = replica.frame("node-1", frame);
        assertNotNull(replica.refusal(sealed.copy().put("node", "node-2")), "another node");
        assertNotNull(replica.refusal(sealed.copy().put("frame", new byte[]{9})), "another frame");
        assertNotNull(replica.refusal(sealed.copy().put("at", now.get() + 1)), "another time");
        assertEquals("seal is not base64", replica.refusal(sealed.copy().put("seal", "%%%")));
        now.addAndGet(ClusterSeal.MAX_AGE_MILLIS + 1);
        assertTrue(replica.refusal(sealed).startsWith("sealed 60 s ago"), replica.refusal(sealed));
    }

    @Test
    void withoutOperatorTokensNothingIsSealedOrChecked() {
        ClusterSeal open = ClusterSeal.of(List.of(), now::get);
        JsonObject message = open.frame("node-1", frame);
        assertFalse(message.containsKey("seal"));
        assertNull(open.refusal(message));
    }
}
