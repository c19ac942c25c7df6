package io.rdmamon.nativeio.ethtool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.ethtool.NetlinkModuleEeprom.PageRequest;
import io.rdmamon.nativeio.netlink.GenericNetlink;
import io.rdmamon.nativeio.netlink.NetlinkAbi;
import io.rdmamon.nativeio.netlink.NetlinkAttribute;
import io.rdmamon.nativeio.netlink.NetlinkException;
import io.rdmamon.nativeio.netlink.NetlinkMessage;
import io.rdmamon.nativeio.netlink.NetlinkMessageBuilder;

/** The request's layout and the reply's parsing, against a netlink that answers with built messages. */
class NetlinkModuleEepromTest {
    private static final int FAMILY = 0x1c;

    /** Requests seen, as sent. */
    private final List<NetlinkMessage> sent = new ArrayList<>();

    private static NetlinkMessage message(NetlinkMessageBuilder builder) {
        byte[] whole = builder.build(0, 0);
        int type = ByteBuffer.wrap(whole).order(ByteOrder.nativeOrder()).getShort(4) & 0xffff;
        return new NetlinkMessage(type, 0, 0, 0, Arrays.copyOfRange(whole, NetlinkAbi.NLMSG_HDRLEN, whole.length));
    }

    private NetlinkModuleEeprom answering(byte[] data) {
        return new NetlinkModuleEeprom((protocol, request, description) -> {
            assertEquals(NetlinkAbi.NETLINK_GENERIC, protocol);
            NetlinkMessage asSent = message(request);
            sent.add(asSent);
            if (asSent.type() == GenericNetlink.GENL_ID_CTRL) {
                return List.of(message(GenericNetlink.request(GenericNetlink.GENL_ID_CTRL, 1, 2)
                        .u16(GenericNetlink.CTRL_ATTR_FAMILY_ID, FAMILY)));
            }
            return List.of(message(GenericNetlink.request(FAMILY, NetlinkModuleEeprom.ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY,
                    1).binary(NetlinkModuleEeprom.ATTR_DATA, data)));
        });
    }

    @Test
    void theFamilyIsResolvedOnceAndThePageRequestCarriesEveryMandatoryAttribute() throws Exception {
        byte[] lanes = new byte[128];
        lanes[58] = 0x5f; // page 11h byte 186: lane 1 Rx power, high byte
        NetlinkModuleEeprom eeprom = answering(lanes);

        assertArrayEquals(lanes, eeprom.read("swp7s1", new PageRequest(0x50, 0x11, 0, 128, 128)));
        eeprom.read("swp7s1", new PageRequest(0x50, 0x02, 0, 128, 128));

        assertEquals(3, sent.size(), "one CTRL_CMD_GETFAMILY, then one request per page");
        NetlinkMessage getFamily = sent.get(0);
        assertEquals(GenericNetlink.CTRL_CMD_GETFAMILY, getFamily.payloadU8(0, "cmd"));
        assertEquals("ethtool", NetlinkAttribute.first(getFamily.attributes(4, "getfamily"),
                GenericNetlink.CTRL_ATTR_FAMILY_NAME).string());
        NetlinkMessage page = sent.get(1);
        assertEquals(FAMILY, page.type());
        assertEquals(NetlinkModuleEeprom.ETHTOOL_MSG_MODULE_EEPROM_GET, page.payloadU8(0, "cmd"));
        assertEquals(1, page.payloadU8(1, "version"));
        List<NetlinkAttribute> attributes = page.attributes(4, "request");
        assertEquals(List.of(1, 2, 3, 4, 5, 6), attributes.stream().map(NetlinkAttribute::type).toList());
        assertEquals("swp7s1", NetlinkAttribute.first(attributes.get(0).nested(),
                NetlinkModuleEeprom.HEADER_DEV_NAME).string());
        assertEquals(128, attributes.get(1).u32(), "offset");
        assertEquals(128, attributes.get(2).u32(), "length");
        assertEquals(0x11, attributes.get(3).u8(), "page");
        assertEquals(0, attributes.get(4).u8(), "bank");
        assertEquals(0x50, attributes.get(5).u8(), "i2c address");
    }

    @Test
    void aReplyWithFewerBytesThanAskedIsMalformedNamingTheRequest() {
        EthtoolException e = assertThrows(EthtoolException.class,
                () -> answering(new byte[48]).read("swp7s1", new PageRequest(0x51, 0, 0, 0, 128)));
        assertEquals(0, e.errno());
        assertEquals("malformed netlink data: ETHTOOL_MSG_MODULE_EEPROM_GET page 0x00 bank 0 offset 0 length 128 "
                + "i2c 0x51 on swp7s1 reply: 48 bytes of data, 128 asked for", e.getMessage());
    }

    @Test
    void aKernelWithoutTheEthtoolFamilyIsNamed() {
        NetlinkModuleEeprom eeprom = new NetlinkModuleEeprom((protocol, request, description) -> {
            throw new NetlinkException(Errno.ENOENT, description + " failed: ENOENT");
        });
        EthtoolException e = assertThrows(EthtoolException.class,
                () -> eeprom.read("swp7s1", new PageRequest(0x50, 0, 0, 0, 128)));
        assertEquals(Errno.ENOENT, e.errno());
        assertEquals("no ethtool netlink in this kernel (generic netlink family \"ethtool\" absent, ENOENT)",
                e.getMessage());
    }

}
