package io.rdmamon.agent.module;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.ethtool.DriverInfo;
import io.rdmamon.nativeio.ethtool.Ethtool;
import io.rdmamon.nativeio.ethtool.EthtoolException;
import io.rdmamon.nativeio.ethtool.FecParam;
import io.rdmamon.nativeio.ethtool.ModuleEeprom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A module read half page by half page (the ethtool netlink path) gives the same image as the ioctl or a capture:
 * each row lays a spec-built image out as the module's pages, and the assembled image must equal it byte for byte,
 * read with exactly the requests ethtool makes and only requests the kernel accepts.
 */
class PagedModuleImageTest {
    /** One 128-byte chunk of an image: where the module keeps it. */
    private record HalfPage(int i2c, int page, int offset) {
        @Override
        public String toString() {
            return String.format("0x%02x/%02xh@%d", i2c, page, offset);
        }
    }

    private static final HalfPage LOWER = new HalfPage(0x50, 0, 0);
    private static final HalfPage UPPER_00 = new HalfPage(0x50, 0, 128);

    private static HalfPage upper(int page) {
        return new HalfPage(0x50, page, 128);
    }

    /** The module: each half page of {@code image} at the place {@code layout} gives it, in order. */
    private static final class Module implements PagedModuleImage.HalfPageReader {
        final Map<HalfPage, byte[]> pages = new HashMap<>();
        final List<HalfPage> requests = new ArrayList<>();
        HalfPage unreadable;

        Module(byte[] image, List<HalfPage> layout) {
            for (int i = 0; i < layout.size() && (i + 1) * 128 <= image.length; i++) {
                pages.put(layout.get(i), Arrays.copyOfRange(image, i * 128, (i + 1) * 128));
            }
        }

        @Override
        public byte[] read(int i2cAddress, int page, int bank, int offset) throws IOException {
            assertEquals(0, bank, "bank 0 only");
            assertTrue(page == 0 || offset >= 128, "the kernel refuses page " + page + " below offset 128");
            assertTrue(offset == 0 || offset == 128, "a read stays within one half page");
            HalfPage at = new HalfPage(i2cAddress, page, offset);
            requests.add(at);
            byte[] bytes = pages.get(at);
            if (bytes == null || at.equals(unreadable)) {
                throw new EthtoolException("swp3", Errno.EIO, "page " + at + " unreadable");
            }
            return bytes.clone();
        }
    }

