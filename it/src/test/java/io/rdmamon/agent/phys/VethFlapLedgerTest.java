package io.rdmamon.agent.phys;

import io.rdmamon.agent.ethtool.EthtoolStatsSource;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.flaps.FlapLedger;
import io.rdmamon.collector.flaps.PortFlaps;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.store.NodeStore;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbPort;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real carrier flap seen end to end: a veth pair in a network namespace this test creates, flapped k times by
 * {@code ip link set down/up}; the agent's {@link HostReader} reads the kernel's {@code carrier_*} files of the veth
 * after each flap, and the collector's flap ledger holds exactly k flaps, each stamped with the sample that followed
 * it.
 *
 * <p>How the reader sees the namespace's netdev: sysfs shows the network namespace of the process that mounted it,
 * so the test mounts a sysfs from inside the namespace ({@code nsenter --net=... mount -t sysfs}, which joins only
 * the network namespace and so leaves the mount visible to this JVM) and gives the reader a host root whose
 * {@code sys/class/net} is that mount's {@code class/net}, next to a {@code sys/class/infiniband} tree of one RoCE
 * device (the machine has no RDMA hardware) whose GID names the veth. Everything the reader reads of the netdev is
 * the kernel's own file; the reader code is the agent's, unchanged.
 */
class VethFlapLedgerTest {
    private static final int FLAPS = 4;
    private static String namespace;
    private static Path dir;
    private static Path sysfsMount;
    private static boolean mounted;

