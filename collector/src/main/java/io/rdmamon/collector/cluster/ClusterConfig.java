package io.rdmamon.collector.cluster;

import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.collector.config.ListenAddress;
import io.rdmamon.protocol.json.StrictJson;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How this collector joins a cluster of replicas (the {@code "cluster"} section of the config file, docs/collector.md
 * "Cluster"; docs/architecture.md "Cluster"). {@link #NONE} = a lone collector, as without any cluster setting.
 *
 * @param listen               the member port's address (JGroups): it binds exactly this host (never every interface)
 *                             on exactly this port; null = not clustered
 * @param members              the TCP-IP join list ({@code HOST:PORT} of the members, this one may be among them)
 * @param kubernetesServiceDns the DNS name of a headless Service whose addresses are the members (JGroups' DNS_PING),
 *                             instead of {@code members}
 * @param name                 the cluster's name: members of another name never join (two fleets on one network)
 * @param eventBusPort         the clustered event bus's port on the listen host; 0 = the member port + 1
 * @param tls                  mutual TLS on the member port and the event bus ({@link ClusterTls#NONE}: plain TCP)
 * @param insecure             allow plain TCP between replicas on a non-loopback address ({@code --insecure-cluster}):
 *                             then anyone who reaches the cluster ports can join
 */
public record ClusterConfig(ListenAddress listen, List<String> members, String kubernetesServiceDns, String name,
                            int eventBusPort, ClusterTls tls, boolean insecure, Duration handover) {
    public static final String DEFAULT_NAME = "rdmamon";
    /**
     * How long a replica shutting down keeps serving the nodes whose streams it closed (1012) until other replicas
     * have taken each over: an agent moves at once, so this only bounds a survivor slow to admit it.
     */
    public static final Duration DEFAULT_HANDOVER = Duration.ofSeconds(8);
    /** Inside the 20 s the command gives Vert.x to close on SIGTERM, with time left to leave the cluster. */
    private static final Duration MAX_HANDOVER = Duration.ofSeconds(15);
    public static final ClusterConfig NONE = new ClusterConfig(null, List.of(), null, DEFAULT_NAME, 0);
    private static final Set<String> KEYS = Set.of("listen", "members", "kubernetesServiceDns", "name", "eventBusPort",
            "tls", "insecure", "handover");

    /** Without event-bus TLS. */
    public ClusterConfig(ListenAddress listen, List<String> members, String kubernetesServiceDns, String name,
                         int eventBusPort) {
        this(listen, members, kubernetesServiceDns, name, eventBusPort, ClusterTls.NONE, false, DEFAULT_HANDOVER);
    }

    /** Not insecure: a non-loopback listen address needs {@code tls}. */
    public ClusterConfig(ListenAddress listen, List<String> members, String kubernetesServiceDns, String name,
                         int eventBusPort, ClusterTls tls) {
        this(listen, members, kubernetesServiceDns, name, eventBusPort, tls, false, DEFAULT_HANDOVER);
    }

    public ClusterConfig {
        members = List.copyOf(members);
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(handover, "handover");
        if (handover.isNegative() || handover.compareTo(MAX_HANDOVER) > 0) {
            throw new ConfigException("cluster.handover must be 0s to " + MAX_HANDOVER.toSeconds() + "s (0s: no"
                    + " handover), got " + handover.toMillis() + " ms");
        }
        if (name.isBlank()) {
            throw new ConfigException("cluster.name must not be empty");
        }
        if (eventBusPort < 0 || eventBusPort > 65535) {
            throw new ConfigException("cluster.eventBusPort out of range: " + eventBusPort);
        }
        members.forEach(member -> checkMember(member, "cluster.members"));
        if (listen != null && (listen.port() == 0 || listen.port() == 65535 && eventBusPort == 0)) {
            throw new ConfigException("cluster.listen needs a fixed port below 65535 (the members join each other"
                    + " on it, and the event bus takes the next one): " + listen.host() + ":" + listen.port());
        }
    }

    /**
     * Checks the parts together, once every layer (file, environment, flags) is applied: a layer may set the
     * listen address and a later one the members.
     *
     * @throws ConfigException naming what is missing or contradictory
     */
    public ClusterConfig validated() {
        if (listen == null && (!members.isEmpty() || kubernetesServiceDns != null)) {
            throw new ConfigException("cluster members are set but not cluster.listen (--cluster-listen HOST:PORT):"
                    + " a replica must say which interface and port the cluster traffic binds");
        }
        if (listen != null && members.isEmpty() && kubernetesServiceDns == null) {
            throw new ConfigException("cluster.listen is set but neither cluster.members (--cluster-members) nor"
                    + " cluster.kubernetesServiceDns: the replica would not know whom to join");
        }
        if (!members.isEmpty() && kubernetesServiceDns != null) {
            throw new ConfigException("cluster.members and cluster.kubernetesServiceDns are both set: choose one"
                    + " way to find the members");
        }
        if (listen != null && !tls.enabled() && !insecure && !loopback(listen.host())) {
            throw new ConfigException("refusing to cluster on " + listen.host() + ":" + listen.port() + " without"
                    + " cluster.tls: anyone who reaches the member port could join the cluster, read the fleet and"
                    + " disturb the node directory; set cluster.tls.{certFile,keyFile,caFile} (RDMAMON_CLUSTER_TLS_*) or pass"
                    + " --insecure-cluster (RDMAMON_CLUSTER_INSECURE=true) if only the replicas can reach it");
        }
        return this;
    }

    public boolean enabled() {
        return listen != null;
    }

    /** The event bus's port: {@link #eventBusPort} when set, else the member port + 1. */
    public int effectiveEventBusPort() {
        return eventBusPort > 0 ? eventBusPort : listen.port() + 1;
    }

    /** Whether {@code host} is a loopback address; a name that does not resolve is not (it is named at start). */
    private static boolean loopback(String host) {
        try {
            return java.net.InetAddress.getByName(host).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /** {@code --insecure-cluster}. */
    public ClusterConfig withInsecure(boolean value) {
        return new ClusterConfig(listen, members, kubernetesServiceDns, name, eventBusPort, tls, value, handover);
    }

    /** {@code --cluster-listen HOST:PORT}. */
    public ClusterConfig withListen(String hostPort, String origin) {
        return new ClusterConfig(ListenAddress.parse(hostPort, origin), members, kubernetesServiceDns, name, eventBusPort,
                tls, insecure, handover);
    }

    /** {@code --cluster-members HOST:PORT,HOST:PORT,...}. */
    public ClusterConfig withMembers(String commaList, String origin) {
        return new ClusterConfig(listen, splitMembers(commaList, origin), kubernetesServiceDns, name, eventBusPort, tls,
                insecure, handover);
    }

    /** The {@code "cluster"} section over these values; relative TLS file names resolve against {@code baseDir}. */
    public ClusterConfig overlay(StrictJson section, Path baseDir) {
        section.requireKnownKeys(KEYS);
        ListenAddress address = section.has("listen") ? ListenAddress.parse(section.string("listen"), section.path("listen"))
                : listen;
        List<String> list = section.has("members") ? section.strings("members") : members;
        return new ClusterConfig(address, list,
                section.has("kubernetesServiceDns") ? section.string("kubernetesServiceDns") : kubernetesServiceDns,
                section.has("name") ? section.string("name") : name, section.integer("eventBusPort", eventBusPort),
                section.has("tls") ? ClusterTls.fromJson(section.object("tls"), baseDir) : tls,
                section.bool("insecure", insecure),
                section.duration("handover", handover));
    }

    /**
     * {@code RDMAMON_CLUSTER_LISTEN}, {@code _MEMBERS} (comma list), {@code _KUBERNETES_SERVICE_DNS}, {@code _NAME},
     * {@code _TLS_CERT_FILE}, {@code _TLS_KEY_FILE}, {@code _TLS_CA_FILE}, {@code _INSECURE} ({@code true}).
     */
    public ClusterConfig overlayEnv(Map<String, String> env) {
        ClusterConfig c = this;
        if (env.containsKey("RDMAMON_CLUSTER_LISTEN")) {
            c = c.withListen(env.get("RDMAMON_CLUSTER_LISTEN"), "RDMAMON_CLUSTER_LISTEN");
        }
        if (env.containsKey("RDMAMON_CLUSTER_MEMBERS")) {
            c = c.withMembers(env.get("RDMAMON_CLUSTER_MEMBERS"), "RDMAMON_CLUSTER_MEMBERS");
        }
        String dns = env.getOrDefault("RDMAMON_CLUSTER_KUBERNETES_SERVICE_DNS", c.kubernetesServiceDns);
        String clusterName = env.getOrDefault("RDMAMON_CLUSTER_NAME", c.name);
        boolean insecureEnv = c.insecure;
        String insecureValue = env.get("RDMAMON_CLUSTER_INSECURE");
        if (insecureValue != null) {
            if (!insecureValue.equalsIgnoreCase("true") && !insecureValue.equalsIgnoreCase("false")) {
                throw new ConfigException("RDMAMON_CLUSTER_INSECURE must be true or false, got '" + insecureValue + "'");
            }
            insecureEnv = Boolean.parseBoolean(insecureValue);
        }
        return new ClusterConfig(c.listen, c.members, dns == null || dns.isBlank() ? null : dns, clusterName,
                c.eventBusPort, c.tls.overlayEnv(env), insecureEnv, c.handover);
    }

    private static List<String> splitMembers(String commaList, String origin) {
        List<String> list = new ArrayList<>();
        for (String part : commaList.split(",", -1)) {
            String member = part.trim();
            if (member.isEmpty()) {
                throw new ConfigException(origin + ": empty member in '" + commaList + "'");
            }
            list.add(checkMember(member, origin));
        }
        return list;
    }

    private static String checkMember(String member, String origin) {
        if (ListenAddress.parse(member, origin).port() == 0) {
            throw new ConfigException(origin + ": '" + member + "' needs a port (the members' --cluster-listen port)");
        }
        return member;
    }
}
