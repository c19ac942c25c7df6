package io.rdmamon.agent.kmsg;

import java.io.IOException;
import java.util.List;

/** Where kernel records come from: the live {@code /dev/kmsg} or a capture of it. */
public interface KernelRecordFeed extends AutoCloseable {
    /**
     * Up to {@code max} records logged since the last poll.
     *
     * @throws java.nio.file.AccessDeniedException when the reader lacks the privilege (CAP_SYSLOG): unsupported
     * @throws IOException                         when the log cannot be read
     */
    Poll poll(int max) throws IOException;

    @Override
    void close();

    /**
     * One poll's records.
     *
     * @param records     the records read, in order
     * @param overwritten records the kernel overwrote before they were read
     * @param more        whether records were left for the next poll
     */
    record Poll(List<KmsgRecord> records, long overwritten, boolean more) {
        public Poll {
            records = List.copyOf(records);
        }
    }
}
