package io.rdmamon.cli.daemon;

import io.rdmamon.agent.daemon.AgentDaemon;
import io.rdmamon.agent.daemon.AgentDaemonOptions;
import io.rdmamon.agent.daemon.SourceDurations;
import io.rdmamon.agent.fabric.FabricOptions;
import io.rdmamon.agent.fabric.FabricSink;
import io.rdmamon.agent.fabric.FabricSweeper;
import io.rdmamon.agent.stream.FabricUpdates;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.agent.probe.ProbeSettings;
import io.rdmamon.agent.probe.ProcessPerftestLauncher;
import io.rdmamon.agent.stream.AgentStreamerOptions;
import io.rdmamon.agent.stream.StreamEndpoint;
import io.rdmamon.agent.workload.KubeletPodDirectory;
import io.rdmamon.cli.failure.CliFailure;
import io.rdmamon.cli.node.HostRootOption;
import io.rdmamon.cli.node.PodResourcesOption;
import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.model.Names;
import io.rdmamon.protocol.probe.PerftestTest;
import io.rdmamon.protocol.net.HostPort;
import io.rdmamon.protocol.telemetry.ProcessTelemetry;
import io.vertx.core.Vertx;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.Callable;

@Command(name = "agent",
        description = {"The node daemon: streams this host's RDMA counters to the collector.",
                "Samples sysfs, ethtool and verbs at an interval and streams them over a WebSocket;",
                "with --listen it also serves this node's own /metrics."},
        footer = {"", "Examples:",
                "  rdmamon agent --collector https://collector:9470 --node gpu-017 --token-file /etc/rdmamon/agent.token",
                "  rdmamon agent --listen 0.0.0.0:9471 --node gpu-017      (no collector: local /metrics only)",
                "  rdmamon agent --collector https://collector:9470 --node gpu-017 --allow-probes --perftest /usr/bin/ib_write_bw",
                "  rdmamon agent --collector https://collector:9470 --node gpu-017 --allow-pingmesh",
                "", "Probes: with --allow-probes the collector's operators can start perftest bandwidth probes on this",
                "node (docs/probes-agent.md): one per port, each at most --probe-max-duration, killed with its",
                "process group at its timeout, on cancel or when the collector connection drops.",
                "With --allow-pingmesh the collector runs the pingmesh's latency probes (ib_send_lat) on this node:",
                "a separate consent, because they are continuous low-rate traffic the collector plans, not an",
                "operator's on-demand bandwidth test; up to 4 at once per port, never on a port in a bandwidth probe."})
public final class AgentCommand implements Callable<Integer> {
    private static final Duration MIN_INTERVAL = Duration.ofMillis(100);

    @Option(names = "--collector", paramLabel = "URL[,URL...]",
            description = {"Collector base URL (http(s)://host:port or ws(s)://host:port); the ingest path is found by the agent.",
                    "Several, comma-separated: replicas of one cluster, tried in order; on a lost connection the agent moves to"
                            + " the next and replays what was not acknowledged."})
    String collector;

    @Option(names = "--ack-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            description = {"Samples sent and not acknowledged for this long: the collector counts as lost (a hung replica",
                    "keeps its sockets open) and the agent moves to the next --collector URL, replaying them.",
                    "Default: the longer of 10s and 5 intervals."})
    Duration ackTimeout;

    @Option(names = "--node", required = true, paramLabel = "NAME",
            description = "Node name reported to the collector (the node label), e.g. the Kubernetes node name.")
    String node;

    @Option(names = "--interval", defaultValue = "1s", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Sampling interval (500ms, 1s, 10s). Default: ${DEFAULT-VALUE}.")
    Duration interval;

    @Option(names = "--listen", paramLabel = "HOST:PORT",
            description = "Also serve this node's /metrics here (same metric names as the collector's).")
    String listen;

    @Option(names = "--metrics", paramLabel = "SPEC", description = {"Families /metrics renders: a profile, full (default), standard (what the shipped alerts, rules and dashboards",
                    "query) or minimal (traffic, errors, state, diagnoses), then optional ,+family / ,-family items with",
                    "the names of docs/metrics.md (* matches any characters), e.g. standard,-rdma_gid_info."})
    String metrics;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "File holding the bearer token sent to the collector (first non-comment line).")
    Path tokenFile;

