package io.rdmamon.agent.sysfs;

import io.rdmamon.nativeio.FileSystemType;
import io.rdmamon.nativeio.NativeSupport;
import io.rdmamon.nativeio.PositionalReads;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agent's reader of attribute files. On sysfs it keeps the descriptor of every file it reads and reads
 * it again with {@code pread} at offset 0, which makes the kernel print the attribute afresh: an {@code open}
 * and a {@code close} less per file and sample. That is safe only on sysfs, whose attribute files are never
 * replaced (a removed device takes its files with it, and their descriptors fail with ENODEV). Anywhere
 * else (capture trees, which tools replace atomically by rename) every read opens the file anew, so a
 * replaced file is always seen.
 *
 * <p>Bounds: at most {@code maxDescriptors} kept at once (a file read while the table is full is read
 * the old way), and a descriptor not read during a sample is closed when the sample ends
 * ({@link #sampleEnded()}): the GID tables and static attributes read on the slow cadence do not hold
 * descriptors between their reads, and a device gone from the listing drops its descriptors at once. A
 * kept descriptor whose read fails (ENODEV, ENOENT: the device went) is closed, and the file opened
 * afresh in the same read, which tells a device re-added under the same name (new value) from one gone
 * (ENOENT, absent as before).
 *
 * <p>Kept descriptors are opened and read through libc ({@link PositionalReads}): {@code FileChannel}'s own work
 * around each positional read cost about a tenth of the reader's time (docs/performance.md). Where the native
 * bindings cannot run (not Linux on x86_64 or aarch64) no descriptor is kept. A file opened for each read goes
 * through {@code FileChannel}.
 *
 * <p>Thread-safe: the read of a sample runs on one thread, but the {@code ReadWatchdog} may leave a stuck
 * read behind on another; positional reads into per-thread buffers do not disturb each other.
 */
public final class AttributeFiles implements SmallFileReader {
    /**
     * An 8-port mlx5 host reads about 500 files every sample (PMA and hw counters, port state); 1,024
     * leaves room for more ports and stays far below the usual 1,024-soft / 524,288-hard RLIMIT_NOFILE
     * that the JVM raises to the hard limit.
     */
    public static final int DEFAULT_MAX_DESCRIPTORS = 1024;
    /** Twenty digits may exceed 2^64; up to nineteen never do, so they are summed without overflow checks. */
    private static final int MAX_FAST_DIGITS = 19;

    /** Whether libc can be called here: Linux on x86_64 or aarch64. */
    private static final boolean NATIVE = NativeSupport.unsupportedReason().isEmpty();

    /** A kept descriptor and the sample that last read it. */
    private static final class Kept {
        final int fd;
        volatile long lastSample;

        Kept(int fd, long sample) {
            this.fd = fd;
            this.lastSample = sample;
        }
    }

    private final boolean keepDescriptors;
    private final int maxDescriptors;
    private final Map<Path, Kept> kept = new ConcurrentHashMap<>();
    private volatile long sample;

    private AttributeFiles(boolean keepDescriptors, int maxDescriptors) {
        if (maxDescriptors < 0) {
            throw new IllegalArgumentException("max descriptors must not be negative: " + maxDescriptors);
        }
        if (keepDescriptors && !NATIVE) {
            throw new IllegalStateException("descriptors are kept through libc: " + NativeSupport.unsupportedReason().orElseThrow());
        }
        this.keepDescriptors = keepDescriptors;
        this.maxDescriptors = maxDescriptors;
    }

    /**
     * For benchmarks only ({@code -Drdmamon.bench.keepDescriptors=true}): keep descriptors on a tree that is
     * not sysfs, so that a simulated host tree (ext4 or tmpfs) is read the way a real host's sysfs is. Never
     * for a capture tree that tools rewrite: its replaced files would not be seen.
     */
    static final String BENCH_KEEP_DESCRIPTORS = "rdmamon.bench.keepDescriptors";

    /** Keeps descriptors when {@code <hostRoot>/sys} is on sysfs (statfs magic), opens every file anew otherwise. */
    public static AttributeFiles forRoot(Path hostRoot) {
        boolean keep = NATIVE && (Boolean.getBoolean(BENCH_KEEP_DESCRIPTORS) || FileSystemType.isSysfs(hostRoot.resolve("sys")));
        return new AttributeFiles(keep, DEFAULT_MAX_DESCRIPTORS);
    }

    /** Keeps up to {@code maxDescriptors} descriptors whatever the filesystem (tests; benchmarks of the sysfs path). */
    public static AttributeFiles keepingDescriptors(int maxDescriptors) {
        return new AttributeFiles(true, maxDescriptors);
    }

    /** Opens every file anew, as on a capture tree. */
    public static AttributeFiles openingEachRead() {
        return new AttributeFiles(false, 0);
    }

    /** Whether descriptors are kept between reads (true on sysfs). */
    public boolean keepsDescriptors() {
        return keepDescriptors;
    }

    /** Descriptors kept open now. */
    public int keptDescriptors() {
        return kept.size();
    }

    @Override
    public String read(Path file) throws IOException {
        ByteBuffer buffer = SysfsFiles.buffer();
        int count = readInto(file, buffer);
        return count <= 0 ? "" : new String(buffer.array(), 0, count, StandardCharsets.UTF_8).strip();
    }

    /** Digits parsed straight from the read buffer ({@link #counterOf}). */
    @Override
    public Long readCounter(Path file) throws IOException {
        ByteBuffer buffer = SysfsFiles.buffer();
        return counterOf(buffer.array(), readInto(file, buffer));
    }

    /**
     * The counter in the first {@code count} bytes (a read's result: 0 or -1 for nothing): digits parsed
     * straight from the bytes; anything but ASCII digits between ASCII blanks (the {@code N/A (no PMA)} text,
     * garbage, twenty digits or more) goes through the text and {@link SysfsParsers#parseCounter}, so values
     * and refusals are the same as there.
     */
    static Long counterOf(byte[] bytes, int count) {
        int start = 0;
        int end = Math.max(count, 0);
        while (start < end && isBlank(bytes[start])) {
            start++;
        }
        while (end > start && isBlank(bytes[end - 1])) {
            end--;
        }
        if (end == start || end - start > MAX_FAST_DIGITS) {
            return SysfsParsers.parseCounter(new String(bytes, 0, Math.max(count, 0), StandardCharsets.UTF_8).strip());
        }
        long value = 0;
        for (int i = start; i < end; i++) {
            int digit = bytes[i] - '0';
            if (digit < 0 || digit > 9) {
                return SysfsParsers.parseCounter(new String(bytes, 0, count, StandardCharsets.UTF_8).strip());
            }
            // below 10^19 < 2^64: the long wraps to exactly the unsigned value's bits
            value = value * 10 + digit;
        }
        return value;
    }

    /** Closes the descriptors no read of the sample that ends used (slow-cadence files, vanished devices). */
    @Override
    public void sampleEnded() {
        long ended = sample;
        kept.forEach((file, descriptor) -> {
            if (descriptor.lastSample != ended && kept.remove(file, descriptor)) {
                PositionalReads.close(descriptor.fd);
            }
        });
        sample = ended + 1;
    }

    /** Closes every kept descriptor. */
    public void closeAll() {
        kept.forEach((file, descriptor) -> {
            if (kept.remove(file, descriptor)) {
                PositionalReads.close(descriptor.fd);
            }
        });
    }

    /** Reads {@code file} into {@code buffer}'s array from its start; the count read (0 or -1: nothing). */
    private int readInto(Path file, ByteBuffer buffer) throws IOException {
        byte[] target = buffer.array();
        if (!keepDescriptors) {
            // FileChannel: jnr-ffi's open, converting the path String on every call, cost the agent's reader more
            // than FileChannel's per-read work saves when every read opens (docs/performance.md)
            buffer.clear();
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                return channel.read(buffer);
            }
        }
        Kept descriptor = kept.get(file);
        if (descriptor != null) {
            descriptor.lastSample = sample;
            try {
                return PositionalReads.readFromStart(descriptor.fd, target);
            } catch (IOException e) {
                // ENODEV/ENOENT: the device went (perhaps to come back under the same name); open anew below
                if (kept.remove(file, descriptor)) {
                    PositionalReads.close(descriptor.fd);
                }
            }
        }
        int fd = PositionalReads.open(file);
        Kept fresh = new Kept(fd, sample);
        boolean keep = kept.size() < maxDescriptors && kept.putIfAbsent(file, fresh) == null;
        try {
            return PositionalReads.readFromStart(fd, target);
        } catch (IOException e) {
            if (keep) {
                kept.remove(file, fresh);
                keep = false;
            }
            throw e;
        } finally {
            if (!keep) {
                PositionalReads.close(fd);
            }
        }
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\n' || b == '\t' || b == '\r' || b == 0x0b || b == 0x0c;
    }
}
