package io.rdmamon.agent.kmsg;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * A capture of {@code /dev/kmsg} under a host root ({@code <root>/kmsg}), read from its start, so a fixture reads like
 * a live host whose records were all logged after the agent started; records appended to it later are read by later
 * polls, as a live host's new records are (the simulator logs its faults that way). A writer appends whole records.
 * One read costs at most its last {@link #MAX_BYTES}. A seq gap between two records counts as records overwritten, as
 * EPIPE would on a live host.
 */
public final class CapturedKmsgFeed implements KernelRecordFeed {
    /** The most of a capture read: 1,000 records of a typical length. */
    static final int MAX_BYTES = 1 << 20;

    private final Path file;
    private final Deque<KmsgRecord> pending = new ArrayDeque<>();
    /** How many bytes of the capture were read. */
    private long consumed;
    private long lastSeq = -1;

    public CapturedKmsgFeed(Path file) {
        this.file = file;
    }

    @Override
    public Poll poll(int max) throws IOException {
        if (pending.isEmpty()) {
            pending.addAll(KmsgCapture.records(unread()));
        }
        List<KmsgRecord> records = new ArrayList<>();
        long overwritten = 0;
        while (records.size() < max && !pending.isEmpty()) {
            KmsgRecord record = pending.poll();
            if (lastSeq >= 0 && record.seq() > lastSeq + 1) {
                overwritten += record.seq() - lastSeq - 1;
            }
            lastSeq = record.seq();
            records.add(record);
        }
        return new Poll(records, overwritten, !pending.isEmpty());
    }

    /** What was appended since the last read, or its last {@link #MAX_BYTES} from the first record starting in them. */
    private byte[] unread() throws IOException {
        long size = Files.size(file);
        if (size <= consumed) {
            return new byte[0];
        }
        try (InputStream in = Files.newInputStream(file)) {
            long skip = Math.max(consumed, size - MAX_BYTES);
            in.skipNBytes(skip);
            byte[] bytes = in.readNBytes((int) (size - skip));
            boolean cut = skip > consumed;
            consumed = skip + bytes.length;
            if (!cut) {
                return bytes;
            }
            int start = 0;
            while (start < bytes.length && (start == 0 || bytes[start - 1] != '\n' || bytes[start] == ' ')) {
                start++;
            }
            return Arrays.copyOfRange(bytes, start, bytes.length);
        }
    }

    @Override
    public void close() {
        // nothing held open between polls
    }
}
