package io.rdmamon.collector.http;

import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Streams a response body written on a worker thread: bytes are cut into chunks, each chunk is handed to
 * the response on its own context (the event loop only copies buffers to the socket), and the writer
 * blocks while {@value #IN_FLIGHT} chunks are not yet written to the socket (back-pressure instead of
 * buffering the whole body; a chunk's permit returns when its write completes, which needs no drain
 * event). Fails with an IOException once the client has gone or has stopped reading for
 * {@value #STALL_SECONDS} s. {@link #finish} ends the response after the last chunk, on the same queue
 * (ending it from a future listener could overtake chunks still queued on the context).
 */
final class ResponseOutputStream extends OutputStream {
    private static final int CHUNK_BYTES = 1024 * 1024;
    private static final int IN_FLIGHT = 8;
    private static final long STALL_SECONDS = 60;
    private final Context context;
    private final HttpServerResponse response;
    private final Semaphore chunksAllowed = new Semaphore(IN_FLIGHT);
    private volatile boolean clientGone;
    private byte[] chunk = new byte[CHUNK_BYTES];
    private int count;

    /** Call on the response's context (it installs the close handler there). */
    ResponseOutputStream(Context context, HttpServerResponse response) {
        this.context = context;
        this.response = response;
        response.closeHandler(v -> {
            clientGone = true;
            chunksAllowed.release(IN_FLIGHT);
        });
    }

    @Override
    public void write(int b) throws IOException {
        if (count == chunk.length) {
            send();
        }
        chunk[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            if (count == chunk.length) {
                send();
            }
            int n = Math.min(len, chunk.length - count);
            System.arraycopy(b, off, chunk, count, n);
            count += n;
            off += n;
            len -= n;
        }
    }

    /** Sends what is buffered; {@link #finish} ends the response. */
    @Override
    public void close() throws IOException {
        send();
    }

    /**
     * Ends the response after every chunk sent so far, or, when the body could not be written, hands
     * {@code failure} to {@code onFailure} there; nothing when the client has gone.
     */
    void finish(Throwable failure, Handler<Throwable> onFailure) {
        context.runOnContext(v -> {
            if (clientGone) {
                return;
            }
            if (failure == null) {
                response.end();
            } else {
                onFailure.handle(failure);
            }
        });
    }

    private void send() throws IOException {
        if (count == 0) {
            return;
        }
        try {
            if (!chunksAllowed.tryAcquire(STALL_SECONDS, TimeUnit.SECONDS)) {
                throw new IOException("the client read nothing for " + STALL_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the client was reading");
        }
        if (clientGone) {
            throw new IOException("the client closed the connection");
        }
        Buffer buffer = Buffer.buffer(count == chunk.length ? chunk : java.util.Arrays.copyOf(chunk, count));
        chunk = new byte[CHUNK_BYTES];
        count = 0;
        context.runOnContext(v -> {
            if (clientGone) {
                chunksAllowed.release();
                return;
            }
            response.write(buffer).onComplete(written -> chunksAllowed.release());
        });
    }
}
