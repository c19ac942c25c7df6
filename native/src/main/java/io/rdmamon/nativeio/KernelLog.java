package io.rdmamon.nativeio;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * {@code /dev/kmsg} opened non-blocking (Documentation/ABI/testing/dev-kmsg), which {@code FileChannel} cannot do:
 * every {@link #read} returns one whole record or says why not. Positioned at the end when opened, so only records
 * logged from then on are read. Not thread-safe: one reader owns it. Call only where
 * {@link NativeSupport#unsupportedReason()} is empty.
 */
public final class KernelLog implements AutoCloseable {
    /** {@link #read}: no record is waiting (EAGAIN). */
    public static final int CAUGHT_UP = -1;
    /** {@link #read}: records were overwritten before they were read (EPIPE); the next read goes on after them. */
    public static final int OVERWRITTEN = -2;
    /**
     * The kernel refuses a read into a buffer shorter than the record (EINVAL); its records are at most
     * {@code CONSOLE_EXT_LOG_MAX} (8 KiB) with the dictionary.
     */
    public static final int RECORD_BYTES = 8192;
    /** {@code O_RDONLY | O_NONBLOCK | O_CLOEXEC}: the same numbers in the x86_64 and asm-generic headers. */
    private static final int OPEN_FLAGS = 0x800 | 0x80000;
    private static final int SEEK_END = 2;

    private final int fd;
    private final Pointer buffer;

    private KernelLog(int fd) {
        this.fd = fd;
        this.buffer = Memory.allocateDirect(Runtime.getRuntime(NativeSupport.libc()), RECORD_BYTES);
    }

    /**
     * {@code path} (the kernel's {@code /dev/kmsg}) open at its end.
     *
     * @throws AccessDeniedException when reading needs CAP_SYSLOG ({@code kernel.dmesg_restrict=1}): EPERM or EACCES
     * @throws NoSuchFileException   when there is no such file
     */
    public static KernelLog openAtEnd(String path) throws IOException {
        LibC libc = NativeSupport.libc();
        int fd = libc.open(path, OPEN_FLAGS);
        if (fd < 0) {
            int errno = Errno.last();
            throw switch (errno) {
                case Errno.ENOENT -> new NoSuchFileException(path);
                case Errno.EACCES, Errno.EPERM -> new AccessDeniedException(path, null, libc.strerror(errno));
                default -> new FileSystemException(path, null, libc.strerror(errno));
            };
        }
        if (libc.lseek(fd, 0, SEEK_END) < 0) {
            int errno = Errno.last();
            libc.close(fd);
            throw new FileSystemException(path, null, "lseek SEEK_END: " + libc.strerror(errno));
        }
        return new KernelLog(fd);
    }

    /**
     * The next record into {@code target} (at least {@link #RECORD_BYTES} long): its length, {@link #CAUGHT_UP} or
     * {@link #OVERWRITTEN}.
     *
     * @throws IOException with {@code strerror} of any other failure
     */
    public int read(byte[] target) throws IOException {
        LibC libc = NativeSupport.libc();
        long count;
        do {
            count = libc.read(fd, buffer, RECORD_BYTES);
        } while (count < 0 && Errno.last() == Errno.EINTR);
        if (count < 0) {
            int errno = Errno.last();
            return switch (errno) {
                case Errno.EAGAIN -> CAUGHT_UP;
                case Errno.EPIPE -> OVERWRITTEN;
                default -> throw new IOException("/dev/kmsg read: " + libc.strerror(errno));
            };
        }
        buffer.get(0, target, 0, (int) count);
        return (int) count;
    }

    @Override
    public void close() {
        NativeSupport.libc().close(fd);
    }
}
