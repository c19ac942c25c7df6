package io.rdmamon.lab;

import io.rdmamon.protocol.testing.Slow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * rdmamon against rdma-core on a real kernel: one Soft-RoCE VM (docs/lab.md). What rdmamon reads through sysfs,
 * libibverbs and its readers must equal what {@code ibv_devinfo -v}, {@code rdma link}, {@code rdma statistic} and
 * the sysfs files themselves say, before and after real {@code ib_write_bw} traffic; {@code rdmamon workloads} must
 * attribute real QPs as {@code rdma resource show qp} lists them, one process in a kubelet-like cgroup to its pod.
 */
@Slow
// its VM of two vCPUs keeps both cores busy: beside one lighter IT, not beside the soak or the failover runs
@ResourceLock(Slow.CORES)
@Order(3) // the longest ITs start first (docs/testing.md)
// generous: its quiet run takes 5 min, but TCG slows to half speed and less on a machine shared with other builds
@Timeout(value = 16, unit = java.util.concurrent.TimeUnit.MINUTES)
class SoftRoceAgreementIT {
    private static final Path WORK = Path.of("target", "lab-agreement").toAbsolutePath();
    private static final String POD_UID = "0f4b2c8e-5d1a-4c3b-9e7f-123456789abc";
    private static final String CONTAINER_ID = "4a1f0c9e8d7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f";
    /**
     * Waits in the guest, up to 60 s, until the perftest server listens on its default port (18515): a client started
     * before fails to connect, and a fixed pause is either wasted or, under a loaded TCG, too short.
     */
    private static final String AWAIT_SERVER = "for i in $(seq 120); do ss -ltnH 'sport = :18515' | grep -q . && break;"
            + " sleep 0.5; done";
    private static Lab lab;
    private static LabVm vm;

    @BeforeAll
    static void bootAndCollect() throws Exception {
        Files.createDirectories(WORK);
        lab = Lab.start(WORK, 1, 9);
        vm = lab.vm(1);
        String port = "/sys/class/infiniband/rxe0/ports/1";
        // What rdma-core and sysfs say, then rdmamon's own reads, all before any traffic.
        vm.require(String.join("\n",
                "set -e",
                "ibv_devinfo -v -d rxe0 > ibv_devinfo.txt",
                "rdma -j link show > rdma-link.json",
                // bash's read, not cat: 1,024 entries, and a fork costs tens of milliseconds under TCG
                "for f in " + port + "/gids/*; do",
                "  i=${f##*/}; read -r gid < $f; type=; ndev=",
                "  read -r type < " + port + "/gid_attrs/types/$i 2>/dev/null || true",
                "  read -r ndev < " + port + "/gid_attrs/ndevs/$i 2>/dev/null || true",
                "  echo \"$i $gid $type $ndev\"",
                "done > sysfs-gids.txt",
                "for f in state phys_state rate lid sm_lid link_layer cap_mask; do echo \"$f=$(cat " + port + "/$f)\";"
                        + " done > sysfs-port.txt",
                "cat /sys/class/net/eth1/ifindex > eth1-ifindex",
                "cat /sys/class/infiniband/rxe0/fw_ver > sysfs-fw_ver",
                // one JVM for the three reads of the still port (a guest JVM start is the lab's dearest step)
                Guest.BATCH + " devinfo.json devinfo --json -- gids.txt gids -- verbs.txt guest-verbs"),
                Duration.ofMinutes(4));
        // Real RDMA WRITE traffic through rxe0 (to its own address), then the counters once it has stopped; the
        // two rdma statistic reads around rdmamon's show the counters were still while it read them.
        vm.require(String.join("\n",
                "set -e",
                "ib_write_bw -d rxe0 -x 1 -D 3 -F > bw-server.txt 2>&1 &",
                AWAIT_SERVER,
                "timeout 60 ib_write_bw -d rxe0 -x 1 -D 3 -F " + vm.fabricAddress() + " > bw-client.txt 2>&1",
                "wait",
                "rdma -j statistic show link rxe0/1 > stat-before.json",
                Guest.RDMAMON + " sample --json > sample.json",
                "rdma -j statistic show link rxe0/1 > stat-after.json"),
                Duration.ofMinutes(3));
        // RDMA netlink's resources while a perftest holds QPs open: rdma-core's view around rdmamon's sample
        vm.require(String.join("\n",
                "set -e",
                // more iterations than it can run while the JVM starts under TCG, stopped below once everything is
                // read; sleeping on CQ events (-e: SEND only, and not with -D), not busy-polling the vCPUs away
                "hold='ib_send_bw -d rxe0 -x 1 -n 100000000 -F -e -t 4 -s 1024'",
                // the server in a cgroup laid out as the kubelet's systemd driver makes one for a container
                "mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup",
                "pod=/sys/fs/cgroup/kubepods.slice/kubepods-pod" + POD_UID.replace('-', '_') + ".slice/cri-containerd-"
                        + CONTAINER_ID + ".scope",
                "mkdir -p $pod",
                "sh -c \"echo \\$\\$ > $pod/cgroup.procs && exec $hold\" > hold-server.txt 2>&1 &",
                "echo $! > server.pid",
                AWAIT_SERVER,
                "$hold " + vm.fabricAddress() + " > hold-client.txt 2>&1 &",
                // connected: the server's QP in RTR, the client's in RTS (perftest's output is buffered until it ends)
                "for i in $(seq 60); do [ \"$(rdma resource show qp | grep -cE 'state RT[RS] .*comm ib_send_bw')\" -ge 2 ]"
                        + " && break; sleep 1; done",
                "rdma -j resource show > resources-before.json",
                "rdma -j resource show qp > qps-before.json",
                // rdmamon's sample and its workloads in one JVM, between two reads of rdma-core's view
                Guest.BATCH + " sample-resources.json sample --json -- workloads.json workloads --json",
                "rdma -j resource show > resources-after.json",
                "rdma -j resource show qp > qps-after.json",
                "pkill ib_send_bw || true",
                "for i in $(seq 30); do pgrep -x ib_send_bw > /dev/null || break; sleep 1; done",
                Guest.RDMAMON + " workloads --json > workloads-after.json"),
                Duration.ofMinutes(8));
    }

