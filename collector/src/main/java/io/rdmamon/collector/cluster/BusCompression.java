package io.rdmamon.collector.cluster;

import io.vertx.core.buffer.Buffer;

import java.io.ByteArrayOutputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * zlib (deflate at the fastest level) of large event-bus payloads between replicas: the dashboards' fleet rows,
 * about 1.7 KB of JSON per node each tick, shrink about tenfold, which is the difference between 7 MB/s and well under
 * 1 MB/s between three replicas at 2,000 nodes with a dashboard open (docs/performance.md, "Collector cluster").
 * Inflating is bounded, so a payload that would expand past the bound is refused, not held.
 */
public final class BusCompression {
    private static final int CHUNK = 64 * 1024;

    private BusCompression() {
    }

    public static Buffer deflate(Buffer plain) {
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try {
            deflater.setInput(plain.getBytes());
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(256, plain.length() / 8));
            byte[] chunk = new byte[CHUNK];
            while (!deflater.finished()) {
                out.write(chunk, 0, deflater.deflate(chunk));
            }
            return Buffer.buffer(out.toByteArray());
        } finally {
            deflater.end();
        }
    }

    /**
     * The payload {@link #deflate} made of {@code deflated}.
     *
     * @throws IllegalArgumentException when it is not zlib data, is truncated, or expands past {@code maxBytes}
     */
    public static Buffer inflate(Buffer deflated, int maxBytes) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(deflated.getBytes());
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(maxBytes, deflated.length() * 8));
            byte[] chunk = new byte[CHUNK];
            while (!inflater.finished()) {
                int n = inflater.inflate(chunk);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IllegalArgumentException("truncated deflate payload (" + deflated.length() + " bytes)");
                }
                if (out.size() + n > maxBytes) {
                    throw new IllegalArgumentException("deflate payload expands past " + maxBytes + " bytes");
                }
                out.write(chunk, 0, n);
            }
            return Buffer.buffer(out.toByteArray());
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("not a deflate payload: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }
}
