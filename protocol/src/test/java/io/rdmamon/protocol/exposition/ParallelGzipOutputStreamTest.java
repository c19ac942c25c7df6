package io.rdmamon.protocol.exposition;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ParallelGzipOutputStreamTest {
    /** Small blocks, so that a few KiB of input cross several block and dictionary boundaries. */
    private static final int BLOCK = 4096;
    private static final ExecutorService POOL = Executors.newFixedThreadPool(3);

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    /** Exposition-like text: many lines that repeat their names and labels, with changing values. */
    private static byte[] exposition(int lines) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            b.append("rdma_port_rcv_data_bytes_total{device=\"hca_").append(i % 7).append("\",node=\"gpu-")
                    .append(i / 7).append("\",port=\"1\"} ").append(i * 7919L % 1_000_003).append(".0\n");
        }
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] random(int length) {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        return bytes;
    }

    static Stream<byte[]> inputs() {
        byte[] text = exposition(2000);
        return Stream.of(new byte[0], new byte[] {'x'}, Arrays.copyOf(text, BLOCK - 1), Arrays.copyOf(text, BLOCK),
                Arrays.copyOf(text, BLOCK + 1), Arrays.copyOf(text, 3 * BLOCK), text, random(5 * BLOCK + 17));
    }

    private static byte[] compress(byte[] input, Executor executor, int inFlight, int writeSize) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (OutputStream gzip = new ParallelGzipOutputStream(sink, executor, inFlight, BLOCK)) {
            for (int at = 0; at < input.length; at += writeSize) {
                gzip.write(input, at, Math.min(writeSize, input.length - at));
            }
        }
        return sink.toByteArray();
    }

    /**
     * Reads {@code gzip} as exactly ONE member: the fixed header, one deflate stream to its final block, then only
     * the 8-byte trailer (CRC-32 and length of the input). Readers that stop after the first member read it all.
     */
    private static byte[] singleMember(byte[] gzip) throws DataFormatException {
        assertEquals(0x1f, gzip[0] & 0xff);
        assertEquals(0x8b, gzip[1] & 0xff);
        assertEquals(Deflater.DEFLATED, gzip[2]);
        assertEquals(0, gzip[3], "no optional header fields");
        Inflater inflater = new Inflater(true);
        inflater.setInput(gzip, 10, gzip.length - 10);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        while (!inflater.finished()) {
            int n = inflater.inflate(buffer);
            assertTrue(n > 0 || !inflater.needsInput(), "the deflate stream ends before its final block");
            out.write(buffer, 0, n);
        }
        assertEquals(8, inflater.getRemaining(), "only the trailer follows the deflate stream");
        inflater.end();
        byte[] plain = out.toByteArray();
        ByteBuffer trailer = ByteBuffer.wrap(gzip, gzip.length - 8, 8).order(ByteOrder.LITTLE_ENDIAN);
        CRC32 crc = new CRC32();
        crc.update(plain);
        assertEquals((int) crc.getValue(), trailer.getInt(), "CRC-32");
        assertEquals(plain.length, trailer.getInt(), "ISIZE");
        return plain;
    }

    @ParameterizedTest
    @MethodSource("inputs")
    void anyInputComesBackWholeFromOneMemberInlineOrOnAPool(byte[] input) throws Exception {
        for (Executor executor : List.<Executor>of(Runnable::run, POOL)) {
            for (int writeSize : new int[] {1, 1000, BLOCK * 2}) {
                byte[] gzip = compress(input, executor, 2, writeSize);
                assertArrayEquals(input, singleMember(gzip));
                try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
                    assertArrayEquals(input, in.readAllBytes());
                }
            }
        }
    }

    /** Each block is primed with the one before, so block boundaries cost next to nothing in size. */
    @Test
    void compressesAsWellAsOneStreamAtTheSameLevel() throws Exception {
        byte[] text = exposition(20_000);
        ByteArrayOutputStream single = new ByteArrayOutputStream();
        try (OutputStream gzip = ExpositionGzip.fastest(single)) {
            gzip.write(text);
        }
        int parallel = compress(text, POOL, 4, 65536).length;
        assertTrue(parallel < single.size() * 1.05, "parallel " + parallel + " vs one stream " + single.size()
                + " bytes, from " + text.length + " in " + text.length / BLOCK + " blocks");
    }

    /** Finished blocks go out before the end: a large body streams instead of waiting for the last byte. */
    @Test
    void writesFinishedBlocksBeforeClose() throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        OutputStream gzip = new ParallelGzipOutputStream(sink, Runnable::run, 2, BLOCK);
        gzip.write(exposition(2000), 0, 4 * BLOCK);
        assertTrue(sink.size() > 10, "only the header out after four blocks: " + sink.size());
        gzip.close();
    }

    @Test
    void aFailingCompressorFailsTheStreamWithTheCause() throws Exception {
        Executor failing = task -> {
            throw new IllegalStateException("pool closed");
        };
        IOException e = assertThrows(IOException.class, () -> compress(exposition(2000), failing, 2, BLOCK));
        assertTrue(e.getMessage().contains("pool closed"), e.getMessage());
    }

    /**
     * A run deflated in one body and written again in another, at another position and between other text, reads
     * back as its text; a run of a body that failed is refused and its text must be written instead.
     */
    @Test
    void aRunDeflatedInOneBodyIsWrittenAgainInAnother() throws Exception {
        byte[] text = exposition(3000);
        byte[] runText = Arrays.copyOfRange(text, 1000, 1000 + 3 * BLOCK + 77); // more than one block
        ByteArrayOutputStream first = new ByteArrayOutputStream();
        ParallelGzipOutputStream.DeflatedRun run;
        try (ParallelGzipOutputStream gzip = new ParallelGzipOutputStream(first, POOL, 3, BLOCK)) {
            gzip.write(text, 0, 1000);
            gzip.beginRun();
            gzip.write(runText);
            run = gzip.endRun();
            gzip.write(text, 50, 300);
        }
        assertEquals(runText.length, run.length());
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write(text, 0, 1000);
        expected.write(runText);
        expected.write(text, 50, 300);
        assertArrayEquals(expected.toByteArray(), singleMember(first.toByteArray()));

        ByteArrayOutputStream second = new ByteArrayOutputStream();
        try (ParallelGzipOutputStream gzip = new ParallelGzipOutputStream(second, POOL, 3, BLOCK)) {
            gzip.write(text, 7, BLOCK + 5); // a different prefix, ending inside a block
            assertTrue(gzip.writeRun(run));
            assertTrue(gzip.writeRun(run), "twice in a row");
            gzip.write(text, 0, 10);
        }
        ByteArrayOutputStream again = new ByteArrayOutputStream();
        again.write(text, 7, BLOCK + 5);
        again.write(runText);
        again.write(runText);
        again.write(text, 0, 10);
        byte[] plain = singleMember(second.toByteArray());
        assertArrayEquals(again.toByteArray(), plain);
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(second.toByteArray()))) {
            assertArrayEquals(again.toByteArray(), in.readAllBytes());
        }

        Executor failing = task -> {
            throw new IllegalStateException("pool closed");
        };
        ParallelGzipOutputStream broken = new ParallelGzipOutputStream(new ByteArrayOutputStream(), failing, 8, BLOCK);
        broken.beginRun();
        broken.write(runText, 0, 10);
        assertThrows(IOException.class, broken::endRun, "the block cannot be deflated");
        ParallelGzipOutputStream.DeflatedRun queued = deflatedLater(runText);
        ParallelGzipOutputStream next = new ParallelGzipOutputStream(new ByteArrayOutputStream(), POOL, 3, BLOCK);
        assertFalse(next.writeRun(queued), "a run still deflating is not reused");
        next.close();
    }

    /** A run whose one block waits in an executor that never runs it. */
    private static ParallelGzipOutputStream.DeflatedRun deflatedLater(byte[] text) throws IOException {
        List<Runnable> never = new java.util.ArrayList<>();
        ParallelGzipOutputStream gzip = new ParallelGzipOutputStream(new ByteArrayOutputStream(), never::add, 8, BLOCK);
        gzip.beginRun();
        gzip.write(text, 0, 100);
        return gzip.endRun();
    }

    @Test
    void runsMustBeBegunAndEndedInTurn() throws Exception {
        ParallelGzipOutputStream gzip = new ParallelGzipOutputStream(new ByteArrayOutputStream(), Runnable::run, 1, BLOCK);
        assertThrows(IllegalStateException.class, gzip::endRun);
        gzip.beginRun();
        assertThrows(IllegalStateException.class, gzip::beginRun);
        gzip.close();
    }

    @Test
    void writingAfterCloseIsAnError() throws Exception {
        OutputStream gzip = new ParallelGzipOutputStream(new ByteArrayOutputStream(), Runnable::run, 1, BLOCK);
        gzip.close();
        assertThrows(IOException.class, () -> gzip.write(1));
    }
}
