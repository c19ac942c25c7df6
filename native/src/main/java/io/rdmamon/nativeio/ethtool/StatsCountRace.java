package io.rdmamon.nativeio.ethtool;

/**
 * What to do when {@code ETHTOOL_GSTRINGS}/{@code ETHTOOL_GSTATS} answer with a different count
 * than asked for.
 *
 * <p>The driver's statistics count is re-read by the kernel on every call and can change between
 * {@code ETHTOOL_GSSET_INFO} and the following calls (mlx5 changes it with the PFC configuration,
 * the channel count, PTP or QoS queues). Kernels with commit 7b07be1ff1cb ("ethtool: Avoid
 * overflowing userspace buffer on stats query", also in the stable trees) then answer
 * {@code len}/{@code n_stats = 0} and copy nothing; older kernels ignore the asked count and copy
 * the current one. Either way the answer is unusable and the whole sequence starts again; older
 * kernels could also write past a buffer sized exactly, hence the {@link #capacity slack}.
 */
final class StatsCountRace {

    /** Rounds of GSSET_INFO → GSTRINGS → GSTATS before giving up. */
    static final int MAX_ATTEMPTS = 5;

    /** Extra entries beyond the asked count, for kernels that copy the current count regardless. */
    static final int SLACK_ENTRIES = 4096;

    enum Verdict {
        /** The kernel answered for exactly the count asked: names and values line up. */
        ACCEPT,
        /** The count changed in between (0 from a fixed kernel, another count from an old one). */
        RETRY,
        /** An old kernel wrote more entries than the buffer holds: memory past it is clobbered. */
        OVERFLOW
    }

    private StatsCountRace() {
    }

    /** Entries to allocate when asking for {@code asked}: twice the count plus {@link #SLACK_ENTRIES}. */
    static int capacity(int asked) {
        return Math.addExact(Math.multiplyExact(asked, 2), SLACK_ENTRIES);
    }

    /**
     * @param asked    the count written into {@code len}/{@code n_stats} before the call
     * @param returned the count the kernel wrote back (unsigned u32)
     * @param capacity how many entries the buffer holds
     */
    static Verdict verdict(long asked, long returned, long capacity) {
        if (returned == asked) {
            return Verdict.ACCEPT;
        }
        return returned > capacity ? Verdict.OVERFLOW : Verdict.RETRY;
    }
}