    @AfterAll
    static void stop() {
        if (lab != null) {
            lab.close();
        }
    }

    @Test
    void devinfoAgreesWithIbvDevinfo() throws IOException {
        Map<String, String> ibv = IbvDevinfo.parse(read("ibv_devinfo.txt"));
        JsonObject device = new JsonArray(read("devinfo.json")).getJsonObject(0);
        JsonObject port = device.getJsonArray("ports").getJsonObject(0);

        assertEquals(ibv.get("hca_id"), device.getString("hcaId"));
        assertEquals(ibv.get("node_guid"), device.getString("nodeGuid"));
        assertEquals(ibv.get("sys_image_guid"), device.getString("sysImageGuid"));
        assertEquals(Integer.parseInt(ibv.get("phys_port_cnt")), device.getInteger("physPortCount"));
        // rxe has no firmware: sysfs fw_ver is an empty line, which rdmamon reports as absent, where ibv_devinfo
        // prints the verbs attribute's 0 as "0.0.0"
        assertEquals("", read("sysfs-fw_ver").strip());
        assertEquals(null, device.getString("fwVersion"));
        assertEquals("0.0.0", ibv.get("fw_ver"));
        assertEquals(IbvDevinfo.enumValue(ibv.get("port1.state")), port.getInteger("stateId"));
        assertEquals(IbvDevinfo.enumValue(ibv.get("port1.phys_state")), port.getInteger("physStateId"));
        assertEquals(Integer.parseInt(ibv.get("port1.port_lid")), port.getInteger("lid"));
        assertEquals(ibv.get("port1.link_layer"), port.getString("linkLayer"));
        assertEquals(IbvDevinfo.gids(ibv).size(), port.getInteger("gidCount"));
        // ibv_devinfo gives width and speed apart ("1X (1)", "2.5 Gbps (1)"); their product is the port's rate
        assertEquals(IbvDevinfo.rateBytesPerSecond(ibv.get("port1.active_width"), ibv.get("port1.active_speed")),
                port.getLong("rateBytesPerSecond"));
        assertEquals("eth1", port.getString("netdev"));
    }

    @Test
    void devinfoAgreesWithRdmaLink() throws IOException {
        JsonObject link = new JsonArray(read("rdma-link.json")).getJsonObject(0);
        JsonObject device = new JsonArray(read("devinfo.json")).getJsonObject(0);
        JsonObject port = device.getJsonArray("ports").getJsonObject(0);

        assertEquals(link.getString("ifname"), device.getString("hcaId"));
        assertEquals(link.getInteger("port"), port.getInteger("port"));
        assertEquals(link.getString("state"), port.getString("state"));
        assertEquals(link.getString("physical_state"), port.getString("physState").toUpperCase().replace("LINKUP", "LINK_UP"));
        assertEquals(link.getString("netdev"), port.getString("netdev"));
    }

