package io.rdmamon.nativeio.ethtool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.rdmamon.nativeio.Commands;
import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.NetworkNamespace;
import io.rdmamon.nativeio.ethtool.NetlinkModuleEeprom.PageRequest;

/**
 * {@code ETHTOOL_MSG_MODULE_EEPROM_GET} against the real kernel, in a network namespace the test creates with a veth
 * pair (veth has no module cage). The kernel checks, in order: the attribute policy (length 1..128, else ERANGE), the
 * device (ENODEV), the page/offset rules (EINVAL), then asks the driver (veth: EOPNOTSUPP). So EOPNOTSUPP proves the
 * family id was right and the request passed every check, and each deliberately wrong request gets its own errno.
 */
class NetlinkModuleEepromVethTest {
    private static final int SFF_I2C = 0x50;

    private static NetworkNamespace ns;
    private static String veth;

    @BeforeAll
    static void createNamespaceWithVethPair() throws IOException, InterruptedException {
        Assumptions.assumeTrue(NetworkNamespace.runningAsRoot(), "creating network namespaces needs root");
        Assumptions.assumeTrue(Commands.available("ip", "-V"), "iproute2 'ip' is not installed");
        String suffix = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff));
        veth = "eepv" + suffix;
        ns = NetworkNamespace.create("rdmamon-eeprom" + suffix);
        ns.ip("link", "add", veth, "type", "veth", "peer", "name", "eepp" + suffix);
        ns.ip("link", "set", veth, "up");
    }

    @AfterAll
    static void deleteNamespace() throws IOException, InterruptedException {
        if (ns != null) {
            ns.close();
        }
    }

    private static EthtoolException readFails(String ifname, PageRequest page) throws IOException, InterruptedException {
        return ns.call(() -> assertThrows(EthtoolException.class, () -> new NetlinkModuleEeprom().read(ifname, page)));
    }

    /** The id iproute2's {@code genl ctrl get name ethtool} prints, when genl is installed; a dynamic id otherwise. */
    @Test
    void theEthtoolFamilyResolves() throws Exception {
        int id = ns.call(() -> new NetlinkModuleEeprom().familyId());
        assertTrue(id > 0x10, "a dynamic generic netlink id is above GENL_ID_CTRL, got " + id);
        if (Commands.available("genl", "-V")) {
            Matcher printed = Pattern.compile("ID: 0x([0-9a-f]+)")
                    .matcher(Commands.run(List.of("genl", "ctrl", "get", "name", "ethtool")));
            assertTrue(printed.find());
            assertEquals(Integer.parseInt(printed.group(1), 16), id);
        }
    }

    @Test
    void aWellFormedReadOfAVethIsEopnotsuppNamedAsNoModule() throws Exception {
        EthtoolException e = readFails(veth, new PageRequest(SFF_I2C, 0, 0, 0, 128));
        assertEquals(Errno.EOPNOTSUPP, e.errno());
        assertEquals(veth, e.interfaceName());
        assertTrue(e.getMessage().startsWith("ETHTOOL_MSG_MODULE_EEPROM_GET page 0x00 bank 0 offset 0 length 128 i2c "
                + "0x50 on " + veth + ": no module EEPROM on " + veth + " (EOPNOTSUPP"), e.getMessage());
        // a CMIS lane page, as the agent asks for it, passes the kernel's checks as well
        assertEquals(Errno.EOPNOTSUPP, readFails(veth, new PageRequest(SFF_I2C, 0x11, 0, 128, 128)).errno());
    }

    @Test
    void length200IsErangeFromThePolicy() throws Exception {
        EthtoolException e = readFails(veth, new PageRequest(SFF_I2C, 0, 0, 0, 200));
        assertEquals(Errno.ERANGE, e.errno());
        assertTrue(e.getMessage().contains("length 200") && e.getMessage().contains("ERANGE: length must be 1..128"),
                e.getMessage());
    }

    @Test
    void page3AtOffset0IsEinval() throws Exception {
        EthtoolException e = readFails(veth, new PageRequest(SFF_I2C, 3, 0, 0, 128));
        assertEquals(Errno.EINVAL, e.errno());
        assertTrue(e.getMessage().contains("page 0x03 bank 0 offset 0") && e.getMessage().contains("(EINVAL: a page "
                + "other than 0 is read from offset 128 on"), e.getMessage());
    }

    @Test
    void anUnknownInterfaceIsEnodevNamed() throws Exception {
        String missing = "noeep" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff));
        EthtoolException e = readFails(missing, new PageRequest(SFF_I2C, 0, 0, 0, 128));
        assertEquals(Errno.ENODEV, e.errno());
        assertEquals("no such interface " + missing + " (ENODEV)", e.getMessage());
    }
}
