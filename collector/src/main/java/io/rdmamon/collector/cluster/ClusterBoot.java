package io.rdmamon.collector.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.rdmamon.collector.ConfigException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Starts a clustered Vert.x for one replica: Hazelcast as the cluster manager, bound to the configured interface
 * only, joined over TCP-IP (the member list) or Kubernetes DNS discovery (a headless Service), multicast and
 * auto-detection off; the clustered event bus on the same interface.
 */
public final class ClusterBoot {
    /** A clustered Vert.x and its cluster manager (the replica's id and membership come from it). */
    public record Booted(Vertx vertx, HazelcastClusterManager manager) {
    }

    /**
     * Hazelcast logs every step of a join at INFO; rdmamon logs the membership changes it acts on itself. Held here:
     * java.util.logging keeps only weak references to loggers, and a collected logger forgets its level.
     */
    private static final Logger HAZELCAST_LOG = Logger.getLogger("com.hazelcast");
    /** It warns at every start that CP data structures run unsafe: rdmamon uses none (maps and the event bus only). */
    private static final Logger CP_LOG = Logger.getLogger("com.hazelcast.cp.CPSubsystem");

    private ClusterBoot() {
    }

    /** Joins (or founds) the cluster {@code config} describes; fails with a ConfigException for a bad address. */
    public static Future<Booted> start(ClusterConfig config, VertxOptions options) {
        ClusterConfig checked;
        String ip;
        try {
            checked = config.validated();
            if (!checked.enabled()) {
                throw new ConfigException("not a cluster member: no cluster.listen");
            }
            ip = literal(checked.listen().host());
        } catch (ConfigException e) {
            return Future.failedFuture(e);
        }
        EventBusOptions bus;
        try {
            bus = checked.tls().apply(new EventBusOptions().setHost(ip).setPort(checked.effectiveEventBusPort())
                    .setClusterPublicHost(ip).setClusterPublicPort(checked.effectiveEventBusPort()));
        } catch (ConfigException e) {
            return Future.failedFuture(e);
        }
        HazelcastClusterManager manager = new HazelcastClusterManager(hazelcastConfig(checked, ip));
        return Vertx.builder().with(new VertxOptions(options).setEventBusOptions(bus)).withClusterManager(manager)
                .buildClustered().map(vertx -> new Booted(vertx, manager))
                .recover(e -> Future.failedFuture(new IllegalStateException("cannot join the cluster as "
                        + ip + ":" + checked.listen().port() + " (member port) with the event bus on " + ip + ":"
                        + checked.effectiveEventBusPort() + ": " + e.getMessage(), e)));
    }

    /** The Hazelcast member configuration: Vert.x's own maps ({@link ConfigUtil#loadConfig()}) plus our network. */
    static Config hazelcastConfig(ClusterConfig config, String ip) {
        HAZELCAST_LOG.setLevel(Level.WARNING);
        CP_LOG.setLevel(Level.SEVERE);
        Config hz = ConfigUtil.loadConfig();
        hz.setClusterName(config.name());
        hz.setProperty("hazelcast.logging.type", "jdk");
        hz.setProperty("hazelcast.phone.home.enabled", "false");
        // the collector leaves the cluster itself after draining its agents on SIGTERM (Vert.x close)
        hz.setProperty("hazelcast.shutdownhook.enabled", "false");
        hz.setProperty("hazelcast.socket.bind.any", "false");
        // a replica killed outright must be noticed within seconds: its agents' entries in the node directory are
        // purged then, and the alerting must not wait the default 60 s for it
        hz.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        hz.setProperty("hazelcast.max.no.heartbeat.seconds", "5");
        // members started at the same moment may found two clusters: merge them after seconds, not the default 5 min
        hz.setProperty("hazelcast.merge.first.run.delay.seconds", "5");
        hz.setProperty("hazelcast.merge.next.run.delay.seconds", "5");
        NetworkConfig network = hz.getNetworkConfig();
        network.setPort(config.listen().port()).setPortAutoIncrement(false);
        network.getInterfaces().setEnabled(true).addInterface(ip);
        network.setPublicAddress(ip + ":" + config.listen().port());
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        if (config.kubernetesServiceDns() != null) {
            join.getKubernetesConfig().setEnabled(true)
                    .setProperty("service-dns", config.kubernetesServiceDns())
                    .setProperty("service-port", Integer.toString(config.listen().port()));
        } else {
            join.getTcpIpConfig().setEnabled(true).setMembers(config.members());
        }
        return hz;
    }

    /** Hazelcast's interface list takes addresses, not names: the listen host resolved once, at start. */
    private static String literal(String host) {
        try {
            return InetAddress.getByName(host).getHostAddress();
        } catch (UnknownHostException e) {
            throw new ConfigException("cluster.listen: '" + host + "' does not resolve");
        }
    }
}
