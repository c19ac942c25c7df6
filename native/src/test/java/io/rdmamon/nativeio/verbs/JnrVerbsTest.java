package io.rdmamon.nativeio.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.rdmamon.nativeio.Errno;

/** The real Debian libibverbs1, loaded for real. */
class JnrVerbsTest {
    /** rdma-core's init reads this ABI file; without it (no RDMA in the kernel) listing fails with ENOSYS. */
    private static final Path VERBS_ABI = Path.of("/sys/class/infiniband_verbs/abi_version");
    private static final String ENOSYS_REASON =
            "verbs unavailable: ibv_get_device_list failed: ENOSYS (Function not implemented)";

    @Test
    void kernelWithoutRdmaIsReportedUnavailableWithTheErrno() {
        Assumptions.assumeFalse(Files.exists(VERBS_ABI), "this kernel has RDMA support (" + VERBS_ABI + " exists)");
        Verbs verbs = new JnrVerbs();

        assertEquals(new VerbsAvailability(false, ENOSYS_REASON), verbs.availability());
        VerbsException names = assertThrows(VerbsException.class, verbs::deviceNames);
        assertEquals(ENOSYS_REASON, names.getMessage());
        assertEquals(Errno.ENOSYS, names.errno());
        for (VerbsException e : List.of(
                assertThrows(VerbsException.class, () -> verbs.queryDevice("mlx5_0")),
                assertThrows(VerbsException.class, () -> verbs.queryPort("mlx5_0", 1)),
                assertThrows(VerbsException.class, () -> verbs.queryGid("mlx5_0", 1, 0)))) {
            assertEquals(ENOSYS_REASON, e.getMessage());
        }
    }

    @Test
    void kernelWithRdmaListsTheDevicesOfSysfs() throws IOException {
        Assumptions.assumeTrue(Files.exists(VERBS_ABI), "this kernel has no RDMA support (" + VERBS_ABI + " missing)");
        Verbs verbs = new JnrVerbs();
        assertTrue(verbs.availability().available(), verbs.availability().reason());
        try (Stream<Path> sysfs = Files.list(Path.of("/sys/class/infiniband"))) {
            assertEquals(sysfs.map(p -> p.getFileName().toString()).sorted().toList(),
                    verbs.deviceNames().stream().sorted().toList());
        }
    }

    @Test
    void missingLibraryIsReportedUnavailableNotThrown() {
        String missing = "libibverbs-rdmamon-missing.so.1";
        Verbs verbs = new JnrVerbs(missing);

        VerbsAvailability availability = verbs.availability();
        assertFalse(availability.available());
        assertEquals("verbs unavailable: cannot load " + missing + ": " + missing
                + ": cannot open shared object file: No such file or directory", availability.reason());
        VerbsException e = assertThrows(VerbsException.class, verbs::deviceNames);
        assertEquals(availability.reason(), e.getMessage());
    }

    @Test
    void outOfRangePortsAndIndexesAreRejectedBeforeTheLibrary() {
        Verbs verbs = new JnrVerbs("libibverbs-rdmamon-missing.so.1");
        VerbsException port = assertThrows(VerbsException.class, () -> verbs.queryPort("mlx5_0", 256));
        assertEquals("port 256 of mlx5_0 is outside 1..255", port.getMessage());
        assertEquals(Errno.EINVAL, port.errno());
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> verbs.queryGid("mlx5_0", 0, 1)).errno());
        assertEquals(Errno.EINVAL, assertThrows(VerbsException.class, () -> verbs.queryGid("mlx5_0", 1, -1)).errno());
    }
}