    @BeforeAll
    static void createNamespaceAndMountItsSysfs() throws Exception {
        Assumptions.assumeTrue(available("ip", "-V"), "iproute2 'ip' is not installed");
        Assumptions.assumeTrue(available("nsenter", "--version"), "util-linux 'nsenter' is not installed");
        namespace = "rdmamon-flap" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000, 0xfffff));
        Assumptions.assumeTrue(run("ip", "netns", "add", namespace).exit == 0,
                "cannot create a network namespace (needs root): ip netns add " + namespace);
        check(run("ip", "-n", namespace, "link", "add", "fl0", "type", "veth", "peer", "name", "fl1"));
        check(run("ip", "-n", namespace, "link", "set", "fl1", "up"));
        check(run("ip", "-n", namespace, "link", "set", "fl0", "up"));
        dir = Files.createTempDirectory("rdmamon-flap");
        sysfsMount = Files.createDirectories(dir.resolve("netns-sys"));
        check(run("nsenter", "--net=/run/netns/" + namespace, "mount", "-t", "sysfs", "sysfs", sysfsMount.toString()));
        mounted = true;
    }

    @AfterAll
    static void removeNamespace() throws Exception {
        if (mounted) {
            check(run("umount", sysfsMount.toString()));
            mounted = false;
        }
        if (namespace != null) {
            run("ip", "netns", "delete", namespace);
        }
        if (dir != null && !isMounted()) {
            try (var paths = Files.walk(dir)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path); // a symlink is deleted, not followed
                }
            }
        }
    }

    private static boolean isMounted() throws IOException {
        return mounted && Files.readString(Path.of("/proc/self/mounts")).contains(" " + sysfsMount + " ");
    }

    @Test
    void eachDownUpOfTheVethIsOneFlapInTheLedgerAtTheSampleAfterIt() throws Exception {
        Path root = hostRoot();
        EthtoolStatsSource noEthtool = EthtoolStatsSource.unavailable("not read by this test");
        HostReader reader = HostReader.builder(root).ethtool(noEthtool).build();
        NodeStore store = new NodeStore(System::currentTimeMillis, 3, Long.MAX_VALUE / 2, 10, 1000);
        DiagnosisEngine engine = new DiagnosisEngine(DiagnosisConfig.defaults(), store, System::currentTimeMillis);
        store.connect("veth-host", "test", 1000);

        HostSample first = deliver(reader, store, engine);
        IbPort before = first.devices().get(0).ports().get(0);
        assertEquals("fl0", before.netdev());
        List<long[]> flapWindows = new ArrayList<>();
        for (int flap = 0; flap < FLAPS; flap++) {
            long start = System.currentTimeMillis();
            check(run("ip", "-n", namespace, "link", "set", "fl0", "down"));
            check(run("ip", "-n", namespace, "link", "set", "fl0", "up"));
            Thread.sleep(5); // a sample stamped after the flap, on a millisecond clock
            HostSample sample = deliver(reader, store, engine);
            flapWindows.add(new long[]{start, sample.timestampMillis()});
        }
        IbPort after = store.lastSamples("veth-host").orElseThrow().last().devices().get(0).ports().get(0);

        assertEquals(FLAPS, after.netdevCounters().get("carrier_down_count") - before.netdevCounters().get("carrier_down_count"));
        assertEquals(FLAPS, after.netdevCounters().get("carrier_up_count") - before.netdevCounters().get("carrier_up_count"));
        assertEquals(2 * FLAPS, after.netdevCounters().get("carrier_changes") - before.netdevCounters().get("carrier_changes"));
        List<PortFlaps> ledger = engine.flapLedger("veth-host");
        assertEquals(1, ledger.size());
        List<FlapLedger.Entry> entries = ledger.get(0).entries();
        assertEquals(FLAPS, entries.size(), entries.toString());
        for (int i = 0; i < FLAPS; i++) {
            FlapLedger.Entry entry = entries.get(i);
            assertEquals(1, entry.flaps(), entry.toString());
            assertEquals("fl0", entry.netdev());
            assertTrue(entry.timestampMillis() > flapWindows.get(i)[0] && entry.timestampMillis() == flapWindows.get(i)[1],
                    "flap " + i + " is stamped with the sample after it: " + entry);
        }
        // link_flapping rose at the third flap within 10 minutes (its default warning threshold), with that evidence
        assertTrue(engine.snapshot().diagnoses().stream().anyMatch(d -> d.rule() == Rule.LINK_FLAPPING
                && d.severity().id().equals("warning")
                && d.evidence().startsWith("the link (netdev fl0) went down 3 time(s) in the last 10 min")),
                engine.snapshot().diagnoses().toString());
    }

    /** One RoCE device whose GID 0 names the veth, and the namespace's {@code class/net} as {@code sys/class/net}. */
    private static Path hostRoot() throws IOException {
        Path root = dir.resolve("root");
        Path device = Files.createDirectories(root.resolve("sys/class/infiniband/rocevf0"));
        Files.writeString(device.resolve("fw_ver"), "0.0.0\n");
        Path port = Files.createDirectories(device.resolve("ports/1"));
        Files.writeString(port.resolve("state"), "4: ACTIVE\n");
        Files.writeString(port.resolve("phys_state"), "5: LinkUp\n");
        Files.writeString(port.resolve("rate"), "10 Gb/sec (1X QDR)\n");
        Files.writeString(port.resolve("link_layer"), "Ethernet\n");
        Files.createDirectories(port.resolve("gids"));
        Files.writeString(port.resolve("gids/0"), "fe80:0000:0000:0000:0000:00ff:fe00:0001\n");
        Files.createDirectories(port.resolve("gid_attrs/ndevs"));
        Files.writeString(port.resolve("gid_attrs/ndevs/0"), "fl0\n");
        Files.createDirectories(port.resolve("gid_attrs/types"));
        Files.writeString(port.resolve("gid_attrs/types/0"), "RoCE v2\n");
        Files.createSymbolicLink(root.resolve("sys/class/net"), sysfsMount.resolve("class/net"));
        return root;
    }

    private static HostSample deliver(HostReader reader, NodeStore store, DiagnosisEngine engine) {
        HostSample sample = reader.read("veth-host");
        assertEquals(NodeStore.Ingest.APPLIED, store.accept(sample));
        engine.accept(sample);
        return sample;
    }

    private record Result(int exit, String output) {
    }

    private static Result run(String... argv) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return new Result(-1, String.join(" ", argv) + ": did not finish in 30 s");
        }
        return new Result(process.exitValue(), String.join(" ", argv) + ": " + output.strip());
    }

    private static void check(Result result) {
        assertEquals(0, result.exit, result.output);
    }

    private static boolean available(String... argv) {
        try {
            return run(argv).exit == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
