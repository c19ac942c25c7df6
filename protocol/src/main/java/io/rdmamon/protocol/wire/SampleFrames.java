package io.rdmamon.protocol.wire;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.SourceStatus;
import io.rdmamon.protocol.text.HostText;
import io.rdmamon.protocol.text.WireLimits;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The agent's frames of one sample, encoded, each within the collector's frame size ({@link FrameCodec#maxFrameBytes}).
 * {@link HostSampleLimits} bounds names, counts and label bytes; within those a sample can still encode past the
 * frame: two million one-character names take 4 bytes each in a layout and up to 21 in a values frame, a name of
 * quotes or backslashes doubles when escaped, a port may list 1,024 GIDs. A sample whose frames fit is encoded once,
 * as before, and sent as it is. One whose frames do not is made to fit, deterministically, so that the same sample
 * always loses the same parts and its layout does not change from sample to sample: source statuses past a quarter
 * of the frame, then whole devices, largest (layout and values bytes) first, then nccl.conf, then the GPU topology.
 * Each part left out is named by a failed {@value HostSampleLimits#SOURCE} status. At most one pass over the parts:
 * it ends even when nothing is left to leave out.
 */
public final class SampleFrames {
    /**
     * Room kept for what a hello adds to a layout (node, version, capabilities, instance): 64 KiB, or a quarter of a
     * frame a collector configured smaller.
     */
    static final int HELLO_HEADROOM = 64 * 1024;

    private final FrameCodec codec;
    /** Bytes a layout or values frame may take when parts are left out; the frame less the hello's own fields. */
    private final int budget;
    private final long seq;
    /** What was left out, by subject. */
    private final Map<String, String> leftOut = new LinkedHashMap<>();

    private SampleFrames(FrameCodec codec, long seq) {
        this.codec = codec;
        this.budget = codec.maxFrameBytes() - Math.min(HELLO_HEADROOM, codec.maxFrameBytes() / 4);
        this.seq = seq;
    }

    /**
     * The frames of {@code sample}, fitted ({@link HostSampleLimits}), as {@code codec} encodes them after
     * {@link HostTextFrames#sanitize}; {@code encoder} remembers the layout sent.
     */
    public static List<byte[]> encode(SampleEncoder encoder, FrameCodec codec, HostSample sample, long seq) {
        // fitted before encoding, not per frame: what it leaves out of the layout leaves the values frame too
        HostSample fitted = HostSampleLimits.fit(sample);
        List<Frame> frames = encoder.frames(fitted, seq);
        List<byte[]> encoded = encode(codec, frames);
        if (encoded.stream().anyMatch(bytes -> bytes.length > codec.maxFrameBytes())) {
            frames = encoder.frames(new SampleFrames(codec, seq).fit(fitted), seq);
            encoded = encode(codec, frames);
        }
        encoder.sent(frames);
        return encoded;
    }

    private static List<byte[]> encode(FrameCodec codec, List<Frame> frames) {
        return frames.stream().map(frame -> codec.encode(HostTextFrames.sanitize(frame))).toList();
    }

    /** {@code s} with parts left out until its layout and values frames take at most {@link #budget} bytes each. */
    private HostSample fit(HostSample s) {
        HostSample sample = withSources(s, boundSources(s.sources()));
        List<IbDevice> devices = sample.devices();
        int[] layoutBytes = new int[devices.size()];
        int[] valuesBytes = new int[devices.size()];
        Size none = size(with(sample, List.of(), sample.sources()));
        long layoutSum = none.layout;
        long valuesSum = none.values;
        for (int i = 0; i < devices.size(); i++) {
            Size alone = size(with(sample, List.of(devices.get(i)), sample.sources()));
            layoutBytes[i] = alone.layout - none.layout;
            valuesBytes[i] = alone.values - none.values;
            layoutSum += layoutBytes[i];
            valuesSum += valuesBytes[i];
        }
        // the frames' sizes add up but for a comma per device, so the estimate decides and one encode confirms
        List<Integer> largestFirst = IntStream.range(0, devices.size()).boxed()
                .sorted(Comparator.comparingLong((Integer i) -> -(long) layoutBytes[i] - valuesBytes[i])
                        .thenComparing(i -> i)).toList();
        boolean[] dropped = new boolean[devices.size()];
        int next = 0;
        while (next < largestFirst.size() && (layoutSum > budget || valuesSum > budget)) {
            int i = largestFirst.get(next++);
            dropped[i] = true;
            layoutSum -= layoutBytes[i];
            valuesSum -= valuesBytes[i];
            leftOut(devices.get(i).name(), "device left out: its layout and values take " + layoutBytes[i] + " and "
                    + valuesBytes[i] + " bytes, past the collector's frame of " + codec.maxFrameBytes()
                    + " bytes beside the rest of the sample (the largest devices are left out first)");
        }
        HostSample candidate = withStatuses(sample, dropped);
        while (!fits(candidate) && next < largestFirst.size()) {
            int i = largestFirst.get(next++);
            dropped[i] = true;
            leftOut(devices.get(i).name(), "device left out: the rest of the sample still passed the collector's"
                    + " frame of " + codec.maxFrameBytes() + " bytes");
            candidate = withStatuses(sample, dropped);
        }
        if (!fits(candidate) && sample.ncclConf() != null) {
            sample = new HostSample(sample.node(), sample.timestampMillis(), sample.devices(), sample.sources(), null,
                    sample.topology(), sample.kernel(), sample.health());
            leftOut(HostSampleLimits.HOST, "nccl.conf left out: the sample passed the collector's frame");
            candidate = withStatuses(sample, dropped);
        }
        if (!fits(candidate) && sample.topology() != null) {
            sample = new HostSample(sample.node(), sample.timestampMillis(), sample.devices(), sample.sources(),
                    sample.ncclConf(), null, sample.kernel(), sample.health());
            leftOut(HostSampleLimits.HOST, "GPU topology left out: the sample passed the collector's frame");
            candidate = withStatuses(sample, dropped);
        }
        return candidate;
    }

    /**
     * The first statuses that take at most a quarter of the budget, and one saying how many were left out: statuses
     * are bounded in number and text, not in bytes (1,024 of 4,096 characters each can take 12 MiB).
     */
    private List<SourceStatus> boundSources(List<SourceStatus> sources) {
        int empty = codec.encode(values(List.of())).length;
        long room = budget / 4;
        List<SourceStatus> kept = new ArrayList<>();
        for (SourceStatus status : sources) {
            room -= codec.encode(values(List.of(status))).length - empty;
            if (room < 0) {
                leftOut(HostSampleLimits.HOST, (sources.size() - kept.size()) + " source statuses left out: their texts"
                        + " passed a quarter of the collector's frame of " + codec.maxFrameBytes() + " bytes");
                return kept;
            }
            kept.add(status);
        }
        return sources;
    }

    private Frame.Values values(List<SourceStatus> sources) {
        return (Frame.Values) HostTextFrames.sanitize(new Frame.Values(1, seq, 0, new long[0], new BitSet(),
                sources));
    }

    /** {@code sample} without its {@code dropped} devices, with a status for each subject something was left out of. */
    private HostSample withStatuses(HostSample sample, boolean[] dropped) {
        List<IbDevice> kept = IntStream.range(0, dropped.length).filter(i -> !dropped[i])
                .mapToObj(sample.devices()::get).toList();
        Map<String, String> reasons = new LinkedHashMap<>(leftOut);
        List<SourceStatus> sources = new ArrayList<>();
        for (SourceStatus s : sample.sources()) {
            // one wire-limits status per subject: what the fit said of a device left out follows what left it out
            String more = s.source().equals(HostSampleLimits.SOURCE) ? reasons.get(s.subject()) : null;
            if (more == null) {
                sources.add(s);
            } else {
                reasons.put(s.subject(), more + "; " + s.error());
            }
        }
        // the statuses added here stay within the count a sample may carry: the last ones of the host make room
        int room = WireLimits.MAX_SOURCES - reasons.size() - (reasons.containsKey(HostSampleLimits.HOST) ? 0 : 1);
        if (sources.size() > room) {
            reasons.merge(HostSampleLimits.HOST, (sources.size() - room) + " source statuses left out: a sample"
                    + " carries at most " + WireLimits.MAX_SOURCES, (first, then) -> first + "; " + then);
            sources.subList(room, sources.size()).clear();
        }
        reasons.forEach((subject, reason) -> sources.add(SourceStatus.failed(HostSampleLimits.SOURCE, subject,
                HostText.text(reason, WireLimits.MAX_TEXT_CHARS))));
        return with(sample, kept, sources);
    }

    private void leftOut(String subject, String reason) {
        leftOut.merge(subject, reason, (first, then) -> first + "; " + then);
    }

    private boolean fits(HostSample sample) {
        Size size = size(sample);
        return size.layout <= budget && size.values <= budget;
    }

    /** The bytes of {@code sample}'s layout frame and values frame. */
    private Size size(HostSample sample) {
        HostLayout layout = HostLayout.of(sample);
        return new Size(codec.encode(HostTextFrames.sanitize(new Frame.LayoutChange(Integer.MAX_VALUE, layout))).length,
                codec.encode(HostTextFrames.sanitize(ValueSlots.flatten(layout, Integer.MAX_VALUE, seq, sample))).length);
    }

    private record Size(int layout, int values) {
    }

    private static HostSample with(HostSample s, List<IbDevice> devices, List<SourceStatus> sources) {
        return new HostSample(s.node(), s.timestampMillis(), devices, sources, s.ncclConf(), s.topology(), s.kernel(),
                s.health());
    }

    private static HostSample withSources(HostSample s, List<SourceStatus> sources) {
        return with(s, s.devices(), sources);
    }
}
