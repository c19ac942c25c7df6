package io.rdmamon.nativeio;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.In;
import jnr.ffi.annotations.Out;
import jnr.ffi.annotations.Variadic;
import jnr.ffi.types.off_t;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;
import jnr.ffi.types.u_int64_t;

/** The libc calls the native bindings use. errno of a failed call: {@link Errno#last()}. */
public interface LibC {

    int socket(int domain, int type, int protocol);

    /** {@code int ioctl(int fd, unsigned long request, ...)}: variadic after the request. */
    @Variadic(fixedCount = 2)
    int ioctl(int fd, @u_int64_t long request, Pointer argument);

    int close(int fd);

    /** {@code int open(const char *path, int flags)}: {@link PositionalReads} opens read-only, no mode. */
    int open(String path, int flags);

    /** {@code ssize_t pread(int fd, void *buf, size_t count, off_t offset)}. */
    @ssize_t
    long pread(int fd, Pointer buffer, @size_t long count, @off_t long offset);

    /** {@code ssize_t read(int fd, void *buf, size_t count)}: {@link KernelLog} reads one record per call. */
    @ssize_t
    long read(int fd, Pointer buffer, @size_t long count);

    /** {@code off_t lseek(int fd, off_t offset, int whence)}. */
    @off_t
    long lseek(int fd, @off_t long offset, int whence);

    int bind(int fd, @In byte[] address, int addressLength);

    int getsockname(int fd, @Out byte[] address, @In @Out int[] addressLength);

    int setsockopt(int fd, int level, int option, @In byte[] value, int valueLength);

    @ssize_t
    long sendto(int fd, @In byte[] buffer, @size_t long length, int flags, @In byte[] address, int addressLength);

    @ssize_t
    long recv(int fd, @Out byte[] buffer, @size_t long length, int flags);

    /** {@code int statfs(const char *path, struct statfs *buf)}: {@link FileSystemType} reads {@code f_type}. */
    int statfs(String path, Pointer buf);

    String strerror(int errnum);

    /** {@code int kill(pid_t pid, int sig)}: a negative pid signals the whole process group {@code -pid}. */
    int kill(int pid, int sig);
}
