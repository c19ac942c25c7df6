package io.rdmamon.collector.cluster;

import io.rdmamon.protocol.testing.LoopbackPorts;
import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.vertx.core.Future;
import io.vertx.core.VertxOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.rdmamon.protocol.testing.Waits.await;
import static io.rdmamon.protocol.testing.Waits.waitFor;

/**
 * Real collector replicas in the test JVM on loopback: each its own clustered Vert.x with Infinispan (as
 * {@link Collector#startReplica} starts them), joined over TCP-IP into one cluster. For tests of the cluster seams;
 * the process-level test (one JVM per replica, {@code kill -9}) is it/'s ClusterIT.
 */
public final class TestReplicas implements AutoCloseable {
    private static final Duration FORMED = Duration.ofSeconds(60);
    private final List<Collector.Running> replicas = new ArrayList<>();
    private final List<String> members = new ArrayList<>();
    private final Set<Integer> stopped = new HashSet<>();
    private ClusterTls tls = ClusterTls.NONE;
    private Duration handover = Duration.ZERO;

    /**
     * Starts {@code count} replicas of one cluster (HTTP on free ports, member ports with their event-bus port + 1
     * free) from {@code base}, and waits until every one sees all of them. No handover on shutdown: a test's agents
     * do not move on by themselves, and each replica's close would wait the whole {@code cluster.handover} for them.
     */
    public static TestReplicas start(int count, CollectorConfig base) throws Exception {
        return start(count, base, ClusterTls.NONE);
    }

    /** As {@link #start(int, CollectorConfig)}, every replica with {@code tls} on its event bus. */
    public static TestReplicas start(int count, CollectorConfig base, ClusterTls tls) throws Exception {
        return start(count, base, tls, Duration.ZERO);
    }

    /** As {@link #start(int, CollectorConfig, ClusterTls)}, a replica shutting down handing its agents over. */
    public static TestReplicas start(int count, CollectorConfig base, ClusterTls tls, Duration handover)
            throws Exception {
        TestReplicas cluster = new TestReplicas();
        cluster.tls = tls;
        cluster.handover = handover;
        for (int i = 0; i < count; i++) {
            cluster.members.add("127.0.0.1:" + LoopbackPorts.freePair());
        }
        List<Future<Collector.Running>> starting = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            starting.add(cluster.startMember(base, i));
        }
        for (Future<Collector.Running> replica : starting) {
            cluster.replicas.add(await(replica, FORMED));
        }
        cluster.awaitMembers(count);
        return cluster;
    }

    private Future<Collector.Running> startMember(CollectorConfig base, int index) {
        ClusterConfig joined = ClusterConfig.NONE.withListen(members.get(index), "test")
                .withMembers(String.join(",", members), "test");
        ClusterConfig cluster = new ClusterConfig(joined.listen(), joined.members(), null, joined.name(), 0, tls, false,
                handover);
        CollectorConfig config = base.withListen("127.0.0.1:0").withCluster(cluster);
        return Collector.startReplica(config, new VertxOptions());
    }

    /** Replica {@code index} as started (its HTTP port, store, cluster). */
    public Collector.Running replica(int index) {
        return replicas.get(index);
    }

    /** Replica {@code index}'s member {@code HOST:PORT} (its event bus listens on PORT + 1). */
    public String memberAddress(int index) {
        return members.get(index);
    }

    public int size() {
        return replicas.size();
    }

    /** Restarts replica {@code index} with its old member address (a replica coming back). */
    public Collector.Running restart(int index, CollectorConfig base) throws Exception {
        Collector.Running replica = await(startMember(base, index), FORMED);
        replicas.set(index, replica);
        stopped.remove(index);
        return replica;
    }

    /** Closes replica {@code index}'s Vert.x as SIGTERM would: agents drained (1012), the cluster left. */
    public void stop(int index) throws Exception {
        await(beginStop(index), FORMED);
    }

    /** As {@link #stop}, without waiting: the close, which ends once the agents were handed over and the cluster left. */
    public Future<Void> beginStop(int index) {
        stopped.add(index);
        return replicas.get(index).vertx().close();
    }

    /**
     * Replica {@code index} goes silent on its member port at once (JGroups drops every message it would send or
     * receive), as a {@code kill -9} looks to the others, who must notice it by its missing heartbeats; its Vert.x
     * is then closed in the background (its goodbye can no longer reach anyone).
     */
    public void crash(int index) throws Exception {
        stopped.add(index);
        org.jgroups.JChannel channel = replicas.get(index).cluster().manager().channel();
        channel.getProtocolStack().insertProtocol(new org.jgroups.protocols.DISCARD().discardAll(true),
                org.jgroups.stack.ProtocolStack.Position.ABOVE, org.jgroups.protocols.TP.class);
        replicas.get(index).vertx().close();
    }

    /** Waits until every replica not stopped sees exactly {@code count} members. */
    public void awaitMembers(int count) throws InterruptedException {
        for (int i = 0; i < replicas.size(); i++) {
            if (stopped.contains(i)) {
                continue;
            }
            Collector.Running replica = replicas.get(i);
            waitFor(() -> replica.cluster().memberIds().size() == count, "replica " + replica.cluster().selfId()
                    + " sees " + count + " members", FORMED);
        }
    }

    @Override
    public void close() throws Exception {
        Exception failed = null;
        for (int i = 0; i < replicas.size(); i++) {
            if (stopped.contains(i)) {
                continue;
            }
            try {
                await(replicas.get(i).vertx().close(), FORMED);
            } catch (Exception e) { // the others are closed all the same
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }
}
