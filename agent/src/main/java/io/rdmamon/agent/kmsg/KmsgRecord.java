package io.rdmamon.agent.kmsg;

import java.util.Map;
import java.util.Objects;

/**
 * One record of the kernel's log as {@code /dev/kmsg} hands it out (Documentation/ABI/testing/dev-kmsg): the header
 * {@code prefix,seq,usec,flags;} then the text, then the continuation lines {@code  KEY=VALUE} that {@code dev_printk}
 * adds ({@code SUBSYSTEM=pci}, {@code DEVICE=+pci:0000:3b:00.0}).
 *
 * @param facility        {@code prefix >> 3}: 0 is the kernel; every write from userspace is forced to 1 (LOG_USER)
 *                        unless it names a non-zero facility itself (kernel/printk/printk.c {@code devkmsg_write})
 * @param level           {@code prefix & 7}: 0 emergency … 7 debug
 * @param seq             the record's 64-bit sequence number; a gap between two reads is records overwritten
 * @param timestampMicros microseconds since boot (CLOCK_MONOTONIC) when the record was logged
 * @param text            the message, {@code \xNN} escapes decoded, bytes that are not UTF-8 replaced
 * @param dictionary      the continuation {@code KEY=VALUE} pairs in record order
 */
public record KmsgRecord(int facility, int level, long seq, long timestampMicros, String text,
                         Map<String, String> dictionary) {
    /** The facility every kernel message carries. */
    public static final int FACILITY_KERNEL = 0;

    public KmsgRecord {
        Objects.requireNonNull(text, "text");
        dictionary = Map.copyOf(dictionary);
    }

    /** Whether the kernel wrote it: userspace cannot write facility 0 through {@code /dev/kmsg}. */
    public boolean fromKernel() {
        return facility == FACILITY_KERNEL;
    }

    /** The dictionary's {@code DEVICE} value ({@code +pci:0000:3b:00.0}, {@code n3}, …); null when absent. */
    public String device() {
        return dictionary.get("DEVICE");
    }
}
