package io.rdmamon.cli.daemon;

import io.rdmamon.cli.CliRun;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input to the daemon commands exits 2 with one line naming the flag, before anything starts. */
class DaemonCommandsTest {

    @ParameterizedTest
    @ValueSource(strings = {"agent", "collector", "demo"})
    void helpExitsZero(String subcommand) {
        CliRun run = CliRun.of(subcommand, "--help");
        assertEquals(0, run.exitCode(), run::toString);
        assertTrue(run.out().startsWith("Usage: rdmamon " + subcommand), run::toString);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "agent --node n1                                              | give --collector URL, --listen HOST:PORT, or both",
            "agent --node n1 --collector ftp://x:1                         | --collector: collector URL 'ftp://x:1'",
            "agent --node bad/name --listen 127.0.0.1:0                    | --node 'bad/name'",
            "agent --node n1 --listen 127.0.0.1:0 --interval 10ms          | --interval 10ms: must be at least 100ms",
            "agent --node n1 --listen 127.0.0.1:0 --interval x             | Invalid value for option '--interval': duration: expected a duration like 500ms",
            "fabric --timeout=x                                            | Invalid value for option '--timeout': expected a whole number of milliseconds, got 'x'",
            "fabric --timeout 0                                            | Invalid value for option '--timeout': 0: must be positive",
            "agent --node n1 --listen nonsense                             | --listen: expected HOST:PORT, got 'nonsense'",
            "agent --node n1 --listen 127.0.0.1:0 --host-root /nonexistent/r | --host-root /nonexistent/r: no such directory",
            "agent --node n1 --listen 127.0.0.1:0 --allow-probes          | --allow-probes needs --collector",
            "agent --node n1 --collector http://127.0.0.1:1 --allow-probes --perftest /nonexistent/ib_write_bw | --perftest: perftest binary /nonexistent/ib_write_bw is not an executable file",
            "agent --node n1 --collector http://127.0.0.1:1 --allow-probes --perftest no-such-perftest | --perftest: perftest binary no-such-perftest not found on PATH",
            "agent --node n1 --listen 127.0.0.1:0 --allow-pingmesh        | --allow-pingmesh needs --collector",
            "agent --node n1 --collector http://127.0.0.1:1 --allow-pingmesh --perftest /nonexistent/ib_write_bw | --perftest-lat (default: beside --perftest): perftest binary /nonexistent/ib_send_lat is not an executable file",
            "agent --node n1 --collector http://127.0.0.1:1 --allow-pingmesh --perftest-lat no-such-lat | --perftest-lat: perftest binary no-such-lat not found on PATH",
            "agent --node n1 --collector http://127.0.0.1:1 --probe-max-duration 500ms | --probe-max-duration 500ms: must be at least 1s",
            "agent --node n1 --collector http://127.0.0.1:1 --ack-timeout 0s | --ack-timeout 0ms: must be positive",
            "agent --node n1 --listen 127.0.0.1:0 --kubelet-pods ftp://k/pods | --kubelet-pods 'ftp://k/pods': give http://HOST:PORT/pods",
            "agent --node n1 --listen 127.0.0.1:0 --kubelet-pods http://[bad | --kubelet-pods 'http://[bad':",
            "agent --node n1 --listen 127.0.0.1:0 --pod-resources-refresh 0s | --pod-resources-refresh 0ms: must be positive",
            "agent --node n1 --listen 127.0.0.1:0 --metrics everything     | --metrics: unknown metrics profile 'everything' (known: full, standard, minimal",
            "agent --node n1 --listen 127.0.0.1:0 --metrics standard,-rdma_gids_info | --metrics: unknown metric family 'rdma_gids_info' (docs/metrics.md); known: jvm_gc_pause_seconds",
            "agent --node n1 --collector http://127.0.0.1:1 --metrics minimal | --metrics selects what this node's /metrics serves: it needs --listen",
            "collector --listen 127.0.0.1:0 --metrics minimal,rdma_gid_info | --metrics: metrics item 'rdma_gid_info' must be +family or -family",
            "collector --listen 127.0.0.1:0 --metrics standard,+rdma_nope   | --metrics: unknown metric family 'rdma_nope'",
            "demo --metrics tiny                                           | --metrics: unknown metrics profile 'tiny'",
            "collector --listen 127.0.0.1:70000                            | --listen: port 70000 out of range",
            "collector --config /nonexistent/c.json                        | --config /nonexistent/c.json: no such file",
            "collector --listen 192.0.2.10:9470                            | refusing to listen on 192.0.2.10 without tokens",
            "collector --cluster-members 127.0.0.1:5701                    | cluster members are set but not cluster.listen",
            "collector --cluster-listen 127.0.0.1:5701                     | neither cluster.members (--cluster-members) nor",
            "collector --cluster-listen 127.0.0.1 --cluster-members 127.0.0.1:5701 | --cluster-listen",
            "collector --cluster-listen 127.0.0.1:5701 --cluster-members 127.0.0.1 | --cluster-members",
            "collector --listen 127.0.0.1:0 --tls-cert /nonexistent/tls.crt | TLS needs both a certificate and a key: certificate file /nonexistent/tls.crt given but no key",
            "collector --listen 127.0.0.1:0 --tls-cert /nonexistent/tls.crt --tls-key /nonexistent/tls.key | TLS certificate file /nonexistent/tls.crt: cannot read: NoSuchFileException",
            "agent --node n1 --collector https://127.0.0.1:1 --ca-file /nonexistent/ca.pem | --ca-file /nonexistent/ca.pem: cannot read CA file: NoSuchFileException",
            "agent --node n1 --collector https://127.0.0.1:1 --ca-file pom.xml | --ca-file pom.xml: not a PEM certificate",
            "demo --scenario nope                                          | --scenario: unknown scenario 'nope'",
            "demo --scenario tor-uplink-loss --nodes 6                     | scenario 'tor-uplink-loss' needs at least 6 RoCE nodes (3 leaves of 2), but a fleet of 6 node(s) has 4",
            "demo --nodes 0                                                | --nodes 0: must be 1..",
            "demo --nodes 1001                                             | simulated nodes (",
            "demo --lossless-priority 9                                    | --lossless-priority 9: must be 0..7"})
    void badInputExitsTwoNamingTheCulprit(String args, String expected) {
        CliRun run = CliRun.of(args.strip().split(" +"));
        assertEquals(2, run.exitCode(), run::toString);
        assertTrue(run.err().startsWith("rdmamon: "), run::toString);
        assertTrue(run.err().contains(expected), () -> "expected '" + expected + "' in: " + run);
        // an exception's class name is no message, save where the row names the exception on purpose
        assertFalse(!expected.contains("Exception") && run.err().contains("Exception"), () -> "a class name in: " + run);
    }

    @org.junit.jupiter.api.Test
    void agentHelpNamesBothConsentsAndWhyTheyAreSeparate() {
        CliRun run = CliRun.of("agent", "--help");
        assertEquals(0, run.exitCode(), run::toString);
        for (String expected : new String[]{"--allow-probes", "--allow-pingmesh", "--perftest-lat",
                "continuous low-rate traffic the collector plans"}) {
            assertTrue(run.out().contains(expected), () -> "expected '" + expected + "' in: " + run);
        }
    }

    /**
     * {@code demo --nodes} beyond what this machine runs (1000 on a 2-core host registered 23 nodes in 60 s at 3 GB
     * RSS): exit 2 with one line naming the maximum and why, before a tree is written.
     */
    @org.junit.jupiter.api.Test
    void demoRefusesMoreNodesThanThisMachineRunsNamingTheMaximum() {
        DemoCommand.NodeBound bound = DemoCommand.maxNodes(Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory());
        CliRun run = CliRun.of("demo", "--nodes", String.valueOf(bound.max() + 1), "--listen", "127.0.0.1:0");
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals(1, run.errLines().length, run::toString);
        assertEquals("rdmamon: --nodes " + (bound.max() + 1) + ": this machine runs at most " + bound.max()
                + " simulated nodes (" + bound.why() + "; docs/performance.md, \"Demo fleet size\")", run.errLines()[0]);
        assertEquals("", run.out(), run::toString);
    }

    /** The bound: 50 nodes per core, the heap at 4 MiB a node beyond 64 MiB, the simulator's 1000. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "2  | 8192 | 100  | 2 cores x 50 nodes per core",
            "1  | 8192 | 50   | 1 core x 50 nodes per core",
            "64 | 8192 | 1000 | the simulator's limit",
            "8  | 256  | 48   | a 256 MiB heap at 4 MiB per node; a larger -Xmx in JAVA_OPTS allows more",
            "8  | 64   | 1    | a 64 MiB heap at 4 MiB per node; a larger -Xmx in JAVA_OPTS allows more"})
    void theNodeBound(int cores, long heapMiB, int max, String why) {
        assertEquals(new DemoCommand.NodeBound(max, why), DemoCommand.maxNodes(cores, heapMiB << 20));
    }

    /** An unknown --log-format: exit 2 with one line, before the daemon installs anything or starts. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "collector --log-format bogus",
            "agent --node n1 --listen 127.0.0.1:0 --log-format bogus",
            "demo --log-format bogus",
            "collector --log-format="})
    void anUnknownLogFormatExitsTwoWithOneLine(String args) {
        CliRun run = CliRun.of(args.strip().split(" +"));
        assertEquals(2, run.exitCode(), run::toString);
        assertEquals(1, run.errLines().length, run::toString);
        assertTrue(run.err().startsWith("rdmamon: --log-format '"), run::toString);
        assertTrue(run.err().strip().endsWith("': use text or json"), run::toString);
        assertEquals("", run.out(), run::toString);
    }
}