    @Option(names = "--ca-file", paramLabel = "FILE",
            description = "PEM CA certificate(s) to trust for a wss:// or https:// collector, instead of the JVM's.")
    Path caFile;

    @Option(names = "--allow-probes",
            description = "Let the collector start active bandwidth probes (perftest) on this node. Default: off.")
    boolean allowProbes;

    @Option(names = "--allow-pingmesh",
            description = {"Let the collector run the pingmesh's latency probes (perftest ib_send_lat) on this node:",
                    "continuous low-rate traffic the collector plans, a consent separate from --allow-probes (an",
                    "operator's on-demand bandwidth test). Default: off."})
    boolean allowPingmesh;

    @Option(names = "--perftest", paramLabel = "PATH", defaultValue = ProcessPerftestLauncher.DEFAULT_BINARY,
            description = "perftest binary run for bandwidth probes (a path, or a name looked up on PATH). Default: ${DEFAULT-VALUE}.")
    String perftest;

    @Option(names = "--perftest-lat", paramLabel = "PATH",
            description = {"perftest binary run for latency probes (a path, or a name looked up on PATH).",
                    "Default: ib_send_lat beside --perftest when that is a path, else ib_send_lat on PATH."})
    String perftestLat;

    @Option(names = "--probe-max-duration", paramLabel = "DURATION", defaultValue = "120s",
            converter = DurationConverter.class,
            description = "Longest probe (perftest -D; a latency probe's longest run) this node accepts. Default: ${DEFAULT-VALUE}.")
    Duration probeMaxDuration;

    @Option(names = "--gid-refresh", defaultValue = "30s", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Re-read each port's GID table, link attributes, PCIe link speed/width and FEC encoding at most"
                    + " this often (sooner when the port's state changes); a real mlx5 port has 255 GID entries, most of"
                    + " the sampling cost. Default: ${DEFAULT-VALUE}.")
    Duration gidRefresh;

    @Option(names = "--module-refresh", defaultValue = "30s", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Re-read each netdev's transceiver EEPROM (DOM: temperature, lane powers, bias) at most this"
                    + " often; an EEPROM read is several firmware register accesses. Default: ${DEFAULT-VALUE}.")
    Duration moduleRefresh;

    @Option(names = "--qos-refresh", defaultValue = "30s", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Re-read each RoCE port's QoS configuration (DCB, ECN, ToS) and /etc/nccl.conf at most this"
                    + " often (sooner when the port's state changes). Default: ${DEFAULT-VALUE}.")
    Duration qosRefresh;

    @Option(names = "--lldp-refresh", defaultValue = "60s", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Re-read each Ethernet port's LLDP neighbour (<root>/lldp/<if>.json, or lldpctl -f json on /)"
                    + " at most this often (sooner when the port's state changes); cabling changes rarely."
                    + " Default: ${DEFAULT-VALUE}.")
    Duration lldpRefresh;

    @Option(names = "--fabric",
            description = {"Also sweep this host's InfiniBand subnet (docs/fabric.md): every node, link and port "
                    + "counter, read with infiniband-diags over MADs; needs /dev/infiniband/umad* access. Run it on one"
                    + " or two hosts per subnet."})
    boolean fabric;

    @Option(names = "--fabric-interval", defaultValue = "15s", paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "With --fabric: read every port's counters this often. Default: ${DEFAULT-VALUE}.")
    Duration fabricInterval;

    @Option(names = "--fabric-topology-interval", defaultValue = "5m", paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "With --fabric: rediscover the topology this often (and at once when a link went down or a "
                    + "node stopped answering). Default: ${DEFAULT-VALUE}.")
    Duration fabricTopologyInterval;

    @Option(names = "--fabric-ca", paramLabel = "CA",
            description = "With --fabric: the local HCA to sweep from (default: the first active one).")
    String fabricCa;

    @Option(names = "--fabric-port", paramLabel = "PORT",
            description = "With --fabric: its port (default: the first active one).")
    Integer fabricPort;

    @Mixin
    PodResourcesOption podResources;

    @Option(names = "--pod-resources-refresh", defaultValue = "30s", paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "Read --pod-resources and --kubelet-pods this often (the kubelet allows 100 pod-resources calls a"
                    + " second). Default: ${DEFAULT-VALUE}.")
    Duration podResourcesRefresh;

