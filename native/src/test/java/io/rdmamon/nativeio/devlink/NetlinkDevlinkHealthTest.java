package io.rdmamon.nativeio.devlink;

import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.NativeSupport;
import io.rdmamon.nativeio.netlink.GenericNetlink;
import io.rdmamon.nativeio.netlink.JnrNetlink;
import io.rdmamon.nativeio.netlink.NetlinkAbi;
import io.rdmamon.nativeio.netlink.NetlinkException;
import io.rdmamon.nativeio.netlink.NetlinkMessage;
import io.rdmamon.nativeio.netlink.NetlinkMessageBuilder;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The HEALTH_REPORTER_GET dump: its bytes, the parsing of built replies, and the build machine's kernel's answer. */
class NetlinkDevlinkHealthTest {
    private static final int FAMILY = 0x15;

    /**
     * What {@code devlink health show} sends (iproute2 devlink/devlink.c {@code cmd_health_show}, no handle given:
     * {@code mnlg_msg_prepare(DEVLINK_CMD_HEALTH_REPORTER_GET, NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP)}):
     * nlmsghdr {len 20, type = the devlink family, flags REQUEST|ACK|DUMP (0x305), seq, pid 0}, then genlmsghdr
     * {cmd 52 (0x34), version 1}. Written out byte by byte from the source: on a kernel without the devlink family
     * iproute2 stops after the family lookup (below), so strace cannot show this request there.
     */
    @Test
    void theDumpRequestIsIproute2s() {
        ByteBuffer expected = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(20).putShort((short) FAMILY).putShort((short) 0x305).putInt(7).putInt(0)
                .put(new byte[] {0x34, 0x01, 0x00, 0x00});
        assumeTrue(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN, "the expected bytes are little-endian");
        assertArrayEquals(expected.array(), NetlinkDevlinkHealth.reporterDump(FAMILY).build(7, 0));
    }

    /**
     * The family lookup as {@code strace -f -e trace=sendto -xx -e write=3 devlink health show} showed it (iproute2 6.1,
     * kernel 6.18 without devlink): {@code 20 00 00 00 10 00 05 00 <seq> 00 00 00 00 03 01 00 00 0c 00 02 00
     * 64 65 76 6c 69 6e 6b 00}: nlctrl (0x10), CTRL_CMD_GETFAMILY v1, CTRL_ATTR_FAMILY_NAME "devlink". Ours is the
     * same but for NLM_F_ACK (0x04), which it does not ask for: the family's reply is the answer.
     */
    @Test
    void theFamilyLookupIsIproute2sWithoutTheAck() {
        assumeTrue(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN, "the captured bytes are little-endian");
        byte[] iproute2 = {0x20, 0, 0, 0, 0x10, 0, 0x05, 0, (byte) 0xb9, 0x7c, 0x0b, 0x6b, 0, 0, 0, 0,
                0x03, 0x01, 0, 0, 0x0c, 0, 0x02, 0, 'd', 'e', 'v', 'l', 'i', 'n', 'k', 0};
        byte[] ours = GenericNetlink.request(GenericNetlink.GENL_ID_CTRL, GenericNetlink.CTRL_CMD_GETFAMILY, 1)
                .stringZ(GenericNetlink.CTRL_ATTR_FAMILY_NAME, NetlinkDevlinkHealth.FAMILY).build(0x6b0b7cb9, 0);
        iproute2[6] &= ~0x04;
        assertArrayEquals(iproute2, ours);
    }

    @Test
    void repliesParseIntoReporters() throws Exception {
        NetlinkDevlinkHealth health = new NetlinkDevlinkHealth((protocol, request, description) -> {
            NetlinkMessage asSent = message(request);
            if (asSent.type() == GenericNetlink.GENL_ID_CTRL) {
                return List.of(message(GenericNetlink.request(GenericNetlink.GENL_ID_CTRL, 1, 2)
                        .u16(GenericNetlink.CTRL_ATTR_FAMILY_ID, FAMILY)));
            }
            assertEquals(NetlinkAbi.NETLINK_GENERIC, protocol);
            return List.of(reply(null, "fw_fatal", 1, 2, 1, 1_200_000L, 1), reply(65535, "tx", 0, 0, 0, 500L, 1));
        });
        assertEquals(List.of(
                new HealthReporter("pci", "0000:3b:00.0", null, "fw_fatal", "error", 2, 1, 1_200_000L, true),
                new HealthReporter("pci", "0000:3b:00.0", 65535, "tx", "healthy", 0, 0, 500L, true)),
                health.reporters());
    }

    /** This kernel's answer: none without a devlink family (ENOENT), else a list that parses. */
    @Test
    void theKernelAnswers() {
        assumeTrue(NativeSupport.unsupportedReason().isEmpty(), "no native support");
        try {
            assertNotNull(new NetlinkDevlinkHealth(new JnrNetlink()).reporters());
        } catch (NetlinkException e) {
            assertEquals(Errno.ENOENT, e.errno(), e.getMessage());
        }
    }

    private static NetlinkMessage reply(Integer port, String name, int state, long errors, long recovers, long grace,
                                        int autoRecover) {
        NetlinkMessageBuilder builder = GenericNetlink.request(FAMILY, 52, 1)
                .stringZ(NetlinkDevlinkHealth.DEVLINK_ATTR_BUS_NAME, "pci")
                .stringZ(NetlinkDevlinkHealth.DEVLINK_ATTR_DEV_NAME, "0000:3b:00.0");
        if (port != null) {
            builder.u32(NetlinkDevlinkHealth.DEVLINK_ATTR_PORT_INDEX, port);
        }
        int nest = builder.beginNested(NetlinkDevlinkHealth.DEVLINK_ATTR_HEALTH_REPORTER);
        builder.stringZ(NetlinkDevlinkHealth.DEVLINK_ATTR_HEALTH_REPORTER_NAME, name)
                .u8(NetlinkDevlinkHealth.DEVLINK_ATTR_HEALTH_REPORTER_STATE, state)
                .binary(NetlinkDevlinkHealth.DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT, u64(errors))
                .binary(NetlinkDevlinkHealth.DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT, u64(recovers))
                .binary(NetlinkDevlinkHealth.DEVLINK_ATTR_HEALTH_REPORTER_GRACEFUL_PERIOD, u64(grace))
                .u8(NetlinkDevlinkHealth.DEVLINK_ATTR_HEALTH_REPORTER_AUTO_RECOVER, autoRecover);
        builder.endNested(nest);
        return message(builder);
    }

    private static byte[] u64(long value) {
        return ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(value).array();
    }

    private static NetlinkMessage message(NetlinkMessageBuilder builder) {
        byte[] whole = builder.build(0, 0);
        int type = ByteBuffer.wrap(whole).order(ByteOrder.nativeOrder()).getShort(4) & 0xffff;
        return new NetlinkMessage(type, 0, 0, 0, Arrays.copyOfRange(whole, NetlinkAbi.NLMSG_HDRLEN, whole.length));
    }
}
