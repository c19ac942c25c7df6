package io.rdmamon.agent.kmsg;

import io.rdmamon.nativeio.KernelLog;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The live {@code /dev/kmsg}, opened non-blocking at its end on the first poll (records logged before the agent started
 * are not its news). A poll reads until the kernel has no more ({@code EAGAIN}) or {@code max} records were read; an
 * {@code EPIPE} (records overwritten under the reader) is counted and reading goes on.
 */
public final class DevKmsgFeed implements KernelRecordFeed {
    private final String path;
    private final byte[] buffer = new byte[KernelLog.RECORD_BYTES];
    private KernelLog log;

    public DevKmsgFeed(String path) {
        this.path = path;
    }

    @Override
    public Poll poll(int max) throws IOException {
        if (log == null) {
            log = KernelLog.openAtEnd(path);
        }
        List<KmsgRecord> records = new ArrayList<>();
        long overwritten = 0;
        while (records.size() < max) {
            int length = log.read(buffer);
            if (length == KernelLog.CAUGHT_UP) {
                return new Poll(records, overwritten, false);
            }
            if (length == KernelLog.OVERWRITTEN) {
                overwritten++;
                continue;
            }
            KmsgRecord record = KmsgRecordParser.parse(buffer, length);
            if (record != null) {
                records.add(record);
            }
        }
        return new Poll(records, overwritten, true);
    }

    @Override
    public void close() {
        if (log != null) {
            log.close();
            log = null;
        }
    }
}
