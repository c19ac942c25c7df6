package io.rdmamon.nativeio;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * Small files read with {@code open(2)}, {@code pread(2)} and {@code close(2)} straight through libc, for the agent's
 * attribute reads: about 500 files a second on an 8-port host, where {@code FileChannel}'s own work around each
 * positional read (interruptible begin and end, its native-thread set, a temporary direct buffer) was a tenth of the
 * reader's time (docs/performance.md). Each thread reads into its own native buffer, copied into the caller's array.
 *
 * <p>Failures carry the exceptions {@code FileChannel} would throw, so callers classify them the same way: a failed
 * open is {@link NoSuchFileException} (ENOENT), {@link AccessDeniedException} (EACCES) or a
 * {@link FileSystemException} whose reason is {@code strerror}; a failed read an {@link IOException} whose message is
 * {@code strerror} ("Invalid argument", "No such device"). Call only where {@link NativeSupport#unsupportedReason()}
 * is empty.
 */
public final class PositionalReads {
    /** {@code O_RDONLY} (0) {@code | O_CLOEXEC}: the same numbers in the x86_64 and asm-generic (aarch64) headers. */
    private static final int OPEN_FLAGS = 0x80000;
    /** A sysfs attribute is at most one page; the readers' buffers are as large. */
    private static final int BUFFER_BYTES = 4096;

    private static final ThreadLocal<Pointer> BUFFER = ThreadLocal.withInitial(
            () -> Memory.allocateDirect(Runtime.getRuntime(NativeSupport.libc()), BUFFER_BYTES));

    private PositionalReads() {
    }

    /** A descriptor of {@code file} open for reading, closed on exec. */
    public static int open(Path file) throws IOException {
        LibC libc = NativeSupport.libc();
        int fd = libc.open(file.toString(), OPEN_FLAGS);
        if (fd < 0) {
            int errno = Errno.last();
            throw switch (errno) {
                case Errno.ENOENT -> new NoSuchFileException(file.toString());
                case Errno.EACCES -> new AccessDeniedException(file.toString());
                default -> new FileSystemException(file.toString(), null, libc.strerror(errno));
            };
        }
        return fd;
    }

    /**
     * Up to {@code target.length} (at most one page) bytes of {@code fd} from offset 0 into {@code target}; the count
     * read, 0 at the end of the file. On sysfs a read at offset 0 makes the kernel print the attribute afresh.
     */
    public static int readFromStart(int fd, byte[] target) throws IOException {
        LibC libc = NativeSupport.libc();
        Pointer buffer = BUFFER.get();
        int length = Math.min(target.length, BUFFER_BYTES);
        long count;
        do {
            count = libc.pread(fd, buffer, length, 0);
        } while (count < 0 && Errno.last() == Errno.EINTR);
        if (count < 0) {
            throw new IOException(libc.strerror(Errno.last()));
        }
        buffer.get(0, target, 0, (int) count);
        return (int) count;
    }

    /** Closes {@code fd}; a read-only descriptor has nothing to flush, so a failed close loses nothing. */
    public static void close(int fd) {
        NativeSupport.libc().close(fd);
    }
}
