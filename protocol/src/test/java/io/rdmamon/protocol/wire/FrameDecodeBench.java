package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.EthtoolStats;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.SourceStatus;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The collector's per-frame ingest cost, in one JVM and one run: {@link FrameCodec#decode} of a values frame
 * by the old tree path ({@code decodeWithTree}) and by the streaming path, and the rebuild of the
 * {@link HostSample} from the decoded frame ({@link SampleDecoder#accept}). Not a test: run it by hand.
 *
 * <p>The frame has the shape of the 8-port mlx5 host of {@code CollectorIngestBench} (docs/performance.md):
 * per port 21 PMA counters, 31 hw_counters and the 95 ethtool statistics of the fabric simulator's mlx5 netdev
 * (among them the per-priority, vport RDMA and pause storm statistics the typed view is derived from), 1,176
 * values (protocol 1 sent 720 more: the typed copies), 17 sources, and values spread like a node's after days of
 * uptime: about half are error counters near zero, the rest spread over 1 .. 10^14.
 *
 * <p>Each variant runs {@code rounds} rounds of {@code frames} decodes, alternating with the others so that
 * JIT and machine noise hit all alike; reported are the best round's ns per frame and the bytes the thread
 * allocated per frame ({@code ThreadMXBean.getThreadAllocatedBytes}). Arguments: {@code [frames] [rounds]}
 * (default 20000 and 10).
 */
public final class FrameDecodeBench {
    private static final int PORTS = 8;

    private FrameDecodeBench() {
    }

    private interface Variant {
        Object run() throws FrameException;
    }

    public static void main(String[] args) throws FrameException {
        int frames = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        HostSample sample = eightPortHost(new Random(1));
        List<Frame> encoded = new SampleEncoder(sample.node(), "bench", 1000).encode(sample, 1);
        FrameCodec codec = new FrameCodec();
        Frame.Hello hello = (Frame.Hello) encoded.get(0);
        byte[] bytes = codec.encode(encoded.get(1));
        Frame.Values values = (Frame.Values) codec.decode(bytes);
        if (!values.equals(codec.decodeWithTree(bytes)) || ValuesFrameParser.parse(bytes) == null) {
            throw new IllegalStateException("the two paths disagree on the bench frame");
        }
        SampleDecoder decoder = new SampleDecoder();
        decoder.accept(hello);
        if (!decoder.accept(values).orElseThrow().equals(sample)) {
            throw new IllegalStateException("the rebuilt sample differs from the encoded one");
        }
        System.out.printf("values frame: %d values, %d bytes of JSON, %d sources%n", values.values().length,
                bytes.length, values.sources().size());

        Map<String, Variant> variants = new LinkedHashMap<>();
        variants.put("decode, tree (before)", () -> codec.decodeWithTree(bytes));
        variants.put("decode, streaming (after)", () -> codec.decode(bytes));
        variants.put("rebuild HostSample (SampleDecoder.accept)", () -> decoder.accept(values));
        variants.put("decode + rebuild (ingest per frame)", () -> decoder.accept(codec.decode(bytes)));
        Map<String, double[]> best = new LinkedHashMap<>();
        variants.keySet().forEach(name -> best.put(name, new double[] {Double.MAX_VALUE, Double.MAX_VALUE}));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        Object sink = null;
        for (int round = 0; round < rounds + 2; round++) { // two warm-up rounds
            for (Map.Entry<String, Variant> variant : variants.entrySet()) {
                long allocatedBefore = threads.getThreadAllocatedBytes(thread);
                long start = System.nanoTime();
                for (int i = 0; i < frames; i++) {
                    sink = variant.getValue().run();
                }
                double nanos = (System.nanoTime() - start) / (double) frames;
                double allocated = (threads.getThreadAllocatedBytes(thread) - allocatedBefore) / (double) frames;
                if (round >= 2) {
                    double[] b = best.get(variant.getKey());
                    b[0] = Math.min(b[0], nanos);
                    b[1] = Math.min(b[1], allocated);
                }
            }
        }
        System.out.printf("%d frames per round, best of %d rounds (sink %s)%n", frames, rounds, sink != null);
        System.out.println("| variant | µs / frame | KiB allocated / frame |");
        System.out.println("|---|---|---|");
        best.forEach((name, b) -> System.out.printf("| %s | %.1f | %.1f |%n", name, b[0] / 1000, b[1] / 1024));
    }

    /** An 8-port host with the slot counts of the realistic mlx5 host (see the class comment). */
    static HostSample eightPortHost(Random random) {
        List<IbDevice> devices = new ArrayList<>();
        List<SourceStatus> sources = new ArrayList<>();
        for (int d = 0; d < PORTS; d++) {
            String netdev = "ens1f" + d + "np" + d;
            Map<String, Long> statistics = new LinkedHashMap<>();
            MLX5_ETHTOOL_NAMES.forEach(name -> statistics.put(name, value(random)));
            EthtoolStats ethtool = EthtoolStats.of(netdev, statistics);
            IbPort port = IbPort.builder().port(1).stateId(4).state("ACTIVE").physStateId(5).physState("LinkUp")
                    .rate("200 Gb/sec (2X HDR)").rateBytesPerSecond(25_000_000_000L).linkLayer("Ethernet").lid("0x0")
                    .netdev(netdev).counters(counters("port_counter_", 21, random))
                    .hwCounters(counters("hw_counter_", 31, random)).ethtool(ethtool).build();
            String name = "mlx5_" + d;
            devices.add(new IbDevice(name, 1, "CA", "0a7f:bc12:45ef:d23" + d, "0a7f:bc12:45ef:d230", "20.39.1002",
                    "MT4123", "MT_0000000223", List.of(port)));
            sources.add(SourceStatus.ok("sysfs", name));
            sources.add(SourceStatus.ok("ethtool", netdev));
        }
        sources.add(SourceStatus.failed("verbs", "host", "libibverbs: no devices"));
        return new HostSample("gpu-0001", 1_700_000_000_000L, devices, sources);
    }

    /** The 95 statistics of the simulator's mlx5 netdev with PFC on priority 3 (agent's {@code Mlx5Device}). */
    private static final List<String> MLX5_ETHTOOL_NAMES = mlx5EthtoolNames();

    private static List<String> mlx5EthtoolNames() {
        List<String> names = new ArrayList<>(List.of("rx_packets", "rx_bytes", "tx_packets", "tx_bytes",
                "rx_out_of_buffer", "rx_if_down_packets"));
        for (String cast : List.of("unicast", "multicast", "broadcast")) {
            for (String dir : List.of("rx", "tx")) {
                names.addAll(List.of(dir + "_vport_" + cast + "_packets", dir + "_vport_" + cast + "_bytes"));
            }
        }
        for (String cast : List.of("unicast", "multicast")) {
            for (String dir : List.of("rx", "tx")) {
                names.addAll(List.of(dir + "_vport_rdma_" + cast + "_packets", dir + "_vport_rdma_" + cast + "_bytes"));
            }
        }
        names.addAll(List.of("tx_packets_phy", "rx_packets_phy", "rx_crc_errors_phy", "tx_bytes_phy", "rx_bytes_phy",
                "tx_multicast_phy", "tx_broadcast_phy", "rx_multicast_phy", "rx_broadcast_phy",
                "rx_in_range_len_errors_phy", "rx_out_of_range_len_phy", "rx_oversize_pkts_phy", "rx_symbol_err_phy",
                "tx_mac_control_phy", "rx_mac_control_phy", "rx_unsupported_op_phy", "rx_pause_ctrl_phy",
                "tx_pause_ctrl_phy", "rx_discards_phy", "tx_discards_phy", "tx_errors_phy", "link_down_events_phy"));
        for (int prio = 0; prio < 8; prio++) {
            for (String what : List.of("rx_prio%d_bytes", "rx_prio%d_packets", "rx_prio%d_discards", "tx_prio%d_bytes",
                    "tx_prio%d_packets")) {
                names.add(String.format(what, prio));
            }
        }
        names.addAll(List.of("rx_prio3_pause", "rx_prio3_pause_duration", "tx_prio3_pause", "tx_prio3_pause_duration",
                "rx_prio3_pause_transition", "tx_pause_storm_warning_events", "tx_pause_storm_error_events"));
        return List.copyOf(names);
    }

    private static Map<String, Long> counters(String prefix, int count, Random random) {
        Map<String, Long> counters = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            counters.put(prefix + i, value(random));
        }
        return counters;
    }

    /** Half error counters (0..9), half traffic counters spread log-uniformly over 1 .. 10^14. */
    private static long value(Random random) {
        return random.nextBoolean() ? random.nextInt(10) : (long) Math.pow(10, random.nextDouble() * 14);
    }
}
