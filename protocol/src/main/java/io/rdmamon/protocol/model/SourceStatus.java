package io.rdmamon.protocol.model;

/**
 * Health of one source for one subject in one sample. One odd device never blanks the node:
 * a failure is recorded here and everything else is still read.
 *
 * <p>Three outcomes ({@link #outcome()}): read; failed ({@code success} false, {@code error} says why); or
 * unsupported: the device or kernel lacks the optional capability (a NIC without DCB, a kernel without uverbs), so
 * nothing failed and there was nothing to read ({@code success} true, {@code unsupported} says why). Unsupported
 * is a kind of success on purpose: a reader that knows only {@code success} (a collector before the field, an
 * alert on {@code rdma_source_success}) counts it as not failing, which is what it is.
 *
 * @param source      {@code sysfs}, {@code ethtool}, {@code verbs}, {@code qos}, {@code module}, {@code fec},
 *                    {@code lldp}, {@code rdma-netlink} or {@code wire-limits} (names cut or items left out to fit the
 *                    collector's limits, {@code io.rdmamon.protocol.wire.HostSampleLimits})
 * @param subject     what was read: a device ({@code mlx5_0}), a port ({@code mlx5_0/1}) or a netdev
 * @param success     false only when a read failed
 * @param error       one-line reason naming the file or call at fault; null unless failed
 * @param unsupported one-line reason naming the capability the subject lacks ({@code no DCB support on eth1
 *                    (EOPNOTSUPP)}); null unless unsupported
 */
public record SourceStatus(String source, String subject, boolean success, String error, String unsupported) {
    /** What became of one source's read of one subject. */
    public enum Outcome {
        OK, UNSUPPORTED, FAILED;

        /** {@code ok}, {@code unsupported}, {@code failed}: as the API and the dashboard name it. */
        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public SourceStatus {
        if (unsupported != null && (!success || error != null)) {
            throw new IllegalArgumentException(source + " " + subject + ": unsupported is neither failed nor an error");
        }
    }

    public static SourceStatus ok(String source, String subject) {
        return new SourceStatus(source, subject, true, null, null);
    }

    public static SourceStatus failed(String source, String subject, String error) {
        return new SourceStatus(source, subject, false, error, null);
    }

    /** {@code subject} lacks the capability {@code source} reads; {@code reason} names it and how that was told. */
    public static SourceStatus unsupported(String source, String subject, String reason) {
        return new SourceStatus(source, subject, true, null, reason);
    }

    public Outcome outcome() {
        return !success ? Outcome.FAILED : unsupported != null ? Outcome.UNSUPPORTED : Outcome.OK;
    }

    /** Why it was not read: the error when failed, the missing capability when unsupported; null when read. */
    public String reason() {
        return success ? unsupported : error;
    }
}
