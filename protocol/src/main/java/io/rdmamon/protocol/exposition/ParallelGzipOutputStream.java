package io.rdmamon.protocol.exposition;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * gzip at the fastest level with the deflating spread over several threads, as pigz does: the input is cut into
 * blocks of {@value #BLOCK_BYTES} bytes, each block is deflated on {@code executor} on its own (primed with the last
 * 32 KiB of the block before it as the dictionary, so the ratio is that of one stream), ending on a byte boundary
 * (a sync flush) so that the raw deflate outputs, concatenated in order, form one deflate stream. The output is ONE
 * ordinary gzip member (header, that stream, CRC-32 and length), readable by any gzip reader.
 *
 * <p>At fleet scale deflating the 150 MiB exposition took twice as long as rendering it (docs/performance.md); the
 * calling thread now only renders, copies blocks and computes the CRC while the blocks compress beside it. At most
 * {@code maxInFlight} blocks are queued or compressing; the writer then waits for the oldest and writes it out, so
 * memory stays bounded and the body streams while it is produced. Not thread-safe: one writer thread.
 *
 * <p><b>Reusable runs.</b> Bytes written between {@link #beginRun()} and {@link #endRun()} are deflated on their own:
 * the first block of the run has no dictionary and the run ends on a byte boundary, so its deflated pieces refer to
 * nothing before them and can be written again in a later body at any position ({@link #writeRun(DeflatedRun)}),
 * without the text or the work. Each piece carries the CRC-32 of its text, computed with its deflating, and the
 * trailer's CRC is combined from the pieces' ({@link Crc32Combine}). The collector's {@code /metrics} reuses the runs
 * of node series whose text did not change since the last scrape (docs/performance.md).
 */
public final class ParallelGzipOutputStream extends OutputStream {
    static final int BLOCK_BYTES = 1024 * 1024;
    /** Deflate's window: what a block's compressor may refer back to. */
    private static final int DICTIONARY_BYTES = 32 * 1024;
    /**
     * One deflater per thread, reset per block: a body of many short runs deflates a block per run, and a new
     * deflater allocates and initialises zlib's state (about 256 KiB) each time.
     */
    private static final ThreadLocal<Deflater> DEFLATERS =
            ThreadLocal.withInitial(() -> new Deflater(Deflater.BEST_SPEED, true));
    private static final byte[] HEADER = {0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, 0};

    private final OutputStream out;
    private final Executor executor;
    private final int maxInFlight;
    private final int blockBytes;
    private final ArrayDeque<CompletableFuture<Piece>> pending = new ArrayDeque<>();
    private int crc;
    private long total;
    private byte[] previous;
    private byte[] block;
    private int count;
    private boolean closed;
    /** The pieces of the run being written; null outside a run. */
    private List<CompletableFuture<Piece>> run;
    private long runLength;

    /** One block deflated: its raw deflate bytes, and the CRC-32 and length of its text. */
    private record Piece(byte[] deflated, int crc, int length) {
    }

    /**
     * The deflated pieces of a run ({@link #endRun()}), for {@link #writeRun} in a later body. Holds only the deflated
     * bytes (about a twentieth of the text for an exposition).
     */
    public static final class DeflatedRun {
        private final List<CompletableFuture<Piece>> pieces;
        private final long length;

        private DeflatedRun(List<CompletableFuture<Piece>> pieces, long length) {
            this.pieces = List.copyOf(pieces);
            this.length = length;
        }

        /** The run's text length in bytes. */
        public long length() {
            return length;
        }

        /** Every piece deflated without error (a run of a body still being written, or that failed, is not). */
        boolean complete() {
            for (CompletableFuture<Piece> piece : pieces) {
                if (!piece.isDone() || piece.isCompletedExceptionally()) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Deflates on {@code executor}, at most {@code maxInFlight} (≥ 1) blocks at a time. */
    public ParallelGzipOutputStream(OutputStream out, Executor executor, int maxInFlight) throws IOException {
        this(out, executor, maxInFlight, BLOCK_BYTES);
    }

    ParallelGzipOutputStream(OutputStream out, Executor executor, int maxInFlight, int blockBytes) throws IOException {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be at least 1, not " + maxInFlight);
        }
        this.out = out;
        this.executor = executor;
        this.maxInFlight = maxInFlight;
        this.blockBytes = blockBytes;
        this.block = new byte[blockBytes];
        out.write(HEADER);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException("the gzip stream is closed");
        }
        while (len > 0) {
            int n = Math.min(len, blockBytes - count);
            System.arraycopy(b, off, block, count, n);
            count += n;
            off += n;
            len -= n;
            if (count == blockBytes) {
                submit(false);
            }
        }
    }

    /** Starts a run that can be written again ({@link #endRun()}); the bytes before it are deflated apart. */
    public void beginRun() throws IOException {
        if (run != null) {
            throw new IllegalStateException("a run is already open");
        }
        cut();
        run = new ArrayList<>();
        runLength = 0;
    }

    /** Ends the run begun by {@link #beginRun()}: its pieces, for {@link #writeRun} in a later body. */
    public DeflatedRun endRun() throws IOException {
        if (run == null) {
            throw new IllegalStateException("no run is open");
        }
        cut();
        DeflatedRun done = new DeflatedRun(run, runLength);
        run = null;
        return done;
    }

    /**
     * Writes the pieces of a run deflated by an earlier body, as if its text were written; false (nothing written)
     * when that run did not complete, and its text must be written instead.
     */
    public boolean writeRun(DeflatedRun deflated) throws IOException {
        if (closed) {
            throw new IOException("the gzip stream is closed");
        }
        if (run != null) {
            throw new IllegalStateException("a run is open");
        }
        if (!deflated.complete()) {
            return false;
        }
        cut();
        pending.addAll(deflated.pieces);
        drain();
        return true;
    }

    /**
     * Deflates the block so far on its own, ending on a byte boundary, and starts the next without a dictionary: what
     * follows refers to nothing before this point, and what precedes refers to nothing after it.
     */
    private void cut() throws IOException {
        if (closed) {
            throw new IOException("the gzip stream is closed");
        }
        if (count > 0) {
            submit(false);
        }
        previous = null;
    }

    /** Compresses what is left, writes every block, the trailer, and closes the underlying stream. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            run = null;
            submit(true);
            while (!pending.isEmpty()) {
                writeOut(await(pending.poll()));
            }
            writeIntLe(crc);
            writeIntLe((int) total); // ISIZE: the length modulo 2^32
        } finally {
            out.close();
        }
    }

    private void submit(boolean last) throws IOException {
        int length = count;
        // a full block goes as it is and a new one is taken; a part (a run's end) is copied and the block reused, so
        // that a body of many short runs does not allocate a block per run
        boolean whole = length == blockBytes || last;
        byte[] data = whole ? block : Arrays.copyOf(block, length);
        byte[] dictionary = previous;
        CompletableFuture<Piece> piece;
        try {
            piece = CompletableFuture.supplyAsync(() -> piece(data, length, dictionary, last), executor);
        } catch (RuntimeException e) { // the executor refused the block (closed or full)
            throw new IOException("cannot compress the exposition: " + e, e);
        }
        pending.add(piece);
        if (run != null) {
            run.add(piece);
            runLength += length;
        }
        previous = data;
        if (whole) {
            block = last ? null : new byte[blockBytes];
        }
        count = 0;
        drain();
    }

    /** Writes out what is deflated, in order; waits only when too many blocks are on their way. */
    private void drain() throws IOException {
        while (!pending.isEmpty() && (pending.size() >= maxInFlight || pending.peek().isDone())) {
            writeOut(await(pending.poll()));
        }
    }

    private void writeOut(Piece piece) throws IOException {
        out.write(piece.deflated());
        crc = Crc32Combine.combine(crc, piece.crc(), piece.length());
        total += piece.length();
    }

    private static Piece piece(byte[] data, int length, byte[] dictionary, boolean last) {
        CRC32 checksum = new CRC32();
        checksum.update(data, 0, length);
        return new Piece(deflate(data, length, dictionary, last), (int) checksum.getValue(), length);
    }

    private static <T> T await(CompletableFuture<T> compressed) throws IOException {
        try {
            return compressed.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while compressing the exposition");
        } catch (ExecutionException e) {
            throw new IOException("cannot compress the exposition: " + e.getCause(), e.getCause());
        }
    }

    /** Raw deflate of one block, ending on a byte boundary, or with deflate's final block when {@code last}. */
    static byte[] deflate(byte[] data, int length, byte[] dictionary, boolean last) {
        Deflater deflater = DEFLATERS.get();
        deflater.reset();
        try {
            if (dictionary != null) {
                int from = Math.max(0, dictionary.length - DICTIONARY_BYTES);
                deflater.setDictionary(dictionary, from, dictionary.length - from);
            }
            deflater.setInput(data, 0, length);
            if (last) {
                deflater.finish();
            }
            byte[] output = new byte[Math.max(256, length / 8)];
            int size = 0;
            while (true) {
                int space = output.length - size;
                int written = deflater.deflate(output, size, space, last ? Deflater.NO_FLUSH : Deflater.SYNC_FLUSH);
                size += written;
                // a sync flush is complete once it leaves output space unused; the last block once deflate says so
                if (last ? deflater.finished() : written < space) {
                    return Arrays.copyOf(output, size);
                }
                if (size == output.length) {
                    output = Arrays.copyOf(output, output.length * 2);
                }
            }
        } finally {
            deflater.reset(); // drops the input and dictionary references
        }
    }

    private void writeIntLe(int v) throws IOException {
        out.write(new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)});
    }
}
