package io.rdmamon.collector.cluster;

import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.protocol.telemetry.ProcessTelemetry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import org.infinispan.configuration.cache.CacheMode;
import org.infinispan.configuration.cache.ConfigurationBuilder;
import org.infinispan.conflict.MergePolicy;
import org.infinispan.partitionhandling.PartitionHandling;
import org.infinispan.configuration.global.GlobalConfigurationBuilder;
import org.infinispan.configuration.global.ShutdownHookBehavior;
import org.infinispan.configuration.parsing.ConfigurationBuilderHolder;
import org.infinispan.manager.DefaultCacheManager;
import org.infinispan.remoting.transport.jgroups.JGroupsTransport;
import org.jgroups.JChannel;
import org.jgroups.PhysicalAddress;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FRAG4;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.MFC;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.dns.DNS_PING;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.stack.IpAddress;
import org.jgroups.stack.Protocol;
import org.jgroups.util.DefaultSocketFactory;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Starts a clustered Vert.x for one replica: Infinispan as the cluster manager on a JGroups TCP stack of our own,
 * bound to the configured interface only, joined through the member list (TCPPING) or Kubernetes DNS (DNS_PING),
 * no multicast anywhere; the clustered event bus on the same interface. With {@code cluster.tls} both the member
 * port and the event bus speak mutual TLS pinned to the cluster's CA, so a host without a certificate the CA signed
 * cannot join, read the node directory or send a message (docs/collector.md, threat model). Without it the member
 * port is plain TCP, which {@link ClusterConfig#validated()} allows on loopback only unless the operator says
 * {@code --insecure-cluster}.
 */
public final class ClusterBoot {
    /** A clustered Vert.x and its cluster manager (the replica's id and membership come from it). */
    public record Booted(Vertx vertx, ReplicaClusterManager manager) {
    }

    /**
     * Infinispan and JGroups log every view and rebalance at INFO; rdmamon logs the membership changes it acts on
     * itself. Held here: java.util.logging keeps only weak references to loggers, and a collected logger forgets its
     * level.
     */
    private static final Logger INFINISPAN_LOG = Logger.getLogger("org.infinispan");
    private static final Logger JGROUPS_LOG = Logger.getLogger("org.jgroups");
    /** Warns at every start that its internal caches are not persisted (rdmamon persists nothing on purpose); the cache configuration is rdmamon's own, fixed. */
    private static final Logger INTERNAL_CACHES_LOG = Logger.getLogger("org.infinispan.CONFIG");
    /** Announces its version at INFO on the first thread pool. */
    private static final Logger THREADS_LOG = Logger.getLogger("org.jboss.threads");

    private ClusterBoot() {
    }

    /** Joins (or founds) the cluster {@code config} describes; fails with a ConfigException for a bad setting. */
    public static Future<Booted> start(ClusterConfig config, VertxOptions options) {
        ClusterConfig checked;
        InetAddress ip;
        EventBusOptions bus;
        SSLContext tls;
        try {
            checked = config.validated();
            if (!checked.enabled()) {
                throw new ConfigException("not a cluster member: no cluster.listen");
            }
            ip = resolve(checked.listen().host(), "cluster.listen");
            String literal = ip.getHostAddress();
            bus = checked.tls().apply(new EventBusOptions().setHost(literal).setPort(checked.effectiveEventBusPort())
                    .setClusterPublicHost(literal).setClusterPublicPort(checked.effectiveEventBusPort()));
            tls = checked.tls().enabled() ? checked.tls().sslContext() : null;
        } catch (ConfigException e) {
            return Future.failedFuture(e);
        }
        String where = ip.getHostAddress() + ":" + checked.listen().port() + " (member port) with the event bus on "
                + ip.getHostAddress() + ":" + checked.effectiveEventBusPort();
        // JGroups and Infinispan block while they bind and look for the members: never on a caller's event loop
        return Future.fromCompletionStage(CompletableFuture.supplyAsync(() -> {
            try {
                return new ReplicaClusterManager(cacheManager(checked, ip, tls));
            } catch (Exception e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        })).compose(manager -> ProcessTelemetry.process()
                .builder(new VertxOptions(options).setEventBusOptions(bus)).withClusterManager(manager).buildClustered().map(vertx -> new Booted(vertx, manager))
                .onFailure(e -> manager.stopCacheManager()))
                .recover(e -> Future.failedFuture(new IllegalStateException("cannot join the cluster as " + where + ": "
                        + rootMessage(e), e)));
    }

    /**
     * The replica's cache manager, not yet started: Vert.x's caches (as its {@code default-infinispan.xml} declares
     * them) over our JGroups channel.
     */
    static DefaultCacheManager cacheManager(ClusterConfig config, InetAddress ip, SSLContext tls) throws Exception {
        INFINISPAN_LOG.setLevel(Level.WARNING);
        JGROUPS_LOG.setLevel(Level.WARNING);
        INTERNAL_CACHES_LOG.setLevel(Level.SEVERE);
        THREADS_LOG.setLevel(Level.WARNING);
        ClassLoader loader = ClusterBoot.class.getClassLoader();
        GlobalConfigurationBuilder global = new GlobalConfigurationBuilder().classLoader(loader);
        global.transport().clusterName(config.name()).transport(new JGroupsTransport(channel(config, ip, tls)));
        // the collector leaves the cluster itself after draining its agents on SIGTERM (Vert.x close)
        global.shutdown().hookBehavior(ShutdownHookBehavior.DONT_REGISTER);
        global.defaultCacheName("distributed-cache");
        global.jmx().disable();
        ConfigurationBuilderHolder holder = new ConfigurationBuilderHolder(loader, global);
        mergeable(holder.newConfigurationBuilder("distributed-cache"), CacheMode.DIST_SYNC);
        for (String replicated : List.of("__vertx.subs", "__vertx.haInfo", "__vertx.nodeInfo")) {
            mergeable(holder.newConfigurationBuilder(replicated), CacheMode.REPL_SYNC);
        }
        // Vert.x makes an AsyncMap's cache from this template the first time it is asked for one, cluster-wide; ours
        // are declared on every member up front instead (a member asked for a cache it has not defined yet, during a
        // join or a merge, refuses), replicated: every replica keeps a copy, so a replica killed outright loses no
        // entry the others need to purge it
        mergeable(holder.newConfigurationBuilder("__vertx.distributed.cache.configuration").template(true), CacheMode.REPL_SYNC);
        for (String map : FleetCluster.MAPS) {
            mergeable(holder.newConfigurationBuilder(map), CacheMode.REPL_SYNC);
        }
        return new DefaultCacheManager(holder, false);
    }

    /**
     * Every side of a partition keeps serving (a replica alone still ingests and exports its agents), and when the
     * sides merge, conflict resolution keeps every entry either side has (an entry written on one side only — a
     * replica's event-bus consumers, its node info, a node claimed while apart — would otherwise be lost with the
     * side that did not become the merged cache's source).
     */
    private static void mergeable(ConfigurationBuilder cache, CacheMode mode) {
        cache.clustering().cacheMode(mode).partitionHandling().whenSplit(PartitionHandling.ALLOW_READ_WRITES)
                .mergePolicy(MergePolicy.PREFERRED_NON_NULL);
    }

    /**
     * The JGroups stack: TCP on exactly the listen address and port (TLS when configured), discovery by the member
     * list or DNS, failure detection by heartbeats (a replica killed outright is noticed within 5 s; its agents'
     * entries are purged then), and merging of partitions within seconds (members started at one moment, or a
     * replica that was stopped and resumed).
     */
    static JChannel channel(ClusterConfig config, InetAddress ip, SSLContext tls) throws Exception {
        TCP tcp = new TCP();
        tcp.setBindAddress(ip);
        tcp.setBindPort(config.listen().port());
        tcp.setPortRange(0);
        Protocol discovery;
        if (config.kubernetesServiceDns() != null) {
            discovery = new DNS_PING().setDNSQuery(config.kubernetesServiceDns());
        } else {
            List<PhysicalAddress> members = new ArrayList<>();
            for (String member : config.members()) {
                int colon = member.lastIndexOf(':');
                String host = member.substring(0, colon).replace("[", "").replace("]", "");
                members.add(new IpAddress(resolve(host, "cluster.members"), Integer.parseInt(member.substring(colon + 1))));
            }
            discovery = new TCPPING().setPortRange(0).setInitialHosts2(members);
        }
        FD_ALL3 heartbeats = new FD_ALL3();
        heartbeats.setInterval(1000);
        heartbeats.setTimeout(5000);
        MERGE3 merge = new MERGE3().setMinInterval(2000).setMaxInterval(5000);
        NAKACK2 nakack = new NAKACK2();
        nakack.useMcastXmit(false);
        GMS gms = new GMS();
        gms.setJoinTimeout(3000);
        gms.printLocalAddress(false);
        JChannel channel = new JChannel(tcp, discovery, merge, heartbeats, new VERIFY_SUSPECT2().setTimeout(1500),
                nakack, new UNICAST3(), new STABLE(), gms, new MFC(), new FRAG4());
        if (tls != null) {
            DefaultSocketFactory sockets = new DefaultSocketFactory(tls);
            // a member must prove itself with a certificate the cluster's CA signed, as the event bus demands
            sockets.setServerSocketConfigurator(socket -> ((SSLServerSocket) socket).setNeedClientAuth(true));
            tcp.setSocketFactory(sockets);
        }
        return channel;
    }

    private static InetAddress resolve(String host, String origin) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new ConfigException(origin + ": '" + host + "' does not resolve");
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e || e.getMessage() == null ? String.valueOf(root.getMessage()) : e.getMessage()
                + (root.getMessage() == null || e.getMessage().contains(root.getMessage()) ? "" : ": " + root.getMessage());
    }
}
