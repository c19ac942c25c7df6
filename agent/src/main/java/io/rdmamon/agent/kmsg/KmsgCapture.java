package io.rdmamon.agent.kmsg;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits a capture of {@code /dev/kmsg} ({@code <root>/kmsg}: the records one after another, as {@code cat /dev/kmsg}
 * writes them) into records: a record is a header line and the continuation lines after it, which start with a space.
 * Pure.
 */
public final class KmsgCapture {
    private KmsgCapture() {
    }

    /** The records in {@code bytes}, in order; lines that are no record (a cut header) are skipped. */
    public static List<KmsgRecord> records(byte[] bytes) {
        List<KmsgRecord> records = new ArrayList<>();
        int start = 0;
        while (start < bytes.length) {
            int end = recordEnd(bytes, start);
            byte[] one = Arrays.copyOfRange(bytes, start, end);
            KmsgRecord record = KmsgRecordParser.parse(one, one.length);
            if (record != null) {
                records.add(record);
            }
            start = end;
        }
        return records;
    }

    /** Where the record starting at {@code start} ends: after the newline before the next line not starting with a space. */
    private static int recordEnd(byte[] bytes, int start) {
        int newline = KmsgRecordParser.indexOf(bytes, start, bytes.length, (byte) '\n');
        while (newline >= 0 && newline + 1 < bytes.length && bytes[newline + 1] == ' ') {
            newline = KmsgRecordParser.indexOf(bytes, newline + 1, bytes.length, (byte) '\n');
        }
        return newline < 0 ? bytes.length : newline + 1;
    }
}
