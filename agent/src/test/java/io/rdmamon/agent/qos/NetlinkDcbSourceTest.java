package io.rdmamon.agent.qos;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rdmamon.nativeio.dcb.DcbException;
import io.rdmamon.nativeio.dcb.IeeeDcbConfig;
import io.rdmamon.nativeio.dcb.IeeeDcbConfig.DcbApp;
import io.rdmamon.nativeio.dcb.IeeeDcbConfig.DcbBuffer;
import io.rdmamon.nativeio.dcb.IeeeDcbConfig.IeeeEts;
import io.rdmamon.nativeio.dcb.IeeeDcbConfig.IeeePfc;
import io.rdmamon.protocol.model.QosConfig;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The mapping of the kernel's DCB reply to {@link QosConfig}, and the real kernel's refusals as source errors. */
class NetlinkDcbSourceTest {
    private static final List<Long> ZEROS = List.of(0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L);

    private static IeeeEts ets(List<Integer> tsa) {
        return new IeeeEts(1, 8, 0, List.of(10, 20, 0, 0, 70, 0, 0, 0), List.of(0, 0, 0, 0, 0, 0, 0, 0), tsa,
                List.of(2, 2, 0, 1, 4, 5, 6, 7), List.of(0, 0, 0, 0, 0, 0, 0, 0), List.of(0, 0, 0, 0, 0, 0, 0, 0),
                List.of(0, 0, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void mlx5LikeReplyMapsToQosConfigWithTrustFromTheDscpEntries() throws IOException {
        List<DcbApp> apps = new ArrayList<>();
        for (int dscp = 0; dscp < 64; dscp++) {
            apps.add(new DcbApp(5, dscp == 34 ? 4 : 1, dscp));
        }
        IeeeDcbConfig reply = new IeeeDcbConfig("enp65s0f1np1", 0x0d,
                ets(List.of(2, 2, 255, 255, 2, 255, 0, 255)),
                new IeeePfc(8, 0x10, 0, 7, ZEROS, ZEROS), apps, null, List.of(),
                new DcbBuffer(List.of(0, 0, 0, 0, 1, 0, 0, 0), List.of(196608L, 65536L, 0L, 0L, 0L, 0L, 0L, 0L),
                        262144),
                List.of(0L, 0L, 0L, 0L, 40_000_000L, 0L, 0L, 0L));

        QosConfig qos = new NetlinkDcbSource(ifname -> reply).read("enp65s0f1np1");

        assertEquals(QosConfig.SOURCE_NETLINK, qos.source());
        assertEquals(0x0d, qos.dcbx());
        assertEquals(new QosConfig.Pfc(8, 0x10, 7), qos.pfc());
        assertEquals(List.of(4), qos.pfcPriorities());
        assertEquals(new QosConfig.Ets(true, 8, List.of(10, 20, 0, 0, 70, 0, 0, 0),
                List.of("ets", "ets", "vendor", "vendor", "ets", "vendor", "strict", "vendor"),
                List.of(2, 2, 0, 1, 4, 5, 6, 7)), qos.ets());
        assertEquals(64, qos.app().size());
        assertEquals(new QosConfig.AppEntry(5, 4, 34), qos.app().get(34));
        assertNull(qos.trustOrder());
        assertEquals("dscp", qos.trust());
        assertEquals(4, qos.priorityOfDscp(34));
        assertEquals(new QosConfig.Buffer(List.of(0, 0, 0, 0, 1, 0, 0, 0),
                List.of(196608L, 65536L, 0L, 0L, 0L, 0L, 0L, 0L), 262144), qos.buffer());
        assertEquals(List.of(0L, 0L, 0L, 0L, 40_000_000L, 0L, 0L, 0L), qos.tcMaxrateKbits());
        assertNull(qos.ecn());
        assertNull(qos.trafficClass());
        assertNull(qos.defaultRoceTos());
    }

    @Test
    void apptrustTableBecomesSelectorNamesInTrustOrder() throws IOException {
        IeeeDcbConfig reply = new IeeeDcbConfig("swp12", null, null, null,
                List.of(new DcbApp(255, 6, 13)), List.of(255, 5, 3, 1, 2, 4, 9), null, null, null);
        QosConfig qos = new NetlinkDcbSource(ifname -> reply).read("swp12");
        assertEquals(List.of("pcp", "dscp", "dgram-port", "ethtype", "stream-port", "port", "???"), qos.trustOrder());
        assertEquals("pcp", qos.trust());
        assertNull(qos.dcbx());
        assertNull(qos.pfc());
        assertNull(qos.ets());
        assertNull(qos.buffer());
        assertNull(qos.tcMaxrateKbits());
        assertEquals(List.of(), qos.pfcPriorities());
    }

    @ParameterizedTest
    @CsvSource({"0, strict", "1, cbs", "2, ets", "255, vendor", "3, ???", "254, ???"})
    void tsaCodesAreNamedAsIproute2Prints(int code, String name) {
        assertEquals(name, NetlinkDcbSource.tsaName(code));
    }

    /** Loopback has no dcbnl_ops in any kernel: the live kernel answers EOPNOTSUPP, a netdev without DCB. */
    @Test
    void liveKernelWithoutDcbSaysSoNamingTheInterface() {
        IOException e = assertThrows(UnsupportedCapabilityException.class,
                () -> NetlinkDcbSource.loadNative().read("lo"));
        assertEquals("no DCB support on lo (EOPNOTSUPP)", e.getMessage());
    }

    /** Only "the operation is not there" is an absent DCB; every other refusal of the kernel fails the read. */
    @ParameterizedTest(name = "errno {0}: unsupported {1}")
    @CsvSource({"95, true", "524, true", "19, false", "1, false", "22, false", "0, false"})
    void theKernelsRefusalIsUnsupportedOnlyForNotSupported(int errno, boolean unsupported) {
        NetlinkDcbSource source = new NetlinkDcbSource(ifname -> {
            throw new DcbException(ifname, errno, "refused with errno " + errno);
        });

        IOException e = assertThrows(IOException.class, () -> source.read("eth1"));

        assertEquals(unsupported, e instanceof UnsupportedCapabilityException, e.toString());
        assertEquals("refused with errno " + errno, e.getMessage());
    }

    @Test
    void liveKernelUnknownInterfaceIsEnodevNamed() {
        String missing = "rdq" + UUID.randomUUID().toString().substring(0, 8);
        IOException e = assertThrows(IOException.class, () -> NetlinkDcbSource.loadNative().read(missing));
        assertEquals("no such interface " + missing + " (ENODEV)", e.getMessage());
    }

    @Test
    void invalidNameFailsBeforeAnySystemCall() {
        IOException e = assertThrows(IOException.class,
                () -> NetlinkDcbSource.loadNative().read("enp65s0f1np1-too-long"));
        assertEquals("invalid interface name 'enp65s0f1np1-too-long': it is longer than 15 bytes", e.getMessage());
    }
}
