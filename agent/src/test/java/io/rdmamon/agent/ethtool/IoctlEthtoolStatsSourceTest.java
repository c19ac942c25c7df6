package io.rdmamon.agent.ethtool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.LinkedHashMap;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.ethtool.DriverInfo;
import io.rdmamon.nativeio.ethtool.Ethtool;
import io.rdmamon.nativeio.ethtool.EthtoolException;
import io.rdmamon.nativeio.ethtool.FecParam;
import io.rdmamon.nativeio.ethtool.ModuleEeprom;

/**
 * The kernel's refusals of the ethtool ioctl: "not supported" (EOPNOTSUPP, a driver's leaked ENOTSUPP) is a capability
 * the driver lacks (statistics: unsupported; FEC: none), anything else fails the read with the kernel's reason.
 */
class IoctlEthtoolStatsSourceTest {

    /** An ethtool binding whose every call the kernel refuses with {@code errno}. */
    private static Ethtool refusing(int errno) {
        return new Ethtool() {
            @Override
            public LinkedHashMap<String, Long> stats(String ifname) throws EthtoolException {
                throw refusal(ifname, "ETHTOOL_GSSET_INFO");
            }

            @Override
            public DriverInfo driverInfo(String ifname) throws EthtoolException {
                throw refusal(ifname, "ETHTOOL_GDRVINFO");
            }

            @Override
            public ModuleEeprom moduleEeprom(String ifname) throws EthtoolException {
                throw refusal(ifname, "ETHTOOL_GMODULEINFO");
            }

            @Override
            public FecParam fecParam(String ifname) throws EthtoolException {
                throw refusal(ifname, "ETHTOOL_GFECPARAM");
            }

            private EthtoolException refusal(String ifname, String call) {
                return new EthtoolException(ifname, errno, call + " on " + ifname + ": " + Errno.name(errno));
            }
        };
    }

    @ParameterizedTest(name = "errno {0}: unsupported {1}")
    @CsvSource({"95, true", "524, true", "19, false", "1, false", "22, false", "5, false"})
    void statisticsTheDriverLacksAreUnsupportedAndEveryOtherRefusalFails(int errno, boolean unsupported) {
        IOException e = assertThrows(IOException.class,
                () -> new IoctlEthtoolStatsSource(refusing(errno)).statistics("ifb0"));

        assertEquals(unsupported, e instanceof UnsupportedCapabilityException, e.toString());
        assertEquals("ETHTOOL_GSSET_INFO on ifb0: " + Errno.name(errno)
                + (unsupported ? ": the driver has no ethtool statistics" : ""), e.getMessage());
    }

    @ParameterizedTest(name = "errno {0}")
    @CsvSource({"95", "524"})
    void aDriverWithoutFecHasNone(int errno) throws IOException {
        assertNull(new IoctlEthtoolStatsSource(refusing(errno)).fec("eth1"));
    }

    @ParameterizedTest(name = "errno {0}")
    @CsvSource({"19", "1", "5"})
    void anyOtherFecRefusalFailsNamingIt(int errno) {
        IOException e = assertThrows(IOException.class, () -> new IoctlEthtoolStatsSource(refusing(errno)).fec("eth1"));

        assertEquals("ETHTOOL_GFECPARAM on eth1: " + Errno.name(errno), e.getMessage());
    }
}
