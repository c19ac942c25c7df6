package io.rdmamon.collector.cluster;

import io.rdmamon.collector.ingest.HelloClaims;
import io.rdmamon.protocol.wire.Frame;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The cluster side of an agent's hello and of its stream's end: the node's entry in the cluster-wide
 * {@link NodeDirectory}. A claim that takes the node from another replica tells that replica to let go
 * ({@link FleetCluster#releaseAddress}), so that no node is held, and exported, twice; once the node's first sample
 * is stored here, so that no scrape in between finds it on neither replica.
 */
public final class NodeClaims implements HelloClaims {
    private static final System.Logger LOG = System.getLogger(NodeClaims.class.getName());
    private final Vertx vertx;
    private final FleetCluster cluster;
    /** The nodes whose agents are connected here, as claimed: claimed again after partitions merged. */
    private final Map<String, NodeOwner> held = new ConcurrentHashMap<>();
    /** The replica each node moved here from, told to let go once the node's first sample is stored here. */
    private final Map<String, Release> pendingReleases = new ConcurrentHashMap<>();

    /** A replica to tell that the node of {@code hello} moved away from it. */
    private record Release(String replica, Frame.Hello hello) {
    }

    public NodeClaims(Vertx vertx, FleetCluster cluster) {
        this.vertx = vertx;
        this.cluster = cluster;
        cluster.onMerged(this::reclaim);
    }

    /** Claims the hello's node for this replica; a MOVED claim has already told the previous holder. */
    @Override
    public Future<Optional<String>> claim(Frame.Hello hello, String remoteHost) {
        NodeOwner wanted = new NodeOwner(cluster.selfId(), hello.instance(), remoteHost, hello.capabilities(), true,
                System.currentTimeMillis());
        return cluster.directory().claim(hello.node(), wanted).onSuccess(claim -> {
            if (claim.outcome() == NodeDirectory.Outcome.CONFLICT) {
                return;
            }
            held.put(hello.node(), wanted);
            NodeOwner previous = claim.previous();
            if (claim.outcome() == NodeDirectory.Outcome.MOVED && cluster.isMember(previous.replica())) {
                LOG.log(System.Logger.Level.INFO, "node {0} moved here from replica {1}", hello.node(), previous.replica());
                pendingReleases.put(hello.node(), new Release(previous.replica(), hello));
            }
            claim.written().onComplete(written -> settle(hello, wanted, written));
        }).map(claim -> claim.outcome() == NodeDirectory.Outcome.CONFLICT
                ? Optional.of(describe(claim.previous())) : Optional.empty());
    }

    /** Tells {@code replica} to close its connection of the hello's agent run, if it has one, and drop the node. */
    private void release(String replica, Frame.Hello hello) {
        vertx.eventBus().send(FleetCluster.releaseAddress(replica),
                new JsonObject().put("node", hello.node()).put("instance", hello.instance()));
    }

    /**
     * A move was admitted before its directory entry was written ({@link NodeDirectory#claim}); now it is. If another
     * run took the node meanwhile, or the write failed, this replica lets the node go as if another had claimed it
     * (close 4010: the agent tries its next URL); if the stream ended meanwhile, the entry written is marked so.
     */
    private void settle(Frame.Hello hello, NodeOwner wanted, AsyncResult<NodeDirectory.Outcome> written) {
        String node = hello.node();
        if (written.failed() || written.result() == NodeDirectory.Outcome.CONFLICT) {
            LOG.log(System.Logger.Level.WARNING, "node {0}: its move here was not written to the directory ({1});"
                    + " letting it go", node, written.failed() ? written.cause().toString() : "another run holds it");
            held.remove(node, wanted);
            release(cluster.selfId(), hello);
        } else if (!held.containsKey(node)) {
            disconnected(node, hello.instance());
        }
    }

    @Override
    public void firstSampleStored(String node, String instance) {
        sendPendingRelease(node, instance);
    }

    /** Tells the replica {@code node} moved from to let go, if it has not been told; only for this agent run's claim. */
    private void sendPendingRelease(String node, String instance) {
        Release pending = pendingReleases.get(node);
        if (pending != null && Objects.equals(pending.hello().instance(), instance)
                && pendingReleases.remove(node, pending)) {
            release(pending.replica(), pending.hello());
        }
    }

    @Override
    public void disconnected(String node, String instance) {
        // the stream ended before a sample: the node moved all the same (the directory says so), and the replica it
        // came from must not go on holding a connection of this run
        sendPendingRelease(node, instance);
        held.computeIfPresent(node, (n, owner) -> Objects.equals(owner.instance(), instance) ? null : owner);
        cluster.directory().disconnected(node, instance).onFailure(e -> LOG.log(System.Logger.Level.WARNING,
                "node directory: marking " + node + " disconnected failed", e));
    }

    /**
     * While apart, each side of a partition purged the other's entries; the merged directory may lack ours. Claims
     * every node held here again (a claim another replica won meanwhile, or made later, stays theirs: its agent moved
     * there; {@link NodeDirectory#reclaim}).
     */
    private void reclaim() {
        held.forEach((node, owner) -> cluster.directory().reclaim(node, owner).onSuccess(claim -> {
            if (claim.outcome() == NodeDirectory.Outcome.CONFLICT) {
                LOG.log(System.Logger.Level.WARNING, "after the merge node {0} is held by {1}", node,
                        describe(claim.previous()));
            }
        }).onFailure(e -> LOG.log(System.Logger.Level.WARNING, "node directory: reclaiming " + node
                + " after the merge failed", e)));
    }

    /**
     * Whether the directory's {@code entry} of {@code node} says its agent moved to another member since this
     * replica's claim ({@link NodeDirectory#movedAway}): after a merge the node is then dropped here.
     */
    public boolean movedAway(String node, NodeOwner entry) {
        return cluster.directory().movedAway(entry, held.get(node));
    }

    /** Who holds {@code node} now, for the refusal of a conflicting hello. */
    private static String describe(NodeOwner owner) {
        return "replica " + owner.replica() + " (agent connected from " + owner.remoteHost() + ")";
    }
}
