package io.rdmamon.protocol.model;

/**
 * Health of one source for one subject in one sample. One odd device never blanks the node:
 * a failure is recorded here and everything else is still read.
 *
 * @param source  {@code sysfs}, {@code ethtool} or {@code verbs}
 * @param subject what was read: a device ({@code mlx5_0}), a port ({@code mlx5_0/1}) or a netdev
 * @param success true when everything of this subject that exists was read
 * @param error   one-line reason naming the file or call at fault; null on success
 */
public record SourceStatus(String source, String subject, boolean success, String error) {
    public static SourceStatus ok(String source, String subject) {
        return new SourceStatus(source, subject, true, null);
    }

    public static SourceStatus failed(String source, String subject, String error) {
        return new SourceStatus(source, subject, false, error);
    }
}