    @Mixin
    HostRootOption hostRoot;

    @Mixin
    LogFormatOption logFormat;

    @Override
    public Integer call() throws Exception {
        logFormat.install();
        if (collector == null && listen == null) {
            throw CliFailure.badInput("give --collector URL, --listen HOST:PORT, or both");
        }
        if (!Names.isNodeName(node)) {
            throw CliFailure.badInput("--node '" + node + "': use " + Names.nodeNameRule());
        }
        if (interval.compareTo(MIN_INTERVAL) < 0) {
            throw CliFailure.badInput("--interval " + interval.toMillis() + "ms: must be at least 100ms");
        }
        requirePositive("--gid-refresh", gidRefresh);
        requirePositive("--module-refresh", moduleRefresh);
        requirePositive("--qos-refresh", qosRefresh);
        requirePositive("--lldp-refresh", lldpRefresh);
        requirePositive("--pod-resources-refresh", podResourcesRefresh);
        FabricOptions fabricOptions = fabricOptions();
        podResources.validate();
        if (ackTimeout != null) {
            requirePositive("--ack-timeout", ackTimeout);
        }
        MetricSelection selection = metricSelection();
        HostReader reader = hostRoot.builder().gidRefresh(gidRefresh).qosRefresh(qosRefresh)
                .moduleRefresh(moduleRefresh).lldpRefresh(lldpRefresh).build();
        ProbeSettings probes = probeSettings(reader.hostRoot());
        AgentStreamerOptions streamer = collector == null ? null : streamerOptions().withProbes(probes);
        HostPort metricsListen = listen == null ? null : listenAddress();
        // every flag checked: from here on a Vert.x runs (the pod-resources refresh is its first user)
        Vertx vertx = ProcessTelemetry.process().vertx(AgentDaemon.vertxOptions());
        HostReader sampled = withPods(vertx, reader);
        SourceDurations.register(ProcessTelemetry.process().meters(), sampled.sourceNames(), sampled::lastSourceDurations);
        AgentDaemonOptions options = AgentDaemonOptions.of(node, interval, () -> sampled.read(node))
                .withMetrics(selection);
        if (metricsListen != null) {
            options = options.withMetricsListen(metricsListen);
        }
        if (streamer != null) {
            options = options.withStreamer(streamer);
        }
        AgentDaemon daemon = new AgentDaemon(options);
        try {
            vertx.deployVerticle(daemon).await();
        } catch (Exception e) {
            vertx.close();
            throw CliFailure.runtime("agent failed to start: " + e.getMessage(), e);
        }
        if (fabricOptions != null) {
            FabricSweepLog log = new FabricSweepLog();
            FabricSink sink = daemon.streamer() == null ? log : log.andThen(new FabricUpdates(daemon.streamer()));
            vertx.deployVerticle(FabricSweeper.withDiags(node, fabricOptions, sink)).await();
            System.err.printf("rdmamon agent: sweeping the InfiniBand fabric, counters every %s, topology every %s%n",
                    fabricInterval, fabricTopologyInterval);
        }
        System.err.printf("rdmamon agent: node %s, host root %s, every %s%s%s%n", node, hostRoot.path(),
                interval, collector == null ? "" : ", streaming to " + collector, listen == null ? ""
                        : ", metrics at http://" + listen.replaceFirst(":\\d+$", "") + ":" + daemon.metrics().port() + "/metrics");
        if (probes.allows(PerftestTest.WRITE_BW)) {
            System.err.printf("rdmamon agent: probes allowed (perftest %s, at most %ss each)%n", perftest,
                    probes.maxDuration().toSeconds());
        }
        if (probes.allows(PerftestTest.SEND_LAT)) {
            System.err.printf("rdmamon agent: pingmesh latency probes allowed (perftest %s)%n", latencyBinary());
        }
        return RunUntilStopped.await(vertx, () -> { });
    }