    @Test
    void gidsAgreeWithTheSysfsTableAndIbvDevinfo() throws IOException {
        // sysfs: "INDEX GID TYPE NDEV" for every entry; the empty ones are all zeros and have no type
        Map<Integer, List<String>> sysfs = new TreeMap<>();
        for (String line : read("sysfs-gids.txt").strip().split("\n")) {
            String[] f = line.trim().split("\\s+", 3);
            if (!f[1].equals("0000:0000:0000:0000:0000:0000:0000:0000")) {
                sysfs.put(Integer.parseInt(f[0]), List.of(f[1], f[2]));
            }
        }
        Map<Integer, List<String>> rdmamon = new TreeMap<>();
        String[] lines = read("gids.txt").strip().split("\n");
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            if (f[0].equals("rxe0")) {
                // DEV PORT INDEX GID [IPv4] VER NETDEV
                String version = f[f.length - 2];
                String netdev = f[f.length - 1];
                rdmamon.put(Integer.parseInt(f[2]), List.of(f[3], (version.equals("v2") ? "RoCE v2" : "IB/RoCE v1")
                        + " " + netdev));
            }
        }
        assertFalse(sysfs.isEmpty(), "rxe0 has GIDs in sysfs");
        assertEquals(sysfs, rdmamon);
        String linkNetdev = new JsonArray(read("rdma-link.json")).getJsonObject(0).getString("netdev");
        rdmamon.values().forEach(entry -> assertTrue(entry.get(1).endsWith(" " + linkNetdev), entry + " on " + linkNetdev));
        assertTrue(lines[lines.length - 1].contains("n_gids_found=" + sysfs.size()), lines[lines.length - 1]);

