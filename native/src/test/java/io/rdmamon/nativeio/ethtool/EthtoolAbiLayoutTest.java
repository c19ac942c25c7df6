package io.rdmamon.nativeio.ethtool;

import static io.rdmamon.nativeio.LayoutProbe.assertLayout;
import static io.rdmamon.nativeio.LayoutProbe.constant;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;

import org.junit.jupiter.api.Test;

import io.rdmamon.nativeio.LayoutProbe;
import jnr.ffi.Runtime;
import jnr.ffi.Struct;

/** The ethtool ABI as the jnr structs see it equals what gcc computes from the kernel's uapi headers. */
class EthtoolAbiLayoutTest {
    private final Runtime runtime = Runtime.getSystemRuntime();

    @Test
    void constantsMatchTheKernelHeaders() throws Exception {
        assertEquals(constant("SIOCETHTOOL"), EthtoolAbi.SIOCETHTOOL);
        assertEquals(constant("ETHTOOL_GDRVINFO"), EthtoolAbi.ETHTOOL_GDRVINFO);
        assertEquals(constant("ETHTOOL_GSTRINGS"), EthtoolAbi.ETHTOOL_GSTRINGS);
        assertEquals(constant("ETHTOOL_GSTATS"), EthtoolAbi.ETHTOOL_GSTATS);
        assertEquals(constant("ETHTOOL_GSSET_INFO"), EthtoolAbi.ETHTOOL_GSSET_INFO);
        assertEquals(constant("ETH_SS_STATS"), EthtoolAbi.ETH_SS_STATS);
        assertEquals(constant("ETH_GSTRING_LEN"), EthtoolAbi.ETH_GSTRING_LEN);
        assertEquals(constant("IFNAMSIZ"), EthtoolAbi.IFNAMSIZ);
        assertEquals(constant("ETHTOOL_FWVERS_LEN"), EthtoolAbi.ETHTOOL_FWVERS_LEN);
        assertEquals(constant("ETHTOOL_BUSINFO_LEN"), EthtoolAbi.ETHTOOL_BUSINFO_LEN);
        assertEquals(constant("ETHTOOL_EROMVERS_LEN"), EthtoolAbi.ETHTOOL_EROMVERS_LEN);
        assertEquals(constant("ETHTOOL_GMODULEINFO"), EthtoolAbi.ETHTOOL_GMODULEINFO);
        assertEquals(constant("ETHTOOL_GMODULEEEPROM"), EthtoolAbi.ETHTOOL_GMODULEEEPROM);
        assertEquals(constant("ETHTOOL_GFECPARAM"), EthtoolAbi.ETHTOOL_GFECPARAM);
        assertEquals(constant("ETH_MODULE_SFF_8636_MAX_LEN"), EthtoolAbi.MAX_MODULE_EEPROM_LEN);
    }

    @Test
    void moduleAndFecStructsMatch() throws Exception {
        assertLayout(new EthtoolAbi.EthtoolModinfo(runtime), "ethtool_modinfo", Set.of());
        assertLayout(new EthtoolAbi.EthtoolFecparam(runtime), "ethtool_fecparam", Set.of());
        assertHeader(new EthtoolAbi.EthtoolEeprom(runtime), "ethtool_eeprom");
    }

    @Test
    void ifreqIsTheFull40ByteStructWithTheDataPointerAt16() throws Exception {
        assertLayout(new EthtoolAbi.IfReq(runtime), "ifreq", Set.of());
    }

    @Test
    void drvinfoMatches() throws Exception {
        assertLayout(new EthtoolAbi.EthtoolDrvinfo(runtime), "ethtool_drvinfo", Set.of());
    }

    @Test
    void variableLengthHeadersEndWhereTheirDataBegins() throws Exception {
        assertHeader(new EthtoolAbi.EthtoolSsetInfo(runtime), "ethtool_sset_info");
        assertHeader(new EthtoolAbi.EthtoolGstrings(runtime), "ethtool_gstrings");
        assertHeader(new EthtoolAbi.EthtoolStats(runtime), "ethtool_stats");
    }

    /** The code reads the payload at Struct.size(header), so that must be offsetof(data). */
    private static void assertHeader(Struct header, String cName) throws Exception {
        assertLayout(header, cName, Set.of("data"));
        assertEquals(LayoutProbe.values().get(cName + ".data"), (long) Struct.size(header), "offsetof(" + cName + ", data)");
    }
}
