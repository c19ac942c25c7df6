package io.rdmamon.nativeio;

import java.util.Optional;

import jnr.ffi.LibraryLoader;
import jnr.ffi.Platform;

/**
 * Where the native bindings can run, and the process's libc bound once.
 *
 * <p>The struct layouts in this module are the LP64 Linux ones (checked against gcc by the layout
 * test on x86_64; aarch64 has the same sizes and alignments for every type used here), so any
 * other platform is refused with a reason instead of reading garbage.
 */
public final class NativeSupport {

    private NativeSupport() {
    }

    /** Empty when this platform is supported, otherwise why not. */
    public static Optional<String> unsupportedReason() {
        Platform platform = Platform.getNativePlatform();
        boolean linux = platform.getOS() == Platform.OS.LINUX;
        boolean lp64Cpu = platform.getCPU() == Platform.CPU.X86_64 || platform.getCPU() == Platform.CPU.AARCH64;
        if (linux && lp64Cpu) {
            return Optional.empty();
        }
        return Optional.of("native bindings need Linux on x86_64 or aarch64, this is "
                + platform.getOS().name().toLowerCase() + "/" + platform.getCPU().name().toLowerCase());
    }

    /**
     * The libc functions, bound on first use (class-holder idiom: thread safe, loaded once).
     * Call only after {@link #unsupportedReason()} came back empty.
     */
    public static LibC libc() {
        return LibCHolder.INSTANCE;
    }

    private static final class LibCHolder {
        static final LibC INSTANCE = LibraryLoader.create(LibC.class).failImmediately().load("c");
    }
}
