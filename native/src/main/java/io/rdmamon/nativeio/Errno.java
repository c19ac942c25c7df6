package io.rdmamon.nativeio;

import java.util.Map;

import jnr.ffi.LastError;
import jnr.ffi.Runtime;

/**
 * errno values and their names. The numbers are the Linux asm-generic ones, shared by x86_64 and
 * aarch64 (the only platforms {@link NativeSupport} accepts); the text comes from the C library.
 */
public final class Errno {
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int ESRCH = 3;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int ENXIO = 6;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int ENODEV = 19;
    public static final int EINVAL = 22;
    public static final int ENFILE = 23;
    public static final int EMFILE = 24;
    public static final int ENOTTY = 25;
    public static final int ENOSPC = 28;
    public static final int EPIPE = 32;
    public static final int ERANGE = 34;
    public static final int ENOSYS = 38;
    public static final int ENODATA = 61;
    public static final int EMSGSIZE = 90;
    public static final int ENOPROTOOPT = 92;
    public static final int EPROTONOSUPPORT = 93;
    public static final int EOPNOTSUPP = 95;
    public static final int EAFNOSUPPORT = 97;
    public static final int ENOBUFS = 105;
    /**
     * The kernel's internal "operation is not supported" (include/linux/errno.h), not meant for user space but
     * returned to it by some drivers' ethtool and DCB operations where EOPNOTSUPP was meant.
     */
    public static final int ENOTSUPP = 524;

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(EPERM, "EPERM"), Map.entry(ENOENT, "ENOENT"), Map.entry(ESRCH, "ESRCH"), Map.entry(EINTR, "EINTR"),
            Map.entry(EIO, "EIO"), Map.entry(ENXIO, "ENXIO"), Map.entry(EBADF, "EBADF"),
            Map.entry(EAGAIN, "EAGAIN"), Map.entry(ENOMEM, "ENOMEM"), Map.entry(EACCES, "EACCES"),
            Map.entry(EFAULT, "EFAULT"), Map.entry(EBUSY, "EBUSY"), Map.entry(ENODEV, "ENODEV"),
            Map.entry(EINVAL, "EINVAL"), Map.entry(ENFILE, "ENFILE"), Map.entry(EMFILE, "EMFILE"),
            Map.entry(ENOTTY, "ENOTTY"), Map.entry(ENOSPC, "ENOSPC"), Map.entry(ERANGE, "ERANGE"),
            Map.entry(ENOSYS, "ENOSYS"), Map.entry(ENODATA, "ENODATA"),
            Map.entry(EPROTONOSUPPORT, "EPROTONOSUPPORT"), Map.entry(EOPNOTSUPP, "EOPNOTSUPP"),
            Map.entry(EAFNOSUPPORT, "EAFNOSUPPORT"), Map.entry(EMSGSIZE, "EMSGSIZE"),
            Map.entry(ENOPROTOOPT, "ENOPROTOOPT"), Map.entry(ENOBUFS, "ENOBUFS"), Map.entry(ENOTSUPP, "ENOTSUPP"));

    private Errno() {
    }

    /**
     * Whether {@code errno} is the kernel saying the device or driver lacks the operation (EOPNOTSUPP, or ENOTSUPP
     * leaked by a driver): an absent optional capability, not a failure of the read.
     */
    public static boolean notSupported(int errno) {
        return errno == EOPNOTSUPP || errno == ENOTSUPP;
    }

    /** The errno of the last failed native call made by this thread through jnr-ffi. */
    public static int last() {
        return LastError.getLastError(Runtime.getSystemRuntime());
    }

    /** {@code ENODEV}, or {@code errno 123} for numbers without a name here. */
    public static String name(int errno) {
        return NAMES.getOrDefault(errno, "errno " + errno);
    }

    /** {@code ENODEV (No such device)}: the name and the C library's text. */
    public static String describe(int errno) {
        return name(errno) + " (" + NativeSupport.libc().strerror(errno) + ")";
    }
}
