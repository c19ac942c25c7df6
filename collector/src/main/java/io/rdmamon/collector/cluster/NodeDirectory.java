package io.rdmamon.collector.cluster;

import io.vertx.core.Future;
import io.vertx.core.shareddata.AsyncMap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The cluster-wide directory of which replica holds which node (an Infinispan replicated cache through Vert.x's {@link AsyncMap};
 * for a lone collector Vert.x's local map, the same code). A replica claims a node when its agent's hello arrives,
 * marks it disconnected when the stream ends, and removes it when the node expires; the survivors purge the
 * entries of a replica that left. Claims are compare-and-set, so two replicas never both hold a node.
 */
public final class NodeDirectory {
    /** What a claim found. */
    public enum Outcome {
        /** No other replica held the node (or this one did): it is ours now. */
        CLAIMED,
        /** Another replica held it (a reconnect elsewhere, a stale or dead holder): ours now, tell it to let go. */
        MOVED,
        /** Another replica holds a live connection of another agent run with this name: refused. */
        CONFLICT
    }

    /**
     * A claim's outcome, the entry it replaced or ran into (null when there was none), and the outcome of its write
     * to the directory: the same as {@code outcome} once written, except for a move, which is answered before its
     * write ({@link #claim}) and whose write may still lose the node to another run that took it meanwhile
     * ({@link Outcome#CONFLICT}).
     */
    public record Claim(Outcome outcome, NodeOwner previous, Future<Outcome> written) {
        /** A claim whose entry is written. */
        Claim(Outcome outcome, NodeOwner previous) {
            this(outcome, previous, Future.succeededFuture(outcome));
        }
    }

    private static final int CLAIM_ATTEMPTS = 4;
    private final AsyncMap<String, String> map;
    private final String selfId;
    private final Predicate<String> isMember;

    /** {@code isMember}: whether a replica id is a member now (an entry of a departed replica is free to take). */
    public NodeDirectory(AsyncMap<String, String> map, String selfId, Predicate<String> isMember) {
        this.map = map;
        this.selfId = selfId;
        this.isMember = isMember;
    }

    /**
     * Takes {@code node} for this replica ({@code wanted.replica()} must be this replica's id). The same agent run
     * reconnecting (its entry names {@code wanted.instance()}) is answered as soon as the entry is read, before the
     * write: a replicated cache's write waits for every member of the view, and a replica killed outright stays in
     * the view until the failure detector drops it (FD_ALL3 and VERIFY_SUSPECT2, 6.5 s), while its agents are
     * already here. The write follows ({@link Claim#written()}).
     */
    public Future<Claim> claim(String node, NodeOwner wanted) {
        return ownClaim(node, wanted, false);
    }

    /**
     * Writes this replica's claim of {@code node} again after partitions merged ({@code wanted} as it was claimed),
     * unless another replica's entry is newer: the agent moved there after this claim (the same run included, which
     * {@link #claim} would take back from its live stream there), and that entry is answered as a
     * {@link Outcome#CONFLICT}. A replica killed right after a merge left its agents' moves racing the survivors'
     * re-claims, which wrote back entries naming replicas the agents had left (docs/collector.md). The claims'
     * times are compared across replicas: their clocks must agree to well within the seconds between two moves.
     */
    public Future<Claim> reclaim(String node, NodeOwner wanted) {
        return ownClaim(node, wanted, true);
    }

    /**
     * Whether {@code entry}, the directory's entry of a node this replica has, says that its agent moved to another
     * member: the entry names a live member other than this replica, and this replica holds no claim of the node
     * ({@code ours} null: its stream here ended) or an older one. A newer claim here means the entry is a stale copy
     * that a merge brought back.
     */
    public boolean movedAway(NodeOwner entry, NodeOwner ours) {
        return !entry.replica().equals(selfId) && isMember.test(entry.replica())
                && (ours == null || entry.sinceMillis() > ours.sinceMillis());
    }

    /** A replica claims for itself only: a {@code wanted} naming another replica is a caller's bug. */
    private Future<Claim> ownClaim(String node, NodeOwner wanted, boolean yieldToNewer) {
        if (!wanted.replica().equals(selfId)) {
            return Future.failedFuture(new IllegalArgumentException("claim for another replica: " + wanted.replica()));
        }
        return claim(node, wanted, yieldToNewer, CLAIM_ATTEMPTS);
    }

    private Future<Claim> claim(String node, NodeOwner wanted, boolean yieldToNewer, int attempts) {
        if (attempts == 0) {
            return Future.failedFuture(new IllegalStateException("node directory: " + node
                    + " changed hands " + CLAIM_ATTEMPTS + " times during one claim"));
        }
        String encoded = wanted.encode();
        return map.get(node).compose(current -> {
            if (current == null) {
                return map.putIfAbsent(node, encoded).compose(raced -> raced == null
                        ? Future.succeededFuture(new Claim(Outcome.CLAIMED, null))
                        : claim(node, wanted, yieldToNewer, attempts - 1));
            }
            NodeOwner previous = NodeOwner.decode(current);
            boolean ours = previous.replica().equals(selfId);
            if (yieldToNewer && !ours && previous.sinceMillis() > wanted.sinceMillis()) {
                return Future.succeededFuture(new Claim(Outcome.CONFLICT, previous));
            }
            boolean sameRun = previous.instance() != null && previous.instance().equals(wanted.instance());
            boolean free = ours || sameRun || !isMember.test(previous.replica()) || !previous.connected();
            if (!free) {
                return Future.succeededFuture(new Claim(Outcome.CONFLICT, previous));
            }
            Outcome outcome = ours ? Outcome.CLAIMED : Outcome.MOVED;
            Future<Claim> written = map.replaceIfPresent(node, current, encoded).compose(replaced -> replaced
                    ? Future.succeededFuture(new Claim(outcome, previous)) : claim(node, wanted, yieldToNewer, attempts - 1));
            if (!sameRun) {
                return written;
            }
            // a write under way when the view drops the dead member may fail with it: tried again on the new view
            return Future.succeededFuture(new Claim(outcome, previous, written
                    .recover(e -> claim(node, wanted, yieldToNewer, attempts - 1)).compose(Claim::written)));
        });
    }

    /** The node's stream on this replica ended: still ours (stale, exported until it expires), but free to move. */
    public Future<Void> disconnected(String node, String instance) {
        return map.get(node).compose(current -> {
            if (current == null) {
                return Future.succeededFuture();
            }
            NodeOwner owner = NodeOwner.decode(current);
            if (!owner.replica().equals(selfId) || owner.instance() != null && !owner.instance().equals(instance)) {
                return Future.succeededFuture(); // moved meanwhile, or a newer run of the agent holds it
            }
            return map.replaceIfPresent(node, current, owner.disconnected().encode()).mapEmpty();
        });
    }

    /** This replica no longer holds {@code node} (it expired here, or moved): removes the entry if still ours. */
    public Future<Void> release(String node) {
        return map.get(node).compose(current -> current != null && NodeOwner.decode(current).replica().equals(selfId)
                ? map.removeIfPresent(node, current).mapEmpty() : Future.succeededFuture());
    }

    /** Removes every entry of {@code replica} (it left the cluster); answers the nodes removed. */
    public Future<List<String>> purge(String replica) {
        return map.entries().compose(entries -> {
            List<String> nodes = new ArrayList<>();
            List<Future<Boolean>> removals = new ArrayList<>();
            entries.forEach((node, value) -> {
                if (NodeOwner.decode(value).replica().equals(replica)) {
                    nodes.add(node);
                    removals.add(map.removeIfPresent(node, value));
                }
            });
            return Future.all(removals).map(done -> nodes);
        });
    }

    public Future<Optional<NodeOwner>> owner(String node) {
        return map.get(node).map(value -> Optional.ofNullable(value).map(NodeOwner::decode));
    }

    /** Every entry, by node. */
    public Future<Map<String, NodeOwner>> all() {
        return map.entries().map(entries -> {
            Map<String, NodeOwner> owners = new HashMap<>(entries.size() * 2);
            entries.forEach((node, value) -> owners.put(node, NodeOwner.decode(value)));
            return owners;
        });
    }
}
