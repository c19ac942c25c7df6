package io.rdmamon.nativeio.ethtool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rdmamon.nativeio.Errno;

/** Error paths of the real ioctl in the test's own network namespace (only read-only calls). */
class JnrEthtoolTest {
    private final Ethtool ethtool = new JnrEthtool();

    @Test
    void unknownInterfaceIsEnodevNamingTheInterface() {
        String missing = "rdmamon-nx" + UUID.randomUUID().toString().substring(0, 4);
        EthtoolException stats = assertThrows(EthtoolException.class, () -> ethtool.stats(missing));
        assertEquals(Errno.ENODEV, stats.errno());
        assertEquals(missing, stats.interfaceName());
        assertEquals("ethtool ETHTOOL_GSSET_INFO on interface '" + missing + "' failed: ENODEV (No such device)",
                stats.getMessage());

        EthtoolException info = assertThrows(EthtoolException.class, () -> ethtool.driverInfo(missing));
        assertEquals(Errno.ENODEV, info.errno());
        assertTrue(info.getMessage().contains("'" + missing + "'"), info.getMessage());
    }

    /**
     * Loopback's driver has no {@code get_sset_count}: the kernel's count for ETH_SS_STATS fails with
     * -EOPNOTSUPP, which GSSET_INFO reports by clearing the bit ({@code ethtool -S lo}: "no stats
     * available"); GDRVINFO fails with EOPNOTSUPP itself (no get_drvinfo, no parent device).
     */
    @Test
    void loopbackHasNoStatisticsAndNoDriverInfo() {
        EthtoolException stats = assertThrows(EthtoolException.class, () -> ethtool.stats("lo"));
        assertEquals(Errno.EOPNOTSUPP, stats.errno());
        assertEquals("ethtool ETHTOOL_GSSET_INFO on interface 'lo': the driver has no statistics: "
                + "EOPNOTSUPP (Operation not supported)", stats.getMessage());

        EthtoolException info = assertThrows(EthtoolException.class, () -> ethtool.driverInfo("lo"));
        assertEquals(Errno.EOPNOTSUPP, info.errno());
        assertEquals("ethtool ETHTOOL_GDRVINFO on interface 'lo' failed: EOPNOTSUPP (Operation not supported)",
                info.getMessage());
    }

    /**
     * Rejected by validation (errno 0, our message), not by the kernel: "abcdefghijklmnop" would be
     * truncated to another name by a naive copy into the 16-byte ifr_name, and "lo/x" or "lo:0"
     * would otherwise reach the kernel.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", "abcdefghijklmnop", "lo/x", "lo:0", "l o", ".", ".."})
    void invalidNamesAreRejectedBeforeAnySystemCall(String name) {
        EthtoolException e = assertThrows(EthtoolException.class, () -> ethtool.stats(name));
        assertEquals(0, e.errno());
        assertTrue(e.getMessage().startsWith("invalid interface name '" + name + "': "), e.getMessage());
        assertEquals(0, assertThrows(EthtoolException.class, () -> ethtool.driverInfo(name)).errno());
    }

    @Test
    void nullNameIsRejected() {
        EthtoolException e = assertThrows(EthtoolException.class, () -> ethtool.stats(null));
        assertEquals("invalid interface name 'null': it is empty", e.getMessage());
    }
}