    /** The fabric sweep's settings with --fabric; null without. */
    private FabricOptions fabricOptions() {
        if (!fabric) {
            return null;
        }
        requirePositive("--fabric-interval", fabricInterval);
        requirePositive("--fabric-topology-interval", fabricTopologyInterval);
        if (fabricPort != null && (fabricPort < 1 || fabricPort > 254)) {
            throw CliFailure.badInput("--fabric-port " + fabricPort + ": must be 1..254");
        }
        return new FabricOptions(fabricCa, fabricPort, FabricOptions.DEFAULT_TOOL_TIMEOUT, fabricInterval,
                fabricTopologyInterval, java.util.Map.of());
    }

    /** The reader naming the pods behind QPs from the kubelet's pod-resources, refreshed on {@code vertx}. */
    private HostReader withPods(Vertx vertx, HostReader reader) {
        KubeletPodDirectory pods = podResources.open(vertx, reader);
        if (pods == null) {
            return reader;
        }
        pods.start(podResourcesRefresh);
        System.err.printf("rdmamon agent: pods from %s, every %s%n", podResources.describe(), podResourcesRefresh);
        return reader.withPodDirectory(pods);
    }

    private ProbeSettings probeSettings(Path root) {
        if (probeMaxDuration.compareTo(Duration.ofSeconds(1)) < 0) {
            throw CliFailure.badInput("--probe-max-duration " + probeMaxDuration.toMillis() + "ms: must be at least 1s");
        }
        Set<PerftestTest> allowed = EnumSet.noneOf(PerftestTest.class);
        if (allowProbes) {
            allowed.add(PerftestTest.WRITE_BW);
        }
        if (allowPingmesh) {
            allowed.add(PerftestTest.SEND_LAT);
        }
        if (allowed.isEmpty()) {
            return ProbeSettings.disabled();
        }
        if (collector == null) {
            throw CliFailure.badInput(ProbeSettings.flagFor(allowed.iterator().next())
                    + " needs --collector: probes are started by the collector");
        }
        if (allowProbes) {
            requireBinary("--perftest", perftest);
        }
        if (allowPingmesh) {
            requireBinary(perftestLat == null ? "--perftest-lat (default: beside --perftest)" : "--perftest-lat",
                    latencyBinary());
        }
        return new ProbeSettings(allowed, new ProcessPerftestLauncher(perftest, latencyBinary()), root,
                probeMaxDuration);
    }

    private String latencyBinary() {
        return perftestLat != null ? perftestLat : ProcessPerftestLauncher.latencyBinaryBeside(perftest);
    }

    private static void requireBinary(String flag, String binary) {
        try {
            ProcessPerftestLauncher.resolve(binary);
        } catch (IOException e) {
            throw CliFailure.badInput(flag + ": " + e.getMessage());
        }
    }

    private AgentStreamerOptions streamerOptions() {
        try {
            StreamEndpoint.list(collector);
        } catch (IllegalArgumentException e) {
            throw CliFailure.badInput("--collector: " + e.getMessage());
        }
        AgentStreamerOptions options = AgentStreamerOptions.of(collector, node).withInterval(interval)
                .withAckTimeout(ackTimeout);
        if (tokenFile != null) {
            try {
                options = options.withToken(AgentStreamerOptions.readTokenFile(tokenFile));
            } catch (RuntimeException e) {
                throw CliFailure.badInput("--token-file " + tokenFile + ": " + e.getMessage());
            }
        }
        if (caFile != null) {
            try {
                AgentStreamerOptions.checkTrustCaFile(caFile);
            } catch (IllegalArgumentException e) {
                throw CliFailure.badInput("--ca-file " + e.getMessage());
            }
            options = options.withTrustCaFile(caFile);
        }
        return options;
    }

    private MetricSelection metricSelection() {
        if (metrics != null && listen == null) {
            throw CliFailure.badInput("--metrics selects what this node's /metrics serves: it needs --listen");
        }
        try {
            return MetricSelection.parse(metrics);
        } catch (IllegalArgumentException e) {
            throw CliFailure.badInput("--metrics: " + e.getMessage());
        }
    }

    private HostPort listenAddress() {
        try {
            return HostPort.parse(listen, "--listen");
        } catch (IllegalArgumentException e) {
            throw CliFailure.badInput(e.getMessage());
        }
    }

    private static void requirePositive(String flag, Duration value) {
        if (value.isZero() || value.isNegative()) {
            throw CliFailure.badInput(flag + " " + value.toMillis() + "ms: must be positive");
        }
    }
}
