package io.rdmamon.collector.cluster;

import io.vertx.core.Completable;
import io.vertx.core.spi.cluster.NodeInfo;
import io.vertx.core.spi.cluster.RegistrationInfo;
import io.vertx.ext.cluster.infinispan.InfinispanClusterManager;
import org.infinispan.manager.DefaultCacheManager;
import org.infinispan.notifications.Listener;
import org.infinispan.notifications.cachemanagerlistener.annotation.Merged;
import org.infinispan.notifications.cachemanagerlistener.annotation.ViewChanged;
import org.infinispan.notifications.cachemanagerlistener.event.ViewChangedEvent;
import org.infinispan.remoting.transport.Address;
import org.infinispan.remoting.transport.jgroups.JGroupsTransport;
import org.jgroups.JChannel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * Vert.x's Infinispan cluster manager over the cache manager {@link ClusterBoot} built, which this class owns: it
 * starts it when Vert.x joins and stops it after Vert.x left, and tells rdmamon of every view change (a member
 * added, one gone, partitions merged) — Vert.x keeps the cluster manager's own node listener for itself.
 */
public final class ReplicaClusterManager extends InfinispanClusterManager {
    private static final System.Logger LOG = System.getLogger(ReplicaClusterManager.class.getName());
    /** What a view change means to rdmamon: the members that came and those that went. */
    public interface ViewListener {
        void viewChanged(List<String> joined, List<String> left, boolean merged);
    }

    private final DefaultCacheManager cacheManager;
    private final List<ViewListener> listeners = new CopyOnWriteArrayList<>();
    /** This member's event-bus consumers, as Vert.x registered them: written again after a merge. */
    private final Map<String, Set<RegistrationInfo>> registrations = new ConcurrentHashMap<>();

    ReplicaClusterManager(DefaultCacheManager cacheManager) {
        super(cacheManager);
        this.cacheManager = cacheManager;
    }

    @Override
    public void join(Completable<Void> promise) {
        // starting connects the JGroups channel (binds, finds the members, joins): blocking, so off any event loop
        CompletableFuture.runAsync(cacheManager::start).whenComplete((v, e) -> {
            if (e != null) {
                promise.fail(e.getCause() == null ? e : e.getCause());
                return;
            }
            cacheManager.addListener(new Views());
            super.join(promise);
        });
    }

    @Override
    public void addRegistration(String address, RegistrationInfo info, Completable<Void> promise) {
        registrations.computeIfAbsent(address, a -> ConcurrentHashMap.newKeySet()).add(info);
        super.addRegistration(address, info, promise);
    }

    @Override
    public void removeRegistration(String address, RegistrationInfo info, Completable<Void> promise) {
        registrations.computeIfPresent(address, (a, set) -> {
            set.remove(info);
            return set.isEmpty() ? null : set;
        });
        super.removeRegistration(address, info, promise);
    }

    /**
     * While partitions were apart each side's coordinator removed the other side's event-bus consumers and node
     * info from the replicated caches (as for a member that died); Vert.x's Infinispan cluster manager does not
     * write them back on a merge, so requests to this member's addresses would find no handler. Written again after a
     * merge ({@link FleetCluster}).
     */
    void republish() {
        NodeInfo info = getNodeInfo();
        if (info != null) {
            setNodeInfo(info, (v, e) -> {
                if (e != null) {
                    LOG.log(System.Logger.Level.WARNING, "cluster: republishing this replica's node info failed", e);
                }
            });
        }
        registrations.forEach((address, infos) -> infos.forEach(registration -> super.addRegistration(address,
                registration, (v, e) -> {
                    if (e != null) {
                        LOG.log(System.Logger.Level.WARNING, "cluster: republishing consumer " + address + " failed", e);
                    }
                })));
    }

    @Override
    public void leave(Completable<Void> promise) {
        super.leave((v, e) -> CompletableFuture.runAsync(this::stopCacheManager)
                .whenComplete((stopped, failure) -> promise.complete(null, e != null ? e : failure)));
    }

    /** Stops the cache manager, leaving the cluster: after Vert.x left, or when Vert.x could not be built on it. */
    void stopCacheManager() {
        cacheManager.stop();
    }

    /** The JGroups channel under the cache manager. */
    JChannel channel() {
        return ((JGroupsTransport) cacheManager.getTransport()).getChannel();
    }

    /** This member's id: its JGroups address, stable for the life of the process (a resumed member keeps it). */
    public String selfId() {
        return getNodeId();
    }

    /** The ids of the members in the current view, this one included. */
    public Set<String> memberIds() {
        return getNodes().stream().collect(Collectors.toUnmodifiableSet());
    }

    /** Called on Infinispan's notification thread: listeners hand the work to their own context. */
    public void addViewListener(ViewListener listener) {
        listeners.add(listener);
    }

    @Listener(sync = false)
    public final class Views {
        @ViewChanged
        public void changed(ViewChangedEvent event) {
            tell(event, false);
        }

        @Merged
        public void merged(ViewChangedEvent event) {
            tell(event, true);
        }

        private void tell(ViewChangedEvent event, boolean merged) {
            List<String> joined = ids(event.getNewMembers());
            joined.removeAll(ids(event.getOldMembers()));
            List<String> left = ids(event.getOldMembers());
            left.removeAll(ids(event.getNewMembers()));
            listeners.forEach(listener -> listener.viewChanged(joined, left, merged));
        }

        private List<String> ids(List<Address> members) {
            List<String> ids = new ArrayList<>();
            members.forEach(member -> ids.add(member.toString()));
            return ids;
        }
    }
}
