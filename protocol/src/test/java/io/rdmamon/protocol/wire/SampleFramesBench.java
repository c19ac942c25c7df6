package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.HostSample;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongFunction;

/**
 * The agent's cost of encoding one sample of the 8-port host ({@link FrameDecodeBench#eightPortHost}) in steady
 * state (the layout sent, a values frame a sample): the path before the frame-size guarantee (fit, encode, sanitise,
 * codec) against {@link SampleFrames#encode}, which encodes once and compares each frame's length with the
 * collector's frame. Not a test: run it by hand. Rounds of {@code samples} encodes alternate between the two; reported
 * are the best round's µs and the bytes allocated a sample. Arguments: {@code [samples] [rounds]} (default 20000, 10).
 */
public final class SampleFramesBench {
    private SampleFramesBench() {
    }

    public static void main(String[] args) {
        int samples = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        HostSample sample = FrameDecodeBench.eightPortHost(new Random(1));
        FrameCodec codec = new FrameCodec();
        SampleEncoder before = new SampleEncoder(sample.node(), "bench", 1000);
        SampleEncoder after = new SampleEncoder(sample.node(), "bench", 1000);
        if (!Arrays.equals(encodeBefore(before, codec, sample, 1).get(1),
                SampleFrames.encode(after, codec, sample, 1).get(1))) {
            throw new IllegalStateException("the two paths encode the sample differently");
        }
        Map<String, LongFunction<List<byte[]>>> variants = new LinkedHashMap<>();
        variants.put("fit + encode + sanitise + codec (before)", seq -> encodeBefore(before, codec, sample, seq));
        variants.put("SampleFrames.encode (after)", seq -> SampleFrames.encode(after, codec, sample, seq));
        Map<String, double[]> best = new LinkedHashMap<>();
        variants.keySet().forEach(name -> best.put(name, new double[] {Double.MAX_VALUE, Double.MAX_VALUE}));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        long seq = 1;
        int bytes = 0;
        for (int round = 0; round < rounds + 2; round++) { // two warm-up rounds
            for (Map.Entry<String, LongFunction<List<byte[]>>> variant : variants.entrySet()) {
                long allocatedBefore = threads.getThreadAllocatedBytes(thread);
                long start = System.nanoTime();
                for (int i = 0; i < samples; i++) {
                    bytes += variant.getValue().apply(++seq).get(0).length;
                }
                double nanos = (System.nanoTime() - start) / (double) samples;
                double allocated = (threads.getThreadAllocatedBytes(thread) - allocatedBefore) / (double) samples;
                if (round >= 2) {
                    double[] b = best.get(variant.getKey());
                    b[0] = Math.min(b[0], nanos);
                    b[1] = Math.min(b[1], allocated);
                }
            }
        }
        System.out.printf("%d samples per round, best of %d rounds (sink %d)%n", samples, rounds, bytes);
        System.out.println("| variant | µs / sample | KiB allocated / sample |");
        System.out.println("|---|---|---|");
        best.forEach((name, b) -> System.out.printf("| %s | %.1f | %.1f |%n", name, b[0] / 1000, b[1] / 1024));
    }

    private static List<byte[]> encodeBefore(SampleEncoder encoder, FrameCodec codec, HostSample sample, long seq) {
        return encoder.encode(HostSampleLimits.fit(sample), seq).stream()
                .map(frame -> codec.encode(HostTextFrames.sanitize(frame))).toList();
    }
}
