package io.rdmamon.agent.kmsg;

import io.rdmamon.protocol.model.KernelEvents;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The agent's memory of the kernel log: cumulative counts of each recognised kind per port, and the last
 * {@link #RECENT} records recognised. Bounded whatever the kernel logs: a sample reads at most
 * {@link #RECORDS_PER_SAMPLE} records (a flood is left in the kernel's ring, where it is overwritten and counted, never
 * read into memory), counts are kept for at most {@link #MAX_COUNTS} kinds and ports (the rest are counted without
 * their port), and the texts kept are {@link KmsgRecordParser#MAX_TEXT_CHARS} long at most. Not thread-safe: the
 * sampling thread owns it.
 */
public final class KernelEventLog {
    /** Records read per sample: a 100,000-line flood costs 50 samples of parsing, none of them long. */
    static final int RECORDS_PER_SAMPLE = 2_000;
    /** Records recognised that are kept, newest last. */
    public static final int RECENT = KernelEvents.MAX_RECENT;
    /** Distinct kind, severity, device and port counts kept. */
    /** Half the counts a frame may carry: the rest is room for the unplaced count of each kind. */
    static final int MAX_COUNTS = KernelEvents.MAX_COUNTS / 2;

    /** Where a record's subject is on this host: an RDMA device and port, either empty when unknown. */
    public record Place(String device, String port) {
        public static final Place NOWHERE = new Place("", "");
    }

    private record CountKey(String kind, String severity, Place place) {
    }

    private final KernelRecordFeed feed;
    private final Map<CountKey, Long> counts = new HashMap<>();
    private final Deque<KernelEvents.Event> recent = new ArrayDeque<>();
    private long overwritten;
    private boolean behind;

    public KernelEventLog(KernelRecordFeed feed) {
        this.feed = feed;
    }

    /**
     * Reads what the kernel logged since the last sample, placing each event with {@code places}; the counts and
     * recent events so far.
     *
     * @throws IOException as the feed's poll ({@link java.nio.file.AccessDeniedException}: no privilege)
     */
    public KernelEvents sample(Function<KernelEvent.Subject, Place> places, long nowMillis) throws IOException {
        KernelRecordFeed.Poll poll = feed.poll(RECORDS_PER_SAMPLE);
        overwritten += poll.overwritten();
        behind = poll.more();
        for (KmsgRecord record : poll.records()) {
            KernelEvent event = KernelEventPatterns.classify(record);
            if (event != null) {
                add(event, places.apply(event.subject()), nowMillis);
            }
        }
        List<KernelEvents.Count> list = new ArrayList<>(counts.size());
        counts.forEach((key, total) -> list.add(new KernelEvents.Count(key.kind(), key.severity(),
                key.place().device(), key.place().port(), total)));
        list.sort(Comparator.comparing(KernelEvents.Count::kind).thenComparing(KernelEvents.Count::severity)
                .thenComparing(KernelEvents.Count::device).thenComparing(KernelEvents.Count::port));
        return new KernelEvents(KernelEventPatterns.VERSION, overwritten, list, List.copyOf(recent));
    }

    /** Whether the last sample left records unread (a flood: read on by the next samples). */
    public boolean behind() {
        return behind;
    }

    private void add(KernelEvent event, Place place, long nowMillis) {
        CountKey key = new CountKey(event.kind(), event.severity(), place);
        if (!counts.containsKey(key) && counts.size() >= MAX_COUNTS) {
            key = new CountKey(event.kind(), event.severity(), Place.NOWHERE);
        }
        counts.merge(key, 1L, Long::sum);
        KmsgRecord record = event.record();
        recent.addLast(new KernelEvents.Event(record.seq(), nowMillis, record.timestampMicros(), record.level(),
                event.kind(), event.severity(), place.device(), place.port(), record.text()));
        if (recent.size() > RECENT) {
            recent.removeFirst();
        }
    }

    public void close() {
        feed.close();
    }
}
