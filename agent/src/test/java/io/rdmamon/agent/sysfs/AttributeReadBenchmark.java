package io.rdmamon.agent.sysfs;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The cost of reading and parsing one counter file, the agent's unit of work (about 500 of them per sample
 * on an 8-port mlx5 host): the old way (open, read, close, a String, {@link SysfsParsers#parseCounter}) against
 * a kept descriptor re-read with {@code pread} and digits parsed from the bytes ({@link AttributeFiles}; through libc,
 * and through a kept {@code FileChannel} as before), and
 * the two parses alone. {@code files=sysfs} reads the real sysfs counters of {@code /sys/class/net/lo/statistics}
 * (the kernel prints each value on every read, as it does for {@code hw_counters}); {@code files=tmp} reads
 * as many files of an ext4/tmpfs directory, like a capture tree. Each operation reads every file once; the
 * score divided by the file count is the cost per file. Not a test; docs/performance.md has the command.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(java.util.concurrent.TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AttributeReadBenchmark {
    private static final Path LO_STATISTICS = Path.of("/sys/class/net/lo/statistics");
    private static final byte[] COUNTER_BYTES = "1234567890123\n".getBytes(StandardCharsets.US_ASCII);

    @Param({"sysfs", "tmp"})
    public String files;

    private List<Path> paths;
    private Path tmp;
    private AttributeFiles kept;
    private List<FileChannel> channels;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        try (Stream<Path> statistics = Files.list(LO_STATISTICS)) {
            paths = statistics.sorted().toList();
        }
        if (files.equals("tmp")) {
            tmp = Files.createTempDirectory("attribute-read-bench");
            for (Path statistic : paths) {
                Files.writeString(tmp.resolve(statistic.getFileName().toString()), "1234567890123\n");
            }
            try (Stream<Path> copies = Files.list(tmp)) {
                paths = copies.sorted().toList();
            }
        }
        kept = AttributeFiles.keepingDescriptors(AttributeFiles.DEFAULT_MAX_DESCRIPTORS);
        channels = new ArrayList<>();
        for (Path path : paths) {
            channels.add(FileChannel.open(path, StandardOpenOption.READ));
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        kept.closeAll();
        for (FileChannel channel : channels) {
            channel.close();
        }
        if (tmp != null) {
            try (Stream<Path> walk = Files.walk(tmp)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** Before: open, read, close and a String per file, then the text parser. */
    @Benchmark
    public void openReadParseText(Blackhole sink) throws IOException {
        for (Path path : paths) {
            sink.consume(SysfsParsers.parseCounter(SysfsFiles.readOnce(path)));
        }
    }

    /** After: pread on the kept descriptor, digits from the buffer. */
    @Benchmark
    public void preadParseBytes(Blackhole sink) throws IOException {
        for (Path path : paths) {
            sink.consume(kept.readCounter(path));
        }
    }

    /**
     * Before the reads went through libc: {@code FileChannel.read(buffer, 0)} on kept channels (its interruptible
     * begin and end, native-thread set, temporary direct buffer and copy), digits from the buffer.
     */
    @Benchmark
    public void channelPreadParseBytes(Blackhole sink) throws IOException {
        ByteBuffer buffer = SysfsFiles.buffer();
        for (FileChannel channel : channels) {
            buffer.clear();
            sink.consume(AttributeFiles.counterOf(buffer.array(), channel.read(buffer, 0)));
        }
    }

    /** Open per read (as on a capture tree), digits from the buffer: what the descriptor saves. */
    @Benchmark
    public void openReadParseBytes(Blackhole sink) throws IOException {
        AttributeFiles opening = AttributeFiles.openingEachRead();
        for (Path path : paths) {
            sink.consume(opening.readCounter(path));
        }
    }

    /** The text parse of one value, trimmed String included. */
    @Benchmark
    public Long parseText() {
        return SysfsParsers.parseCounter(new String(COUNTER_BYTES, StandardCharsets.UTF_8).strip());
    }

    /** The byte parse of the same value. */
    @Benchmark
    public Long parseBytes() {
        return AttributeFiles.counterOf(COUNTER_BYTES, COUNTER_BYTES.length);
    }
}
