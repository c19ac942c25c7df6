package io.rdmamon.collector.metrics;

import java.io.OutputStream;

/** Counts the bytes an exposition writes and drops them: the benches' size without the cost of keeping them. */
public final class CountingSink extends OutputStream {
    private long bytes;

    @Override
    public void write(int b) {
        bytes++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        bytes += len;
    }

    public long bytes() {
        return bytes;
    }
}
