package io.rdmamon.collector.cluster;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.AsyncMap;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The claim rules of the node directory, on Vert.x's local map (the same code runs on Infinispan's). */
@ExtendWith(VertxExtension.class)
class NodeDirectoryTest {
    private Vertx vertx;
    private AsyncMap<String, String> map;
    private final Set<String> members = new HashSet<>(Set.of("replica-a", "replica-b"));
    private NodeDirectory a;
    private NodeDirectory b;

    @BeforeEach
    void open(Vertx vertx) throws Exception {
        this.vertx = vertx;
        map = await(vertx.sharedData().getAsyncMap("test.directory"));
        a = new NodeDirectory(map, "replica-a", members::contains);
        b = new NodeDirectory(map, "replica-b", members::contains);
    }

    /** Replica b's directory whose writes wait for {@code viewChanged} ({@link StalledWrites}). */
    private NodeDirectory stalledB(Promise<Void> viewChanged) {
        return new NodeDirectory(new StalledWrites(map, viewChanged.future()), "replica-b", members::contains);
    }

    private static NodeOwner owner(String replica, String instance) {
        return owner(replica, instance, 1000);
    }

    private static NodeOwner owner(String replica, String instance, long sinceMillis) {
        return new NodeOwner(replica, instance, "192.0.2.7", List.of("probes"), true, sinceMillis);
    }

    /**
     * After a merge a replica writes its claims again; one whose agent moved to another replica since (the same run)
     * must not take it back: FailoverIT's survivor once did, and the directory named it for nodes streaming elsewhere.
     */
    @Test
    void aReclaimAfterAMergeYieldsToANewerClaimElsewhereOfTheSameRun() throws Exception {
        NodeOwner before = owner("replica-a", "run-1", 1000);
        await(a.claim("gpu-1", before));
        await(b.claim("gpu-1", owner("replica-b", "run-1", 2000)));

        NodeDirectory.Claim reclaim = await(a.reclaim("gpu-1", before));
        assertEquals(NodeDirectory.Outcome.CONFLICT, reclaim.outcome());
        assertEquals("replica-b", reclaim.previous().replica());
        assertEquals("replica-b", await(a.owner("gpu-1")).orElseThrow().replica(), "the newer claim stays");
    }

    @Test
    void aReclaimTakesBackAnOlderEntryAndWritesAMissingOne() throws Exception {
        await(b.claim("gpu-1", owner("replica-b", "run-1", 1000)));
        NodeDirectory.Claim back = await(a.reclaim("gpu-1", owner("replica-a", "run-1", 2000)));
        assertEquals(NodeDirectory.Outcome.MOVED, back.outcome(), "a stale copy the merge brought back");
        assertEquals(NodeDirectory.Outcome.MOVED, await(back.written()));
        assertEquals("replica-a", await(b.owner("gpu-1")).orElseThrow().replica());

        assertEquals(NodeDirectory.Outcome.CLAIMED, await(a.reclaim("gpu-2", owner("replica-a", "run-9", 500))).outcome());
        assertEquals("replica-a", await(b.owner("gpu-2")).orElseThrow().replica());
    }

    /** Whether a replica drops a node it has after a merge, by the directory's entry and its own claim. */
    @Test
    void aNodeMovedAwayOnlyWhenAnotherLiveMembersEntryIsNewerThanTheClaimHere() {
        NodeOwner ours = owner("replica-a", "run-1", 2000);
        record Row(String why, NodeOwner entry, NodeOwner ours, boolean moved) {
        }
        for (Row row : List.of(
                new Row("another member claimed it later", owner("replica-b", "run-1", 3000), ours, true),
                new Row("a stale copy older than the claim here", owner("replica-b", "run-1", 1000), ours, false),
                new Row("no claim here: its stream here ended", owner("replica-b", "run-1", 1000), null, true),
                new Row("the entry is this replica's", owner("replica-a", "run-1", 3000), ours, false),
                new Row("the entry's replica left", owner("replica-gone", "run-1", 3000), null, false))) {
            assertEquals(row.moved(), a.movedAway(row.entry(), row.ours()), row.why());
        }
    }

    @Test
    void aFreeNodeIsClaimedAndReadBackFromEveryReplica() throws Exception {
        NodeDirectory.Claim claim = await(a.claim("gpu-1", owner("replica-a", "run-1")));
        assertEquals(NodeDirectory.Outcome.CLAIMED, claim.outcome());
        assertNull(claim.previous());
        NodeOwner read = await(b.owner("gpu-1")).orElseThrow();
        assertEquals(owner("replica-a", "run-1"), read, "all fields survive the map");
    }

    @Test
    void anotherRunOfALiveNodeElsewhereIsAConflictAndChangesNothing() throws Exception {
        await(a.claim("gpu-1", owner("replica-a", "run-1")));
        NodeDirectory.Claim claim = await(b.claim("gpu-1", owner("replica-b", "run-2")));
        assertEquals(NodeDirectory.Outcome.CONFLICT, claim.outcome());
        assertEquals("replica-a", claim.previous().replica());
        assertEquals("replica-a", await(a.owner("gpu-1")).orElseThrow().replica());
    }

    @Test
    void theSameRunReconnectingElsewhereMovesTheNode() throws Exception {
        await(a.claim("gpu-1", owner("replica-a", "run-1")));
        NodeDirectory.Claim claim = await(b.claim("gpu-1", owner("replica-b", "run-1")));
        assertEquals(NodeDirectory.Outcome.MOVED, claim.outcome());
        assertEquals("replica-a", claim.previous().replica());
        assertEquals(NodeDirectory.Outcome.MOVED, await(claim.written()));
        assertEquals("replica-b", await(a.owner("gpu-1")).orElseThrow().replica());
    }