    static Stream<Arguments> modules() {
        List<HalfPage> cmis = List.of(LOWER, UPPER_00, upper(0x01), upper(0x02), upper(0x10), upper(0x11));
        List<HalfPage> sff8636 = List.of(LOWER, UPPER_00, upper(0x01), upper(0x02), upper(0x03));
        List<HalfPage> sff8472 = List.of(LOWER, UPPER_00, new HalfPage(0x51, 0, 0), new HalfPage(0x51, 0, 128));
        byte[] cmisFlat = Images.qsfpDd().u8(2, 0x80).bytes();
        byte[] qsfpFlat = Images.qsfp28().u8(2, 0x04).bytes();
        byte[] sfpWithoutDdm = Images.sfp().u8(92, 0x08).bytes();
        return Stream.of(
                Arguments.of("CMIS QSFP-DD, paged", Images.qsfpDd().bytes(), cmis, 768),
                Arguments.of("CMIS, flat memory: lower and 00h only", cmisFlat, cmis, 256),
                Arguments.of("SFF-8636 QSFP28: the ioctl's 640 bytes", Images.qsfp28().bytes(), sff8636, 640),
                Arguments.of("SFF-8636, flat memory", qsfpFlat, sff8636, 256),
                Arguments.of("SFF-8472 SFP+ with diagnostics: A0h + A2h", Images.sfp().bytes(), sff8472, 512),
                Arguments.of("SFF-8472 without diagnostics: A0h only", sfpWithoutDdm, sff8472, 256));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modules")
    void theAssembledImageIsTheFlatImageReadWithEthtoolsRequests(String name, byte[] image, List<HalfPage> layout,
                                                                 int expectedLength) throws IOException {
        Module module = new Module(image, layout);

        byte[] assembled = PagedModuleImage.read(module);

        assertArrayEquals(Arrays.copyOf(image, expectedLength), assembled);
        assertEquals(layout.subList(0, expectedLength / 128), module.requests);
        assertEquals(ModuleDecoder.decode(Arrays.copyOf(image, expectedLength)), ModuleDecoder.decode(assembled));
    }

    @Test
    void anUnreadableOptionalPageEndsTheImageThereAndTheDecoderSaysWhatIsMissing() throws IOException {
        Module module = new Module(Images.qsfpDd().bytes(),
                List.of(LOWER, UPPER_00, upper(0x01), upper(0x02), upper(0x10), upper(0x11)));
        module.unreadable = upper(0x02);

        byte[] assembled = PagedModuleImage.read(module);

        assertEquals(384, assembled.length);
        var decoded = ModuleDecoder.decode(assembled);
        assertEquals("DR4R030015", decoded.serial());
        assertTrue(decoded.notes().stream().anyMatch(n -> n.startsWith("no page 02h")), decoded.notes().toString());
    }

    @Test
    void anUnreadableLowerPageFailsWithTheReadersError() {
        Module module = new Module(Images.qsfpDd().bytes(), List.of(LOWER, UPPER_00));
        module.unreadable = LOWER;
        EthtoolException e = assertThrows(EthtoolException.class, () -> PagedModuleImage.read(module));
        assertEquals("page 0x50/00h@0 unreadable", e.getMessage());
    }

    /** An {@link Ethtool} whose module ioctl fails with {@code errno}, as mlx5 does for a CMIS module (EINVAL). */
    private static Ethtool ioctlFailing(int errno) {
        return new Ethtool() {
            @Override
            public LinkedHashMap<String, Long> stats(String ifname) {
                throw new UnsupportedOperationException();
            }

            @Override
            public DriverInfo driverInfo(String ifname) {
                throw new UnsupportedOperationException();
            }

            @Override
            public ModuleEeprom moduleEeprom(String ifname) throws EthtoolException {
                throw new EthtoolException(ifname, errno, "ETHTOOL_GMODULEINFO on " + ifname + ": " + Errno.name(errno));
            }

            @Override
            public FecParam fecParam(String ifname) {
                throw new UnsupportedOperationException();
            }
        };
    }

    @Test
    void aCmisModuleTheIoctlRefusesIsReadPageByPage() throws IOException {
        Module module = new Module(Images.qsfpDd().bytes(),
                List.of(LOWER, UPPER_00, upper(0x01), upper(0x02), upper(0x10), upper(0x11)));
        List<String> interfaces = new ArrayList<>();
        ModuleEepromSource source = new IoctlModuleEepromSource(ioctlFailing(Errno.EINVAL),
                (ifname, i2c, page, bank, offset) -> {
                    interfaces.add(ifname);
                    return module.read(i2c, page, bank, offset);
                });

        byte[] image = source.read("enp65s0f1np1");

        assertArrayEquals(Images.qsfpDd().bytes(), image);
        assertEquals(6, interfaces.size());
        assertTrue(interfaces.stream().allMatch("enp65s0f1np1"::equals));
        assertEquals(8, ModuleDecoder.decode(image).lanes().size());
    }

    @Test
    void noCageOnEitherPathIsNoModuleAndAMissingCapabilityIsAFailure() {
        ModuleEepromSource veth = new IoctlModuleEepromSource(ioctlFailing(Errno.EOPNOTSUPP),
                (ifname, i2c, page, bank, offset) -> {
                    throw new EthtoolException(ifname, Errno.EOPNOTSUPP, "MODULE_EEPROM_GET on " + ifname + ": EOPNOTSUPP");
                });
        var none = assertThrows(ModuleEepromSource.NoModuleException.class, () -> veth.read("veth7"));
        assertEquals("veth7: no module cage (MODULE_EEPROM_GET on veth7: EOPNOTSUPP)", none.getMessage());

        ModuleEepromSource unprivileged = new IoctlModuleEepromSource(ioctlFailing(Errno.EPERM),
                (ifname, i2c, page, bank, offset) -> {
                    throw new AssertionError("no netlink read after EPERM");
                });
        IOException e = assertThrows(IOException.class, () -> unprivileged.read("enp65s0f1np1"));
        assertTrue(!(e instanceof ModuleEepromSource.NoModuleException));
        assertEquals("ETHTOOL_GMODULEINFO on enp65s0f1np1: EPERM: reading a module EEPROM needs CAP_NET_ADMIN",
                e.getMessage());
        assertSame(EthtoolException.class, e.getCause().getClass());
    }

    /**
     * What the ioctl's refusal and then the netlink path's mean together; ENOENT from netlink is a kernel without
     * ethtool netlink (its family absent), where the ioctl's answer stands.
     */
    @ParameterizedTest(name = "ioctl {0}, netlink {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            "95 | 2  | none        | veth7: no module cage (ETHTOOL_GMODULEINFO on veth7: EOPNOTSUPP)",
            "22 | 2  | unsupported | veth7: the module refuses the ioctl (ETHTOOL_GMODULEINFO on veth7: EINVAL) and no "
                    + "ethtool netlink in this kernel",
            "22 | 5  | none        | veth7: no module in the cage? (netlink: EIO)",
            "95 | 95 | none        | veth7: no module cage (netlink: EOPNOTSUPP)",
            "22 | 34 | failed      | netlink: ERANGE"})
    void theIoctlAndNetlinkRefusalsTogether(int ioctlErrno, int netlinkErrno, String outcome, String message) {
        ModuleEepromSource source = new IoctlModuleEepromSource(ioctlFailing(ioctlErrno),
                (ifname, i2c, page, bank, offset) -> {
                    throw new EthtoolException(netlinkErrno == Errno.ENOENT ? null : ifname, netlinkErrno,
                            netlinkErrno == Errno.ENOENT ? "no ethtool netlink in this kernel"
                                    : "netlink: " + Errno.name(netlinkErrno));
                });

        IOException e = assertThrows(IOException.class, () -> source.read("veth7"));

        assertEquals(outcome, e instanceof ModuleEepromSource.NoModuleException ? "none"
                : e instanceof UnsupportedCapabilityException ? "unsupported" : "failed", e.toString());
        assertEquals(message, e.getMessage());
    }
}
