package io.rdmamon.agent.sysfs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Small-file I/O for sysfs and the classification of its failures. */
public final class SysfsFiles {
    /** A sysfs attribute is at most one page; anything longer is not an attribute we understand. */
    static final int MAX_ATTRIBUTE_BYTES = 4096;
    /**
     * One read buffer per sampling thread: a fresh 4 KiB buffer per file was about 10 MB/s of garbage
     * at the agent's 2,600 reads per second (docs/performance.md).
     */
    private static final ThreadLocal<ByteBuffer> BUFFER = ThreadLocal.withInitial(() -> ByteBuffer.allocate(MAX_ATTRIBUTE_BYTES));

    private SysfsFiles() {
    }

    /**
     * One bounded read, trimmed. A single {@code read(2)} returns a whole sysfs attribute; looping
     * until EOF (as {@code Files.readString} does) can spin forever on drivers that answer EAGAIN.
     * Trimming also drops the extra blank line some kernels print (mlx4 {@code link_layer}).
     */
    public static String readOnce(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = buffer().clear();
            int count = channel.read(buffer);
            return count <= 0 ? "" : new String(buffer.array(), 0, count, StandardCharsets.UTF_8).strip();
        }
    }

    /** This thread's read buffer, {@link #MAX_ATTRIBUTE_BYTES} long, its array accessible. */
    static ByteBuffer buffer() {
        return BUFFER.get();
    }

    /** What went wrong with a read, in the terms the readers act on. */
    public enum Failure {
        /** ENOENT/ENOTDIR: the file (or its directory) does not exist. */
        ABSENT,
        /**
         * EINVAL, EOPNOTSUPP, ENOSYS: the kernel has no value to give. It answers so for the attributes
         * of empty GID entries and, on modern kernels, for PMA counters the device cannot answer.
         */
        NO_VALUE,
        /** EACCES/EPERM. */
        DENIED,
        /** Anything else (EIO, EISDIR, ...). */
        OTHER
    }

    public static Failure classify(IOException e) {
        if (e instanceof NoSuchFileException || e instanceof NotDirectoryException) {
            return Failure.ABSENT;
        }
        if (e instanceof AccessDeniedException) {
            return Failure.DENIED;
        }
        // Read errors after a successful open carry only strerror() text, no typed exception.
        String reason = reason(e);
        if ("Invalid argument".equals(reason) || "Operation not supported".equals(reason)
                || "Function not implemented".equals(reason)) {
            return Failure.NO_VALUE;
        }
        if ("Permission denied".equals(reason) || "Operation not permitted".equals(reason)) {
            return Failure.DENIED;
        }
        if ("No such file or directory".equals(reason) || "Not a directory".equals(reason)) {
            return Failure.ABSENT;
        }
        return Failure.OTHER;
    }

    /** A short reason without the path (callers name the file themselves). */
    public static String describe(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        String reason = reason(e);
        return reason == null || reason.isBlank() ? e.getClass().getSimpleName() : reason;
    }

    private static String reason(IOException e) {
        return e instanceof FileSystemException fse ? fse.getReason() : e.getMessage();
    }
}
