package io.rdmamon.nativeio;

import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The kind of filesystem a path is on, from {@code statfs(2)}'s {@code f_type} (the magic numbers of
 * {@code linux/magic.h}): the agent keeps descriptors open only on sysfs, whose attribute files are never
 * replaced, and opens every file anew anywhere else.
 */
public final class FileSystemType {
    /** {@code SYSFS_MAGIC}. */
    public static final long SYSFS_MAGIC = 0x62656572L;
    /**
     * {@code sizeof(struct statfs)} on LP64 Linux (x86_64 and aarch64): 120 bytes; {@code f_type}, a
     * {@code long}, is its first field.
     */
    private static final int STRUCT_STATFS_BYTES = 120;

    private FileSystemType() {
    }

    /**
     * {@code f_type} of the filesystem holding {@code path}.
     *
     * @throws IOException naming the path when the platform has no binding or {@code statfs} fails
     */
    public static long magic(Path path) throws IOException {
        String unsupported = NativeSupport.unsupportedReason().orElse(null);
        if (unsupported != null) {
            throw new IOException("statfs(" + path + "): " + unsupported);
        }
        LibC libc = NativeSupport.libc();
        Pointer buffer = Memory.allocateDirect(Runtime.getRuntime(libc), STRUCT_STATFS_BYTES, true);
        if (libc.statfs(path.toString(), buffer) != 0) {
            throw new IOException("statfs(" + path + "): " + libc.strerror(Errno.last()));
        }
        return buffer.getLong(0);
    }

    /** True when {@code path} is on sysfs; false when it is not or cannot be told (then nothing is kept open). */
    public static boolean isSysfs(Path path) {
        try {
            return magic(path) == SYSFS_MAGIC;
        } catch (IOException | RuntimeException | LinkageError e) {
            return false;
        }
    }
}