    /**
     * A replicated cache's write waits for every member of the view, a killed one too until the failure detector
     * drops it: the same run's move is answered on the entry read, its write follows.
     */
    @Test
    void theSameRunsMoveIsAnsweredBeforeItsWriteCompletes() throws Exception {
        await(a.claim("gpu-1", owner("replica-a", "run-1")));
        Promise<Void> viewChanged = Promise.promise();
        NodeDirectory stalled = stalledB(viewChanged);

        NodeDirectory.Claim claim = await(stalled.claim("gpu-1", owner("replica-b", "run-1")));
        assertEquals(NodeDirectory.Outcome.MOVED, claim.outcome());
        assertFalse(claim.written().isComplete(), "the write waits for the view");
        assertEquals("replica-a", await(a.owner("gpu-1")).orElseThrow().replica());

        viewChanged.complete();
        assertEquals(NodeDirectory.Outcome.MOVED, await(claim.written()));
        assertEquals("replica-b", await(a.owner("gpu-1")).orElseThrow().replica());
    }

    @Test
    void aMoveWhoseWriteFailsAsTheViewChangesIsWrittenAgain() throws Exception {
        await(a.claim("gpu-1", owner("replica-a", "run-1")));
        Promise<Void> viewChanged = Promise.promise();
        NodeDirectory stalled = stalledB(viewChanged);
        NodeDirectory.Claim claim = await(stalled.claim("gpu-1", owner("replica-b", "run-1")));
        members.remove("replica-a");

        viewChanged.fail(new IllegalStateException("member replica-a suspected"));
        assertEquals(NodeDirectory.Outcome.MOVED, await(claim.written()));
        assertEquals("replica-b", await(a.owner("gpu-1")).orElseThrow().replica());
    }

    @Test
    void aMoveWhoseWriteFindsAnotherLiveRunLosesTheNode() throws Exception {
        await(a.claim("gpu-1", owner("replica-a", "run-1")));
        Promise<Void> viewChanged = Promise.promise();
        NodeDirectory stalled = stalledB(viewChanged);
        NodeDirectory.Claim claim = await(stalled.claim("gpu-1", owner("replica-b", "run-1")));
        await(a.claim("gpu-1", owner("replica-a", "run-2"))); // the agent restarted and came back to replica a

        viewChanged.complete();
        assertEquals(NodeDirectory.Outcome.CONFLICT, await(claim.written()));
        assertEquals(owner("replica-a", "run-2"), await(a.owner("gpu-1")).orElseThrow());
    }

    @Test
    void anotherRunWaitsForItsWrite() throws Exception {
        await(a.claim("gpu-1", owner("replica-a", "run-1")));
        await(a.disconnected("gpu-1", "run-1"));
        Promise<Void> viewChanged = Promise.promise();
        Future<NodeDirectory.Claim> claim = stalledB(viewChanged).claim("gpu-1", owner("replica-b", "run-2"));
        assertFalse(claim.isComplete(), "the claim of another run is answered once written");
        viewChanged.complete();
        assertEquals(NodeDirectory.Outcome.MOVED, await(claim).outcome());
    }

    @Test
    void aDisconnectedNodeOrOneOfADepartedReplicaIsFreeForAnyRun() throws Exception {
        await(a.claim("gpu-1", owner("replica-a", "run-1")));
        await(a.disconnected("gpu-1", "run-1"));
        assertFalse(await(b.owner("gpu-1")).orElseThrow().connected());
        assertEquals(NodeDirectory.Outcome.MOVED, await(b.claim("gpu-1", owner("replica-b", "run-2"))).outcome());

        await(b.claim("gpu-2", owner("replica-b", "run-9")));
        members.remove("replica-b");
        assertEquals(NodeDirectory.Outcome.MOVED, await(a.claim("gpu-2", owner("replica-a", "run-10"))).outcome(),
                "the holder left the cluster");
    }

    @Test
    void aDisconnectOfAnOlderRunOrAfterAMoveLeavesTheEntryAlone() throws Exception {
        await(a.claim("gpu-1", owner("replica-a", "run-2")));
        await(a.disconnected("gpu-1", "run-1"));
        assertTrue(await(a.owner("gpu-1")).orElseThrow().connected(), "run-1's late close is not run-2's");

        await(b.claim("gpu-1", owner("replica-b", "run-2")));
        await(a.disconnected("gpu-1", "run-2"));
        NodeOwner now = await(b.owner("gpu-1")).orElseThrow();
        assertEquals("replica-b", now.replica());
        assertTrue(now.connected(), "replica a's close after the move does not touch replica b's entry");
    }

    @Test
    void releaseRemovesOnlyOwnEntriesAndPurgeOnlyTheDepartedReplicas() throws Exception {
        await(a.claim("gpu-1", owner("replica-a", "run-1")));
        await(a.claim("gpu-2", owner("replica-a", "run-2")));
        await(b.claim("gpu-3", owner("replica-b", "run-3")));
        await(b.release("gpu-1"));
        assertTrue(await(a.owner("gpu-1")).isPresent(), "replica b cannot release replica a's node");
        await(a.release("gpu-1"));
        assertTrue(await(a.owner("gpu-1")).isEmpty());

        assertEquals(List.of("gpu-2"), await(b.purge("replica-a")));
        assertEquals(Map.of("gpu-3", owner("replica-b", "run-3")), await(a.all()));
    }

    @Test
    void aClaimForAnotherReplicaIsRefused() {
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
                () -> await(a.claim("gpu-1", owner("replica-b", "run-1"))));
        assertTrue(e.getMessage().contains("another replica"), e.getMessage());
    }
}
