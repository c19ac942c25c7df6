package io.rdmamon.agent.probe;

import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.NativeSupport;

/**
 * Signals a whole process group through libc's {@code kill(-pgid, sig)}: the only way to reach
 * what a child started and left behind (a shell's grandchildren) once the child itself is gone.
 */
final class ProcessGroupSignals {
    static final int SIGKILL = 9;
    static final int SIGTERM = 15;

    private ProcessGroupSignals() {
    }

    /** Whether this platform can signal groups (Linux x86_64/aarch64 with jnr-ffi). */
    static boolean available() {
        return NativeSupport.unsupportedReason().isEmpty();
    }

    /**
     * Sends {@code signal} to every process of group {@code pgid}.
     *
     * @return false when the group has no process left (ESRCH)
     * @throws IllegalStateException naming the group and errno for any other failure (EPERM)
     */
    static boolean signal(long pgid, int signal) {
        if (pgid <= 1) {
            throw new IllegalArgumentException("refusing to signal process group " + pgid);
        }
        if (NativeSupport.libc().kill((int) -pgid, signal) == 0) {
            return true;
        }
        int errno = Errno.last();
        if (errno == Errno.ESRCH) {
            return false;
        }
        throw new IllegalStateException("kill(-" + pgid + ", " + signal + "): " + Errno.describe(errno));
    }
}