        Map<Integer, String> ibv = IbvDevinfo.gids(IbvDevinfo.parse(read("ibv_devinfo.txt")));
        Map<Integer, String> fromSysfs = new TreeMap<>();
        sysfs.forEach((index, entry) -> fromSysfs.put(index, canonical(entry.get(0)) + ", " + entry.get(1)
                .substring(0, entry.get(1).lastIndexOf(' '))));
        Map<Integer, String> fromIbv = new TreeMap<>();
        ibv.forEach((index, text) -> fromIbv.put(index, canonical(text.substring(0, text.indexOf(','))) + ","
                + text.substring(text.indexOf(',') + 1)));
        assertEquals(fromIbv, fromSysfs);
    }

    @Test
    void everyHwCounterOfTheSampleEqualsRdmaStatisticAfterTraffic() throws IOException {
        JsonObject before = new JsonArray(read("stat-before.json")).getJsonObject(0);
        JsonObject after = new JsonArray(read("stat-after.json")).getJsonObject(0);
        assertEquals(before, after, "the counters were still while rdmamon read them");
        assertTrue(read("bw-client.txt").contains("BW average"), read("bw-client.txt"));

        Map<String, Long> statistic = RdmaStatistic.counters(after);
        JsonObject hw = port(new JsonObject(read("sample.json"))).getJsonObject("hwCounters");
        Map<String, Long> sampled = new TreeMap<>();
        hw.forEach(e -> sampled.put(e.getKey(), ((Number) e.getValue()).longValue()));

        assertTrue(statistic.get("sent_pkts") > 1000, "traffic moved sent_pkts: " + statistic);
        assertEquals(statistic, sampled);
    }

    @Test
    void theVerbsSourceAgreesWithSysfsAndIbvDevinfo() throws IOException {
        Map<String, String> sysfsPort = new LinkedHashMap<>();
        read("sysfs-port.txt").lines().forEach(l -> sysfsPort.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
        Map<String, String> verbs = GuestVerbsOutput.port(read("verbs.txt"), "rxe0/1");
        Map<String, String> ibv = IbvDevinfo.parse(read("ibv_devinfo.txt"));

        // ibv_get_device_list lists exactly the devices of /sys/class/infiniband
        assertEquals(List.of("rxe0"), GuestVerbsOutput.devices(read("verbs.txt")));
        assertEquals(leadingNumber(sysfsPort.get("state")), Integer.parseInt(verbs.get("state")));
        assertEquals(leadingNumber(sysfsPort.get("phys_state")), Integer.parseInt(verbs.get("physState")));
        assertEquals(Integer.decode(sysfsPort.get("lid")), Integer.parseInt(verbs.get("lid")));
        assertEquals(Integer.decode(sysfsPort.get("sm_lid")), Integer.parseInt(verbs.get("smLid")));
        assertEquals(Long.decode(sysfsPort.get("cap_mask")), Long.parseLong(verbs.get("portCapFlags")));
        // IBV_LINK_LAYER_ETHERNET is 2
        assertEquals("Ethernet", sysfsPort.get("link_layer"));
        assertEquals(2, Integer.parseInt(verbs.get("linkLayer")));
        assertEquals(IbvDevinfo.enumValue(ibv.get("port1.max_mtu")), Integer.parseInt(verbs.get("maxMtu")));
        assertEquals(IbvDevinfo.enumValue(ibv.get("port1.active_mtu")), Integer.parseInt(verbs.get("activeMtu")));
        assertEquals(Integer.parseInt(ibv.get("port1.gid_tbl_len")), Integer.parseInt(verbs.get("gidTableLength")));
        assertEquals(IbvDevinfo.rateBytesPerSecond(ibv.get("port1.active_width"), ibv.get("port1.active_speed")),
                IbvDevinfo.rateBytesPerSecond(verbs.get("activeWidth"), verbs.get("activeSpeed")));

        // every GID ibv_query_gid answers is the sysfs entry, and its netdev is eth1
        Map<Integer, String> sysfsGids = new TreeMap<>();
        for (String line : read("sysfs-gids.txt").strip().split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (!f[1].equals("0000:0000:0000:0000:0000:0000:0000:0000")) {
                sysfsGids.put(Integer.parseInt(f[0]), f[1].replace(":", ""));
            }
        }
        Map<Integer, String> verbsGids = GuestVerbsOutput.gids(read("verbs.txt"), "rxe0/1");
        assertEquals(sysfsGids, verbsGids);
        assertEquals(Integer.parseInt(read("eth1-ifindex").strip()),
                Integer.parseInt(GuestVerbsOutput.gidAttribute(read("verbs.txt"), "rxe0/1/0", "netdevIndex")));

        // and the agent's sample carries the same port attributes
        JsonObject sampled = port(new JsonObject(read("sample.json"))).getJsonObject("verbs");
        for (String key : List.of("state", "physState", "maxMtu", "activeMtu", "gidTableLength", "lid", "smLid",
                "activeWidth", "activeSpeed", "linkLayer")) {
            assertEquals(Long.parseLong(verbs.get(key)), sampled.getLong(key), key);
        }
    }

    @Test
    void theRdmaNetlinkSourceGaveTheCountersAndAgreesWithRdmaResource() throws IOException {
        assertEquals(new JsonArray(read("resources-before.json")), new JsonArray(read("resources-after.json")),
                "the resources were still while rdmamon read them");
        // the PSNs move with the traffic; the QPs themselves must not
        assertEquals(queuePairs(new JsonArray(read("qps-before.json")), "comm"),
                queuePairs(new JsonArray(read("qps-after.json")), "comm"));
        JsonObject device = new JsonObject(read("sample-resources.json")).getJsonArray("devices").getJsonObject(0);
        assertEquals("netlink", device.getJsonArray("ports").getJsonObject(0).getString("hwCountersSource"));
        assertEquals("netlink", port(new JsonObject(read("sample.json"))).getString("hwCountersSource"));

        // the summary: rdma prints {"ifindex", "ifname", then one count per type}
        JsonObject summary = new JsonArray(read("resources-after.json")).getJsonObject(0).copy();
        summary.remove("ifindex");
        summary.remove("ifname");
        JsonObject resources = device.getJsonObject("resources");
        assertEquals(summary, resources.getJsonObject("summary"));
        assertTrue(summary.getInteger("qp") >= 3, "the perftest pair's two QPs and GSI's QP1: " + summary);

        // the QPs: number, type, state, port, and the owner (pid for a process, the kernel module's name otherwise)
        Map<Integer, String> rdma = queuePairs(new JsonArray(read("qps-after.json")), "comm");
        Map<Integer, String> sampled = queuePairs(resources.getJsonArray("qps"), "kernName");
        assertEquals(rdma, sampled);
        assertEquals(0, resources.getInteger("qpsDropped", 0));
    }

    @Test
    void workloadsNameEachQpsProcessAndThePodOfAKubeletCgroupAndGoWithThem() throws IOException {
        assertEquals(queuePairs(new JsonArray(read("qps-before.json")), "comm"),
                queuePairs(new JsonArray(read("qps-after.json")), "comm"), "the QPs were still while rdmamon read them");
        long server = Long.parseLong(read("server.pid").trim());
        Map<String, Integer> rdmaPerOwner = new TreeMap<>();
        int onPort = 0;
        for (Object o : new JsonArray(read("qps-after.json"))) {
            JsonObject qp = (JsonObject) o;
            if (qp.getString("ifname").equals("rxe0") && qp.getInteger("port", 1) == 1) {
                onPort++;
                if (qp.containsKey("pid")) {
                    rdmaPerOwner.merge((qp.getLong("pid") == server ? "server " : "other ") + qp.getString("comm"), 1,
                            Integer::sum);
                }
            }
        }
        assertTrue(rdmaPerOwner.getOrDefault("server ib_send_bw", 0) >= 1, "the server holds QPs: " + rdmaPerOwner);

        JsonArray workloads = portWorkloads(new JsonArray(read("workloads.json")));
        int counted = 0;
        JsonObject pod = null;
        JsonObject kernel = null;
        int others = 0;
        for (Object o : workloads) {
            JsonObject w = (JsonObject) o;
            counted += w.getInteger("qps");
            if (POD_UID.equals(w.getString("pod"))) {
                pod = w;
            } else if ("kernel QP".equals(w.getString("reason"))) {
                kernel = w;
            } else if ("ib_send_bw".equals(w.getString("comm"))) {
                others += w.getInteger("qps");
                assertEquals("none", w.getString("attribution"), "the client is in no pod: " + w);
                assertTrue(w.getString("reason") != null && !w.getString("reason").isBlank(), "says why: " + w);
            }
        }
        assertEquals(onPort, counted, "every QP of rxe0/1 that rdma lists is in one workload: " + workloads);
        assertTrue(pod != null, "the process in the kubelet's cgroup is attributed to its pod: " + workloads);
        assertEquals("process", pod.getString("attribution"));
        assertEquals(CONTAINER_ID.substring(0, 12), pod.getString("container"));
        assertEquals("ib_send_bw", pod.getString("comm"));
        assertEquals(rdmaPerOwner.get("server ib_send_bw"), pod.getInteger("qps"), "as many QPs as rdma lists for its pid");
        assertEquals(rdmaPerOwner.getOrDefault("other ib_send_bw", 0), others, "the client's QPs");
        assertTrue(kernel != null && "none".equals(kernel.getString("attribution")), "QP1 is the kernel's: " + workloads);

        for (Object o : portWorkloads(new JsonArray(read("workloads-after.json")))) {
            assertTrue(!"ib_send_bw".equals(((JsonObject) o).getString("comm")), "gone with the processes: " + o);
        }
    }

    /** {@code rdmamon workloads --json}'s rows for rxe0 port 1. */
    private static JsonArray portWorkloads(JsonArray reports) {
        for (Object o : reports) {
            JsonObject report = (JsonObject) o;
            if (report.getString("device").equals("rxe0") && report.getInteger("port") == 1) {
                return report.getJsonArray("workloads", new JsonArray());
            }
        }
        throw new AssertionError("no rxe0/1 in " + reports);
    }

    /** QPs by number: type, state, port and owner (a pid, or the kernel module named by {@code kernelOwner}). */
    private static Map<Integer, String> queuePairs(JsonArray qps, String kernelOwner) {
        Map<Integer, String> byNumber = new TreeMap<>();
        for (Object o : qps) {
            JsonObject qp = (JsonObject) o;
            byNumber.put(qp.getInteger("lqpn"), qp.getString("type") + " " + qp.getString("state") + " port "
                    + qp.getInteger("port") + " " + (qp.containsKey("pid") ? "pid " + qp.getInteger("pid")
                    : "kernel " + qp.getString(kernelOwner)));
        }
        return byNumber;
    }

    private static JsonObject port(JsonObject sample) {
        return sample.getJsonArray("devices").getJsonObject(0).getJsonArray("ports").getJsonObject(0);
    }

    private static int leadingNumber(String sysfs) {
        return Integer.parseInt(sysfs.substring(0, sysfs.indexOf(':')).trim());
    }

    private static String canonical(String gid) {
        try {
            return HexFormat.of().formatHex(InetAddress.getByName(gid).getAddress().length == 16
                    ? InetAddress.getByName(gid).getAddress() : ipv4Mapped(InetAddress.getByName(gid).getAddress()));
        } catch (IOException e) {
            throw new AssertionError("not a GID: " + gid, e);
        }
    }

    /** Java reads {@code ::ffff:a.b.c.d} as the IPv4 address; the GID is its IPv4-mapped form. */
    private static byte[] ipv4Mapped(byte[] ipv4) {
        byte[] gid = new byte[16];
        gid[10] = (byte) 0xff;
        gid[11] = (byte) 0xff;
        System.arraycopy(ipv4, 0, gid, 12, 4);
        return gid;
    }

    private static String read(String name) throws IOException {
        return Files.readString(vm.file(name));
    }
}
