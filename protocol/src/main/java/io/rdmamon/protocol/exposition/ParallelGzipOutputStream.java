package io.rdmamon.protocol.exposition;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.Arrays;
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
 */
public final class ParallelGzipOutputStream extends OutputStream {
    static final int BLOCK_BYTES = 1024 * 1024;
    /** Deflate's window: what a block's compressor may refer back to. */
    private static final int DICTIONARY_BYTES = 32 * 1024;
    private static final byte[] HEADER = {0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, 0};

    private final OutputStream out;
    private final Executor executor;
    private final int maxInFlight;
    private final int blockBytes;
    private final ArrayDeque<CompletableFuture<byte[]>> pending = new ArrayDeque<>();
    private final CRC32 crc = new CRC32();
    private long total;
    private byte[] previous;
    private byte[] block;
    private int count;
    private boolean closed;

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

    /** Compresses what is left, writes every block, the trailer, and closes the underlying stream. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            submit(true);
            while (!pending.isEmpty()) {
                out.write(await(pending.poll()));
            }
            writeIntLe((int) crc.getValue());
            writeIntLe((int) total); // ISIZE: the length modulo 2^32
        } finally {
            out.close();
        }
    }

    private void submit(boolean last) throws IOException {
        byte[] data = block;
        int length = count;
        byte[] dictionary = previous;
        crc.update(data, 0, length);
        total += length;
        try {
            pending.add(CompletableFuture.supplyAsync(() -> deflate(data, length, dictionary, last), executor));
        } catch (RuntimeException e) { // the executor refused the block (closed or full)
            throw new IOException("cannot compress the exposition: " + e, e);
        }
        previous = data;
        block = last ? null : new byte[blockBytes];
        count = 0;
        // write out what is done, in order; wait only when too many blocks are on their way
        while (!pending.isEmpty() && (pending.size() >= maxInFlight || pending.peek().isDone())) {
            out.write(await(pending.poll()));
        }
    }

    private static byte[] await(CompletableFuture<byte[]> compressed) throws IOException {
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
        Deflater deflater = new Deflater(Deflater.BEST_SPEED, true);
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
            deflater.end();
        }
    }

    private void writeIntLe(int v) throws IOException {
        out.write(new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)});
    }
}
