package io.rdmamon.nativeio.rdma;

import static io.rdmamon.nativeio.netlink.RawNetlink.attr;
import static io.rdmamon.nativeio.netlink.RawNetlink.concat;
import static io.rdmamon.nativeio.netlink.RawNetlink.le32;
import static io.rdmamon.nativeio.netlink.RawNetlink.le64;
import static io.rdmamon.nativeio.netlink.RawNetlink.message;
import static io.rdmamon.nativeio.netlink.RawNetlink.u8;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.rdmamon.nativeio.netlink.NetlinkException;
import io.rdmamon.nativeio.netlink.NetlinkMessage;

/**
 * RDMA netlink replies written by hand as the kernel's {@code nldev.c} fills them (attribute numbers from
 * docs/reference/pingmesh-workloads-topology.md §2.3, nests flagged {@code NLA_F_NESTED} as {@code nla_nest_start} sets
 * it), independent of the
 * builder.
 */
final class RdmaReplies {
    static final int NESTED = 0x8000;
    static final int MULTI = 0x2;

    private RdmaReplies() {
    }

    static byte[] strz(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return concat(bytes, new byte[1]);
    }

    static byte[] devIndex(long index) {
        return attr(1, le32(index));
    }

    static byte[] devName(String name) {
        return attr(2, strz(name));
    }

    static byte[] hwCounter(String name, long value) {
        return attr(81 | NESTED, attr(82, strz(name)), attr(83, le64(value)));
    }

    static byte[] summaryEntry(String name, long count) {
        return attr(16 | NESTED, attr(17, strz(name)), attr(18, le64(count)));
    }

    /** A QP entry: fields in the order {@code fill_res_qp_entry} puts them. */
    static byte[] qp(Integer port, long lqpn, Long rqpn, int type, int state, Long pid, String kernName) {
        List<byte[]> fields = new ArrayList<>();
        if (port != null) {
            fields.add(attr(3, le32(port)));
        }
        fields.add(attr(21, le32(lqpn)));
        if (rqpn != null) {
            fields.add(attr(22, le32(rqpn)));
        }
        fields.add(attr(26, u8(type)));
        fields.add(attr(27, u8(state)));
        fields.add(pid != null ? attr(28, le32(pid)) : attr(29, strz(kernName)));
        return attr(20 | NESTED, fields.toArray(byte[][]::new));
    }

    static byte[] reply(int command, int flags, byte[]... attributes) {
        return message(RdmaNetlinkAbi.messageType(command), flags, 7, 4242, attributes);
    }

    static List<NetlinkMessage> parse(byte[]... messages) throws NetlinkException {
        byte[] datagram = concat(messages);
        return NetlinkMessage.parseDatagram(datagram, datagram.length);
    }
}
