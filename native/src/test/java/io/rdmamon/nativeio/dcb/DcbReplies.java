package io.rdmamon.nativeio.dcb;

import static io.rdmamon.nativeio.netlink.RawNetlink.concat;
import static io.rdmamon.nativeio.netlink.RawNetlink.le16;
import static io.rdmamon.nativeio.netlink.RawNetlink.le32;
import static io.rdmamon.nativeio.netlink.RawNetlink.le64;
import static io.rdmamon.nativeio.netlink.RawNetlink.u8;

import io.rdmamon.nativeio.netlink.RawNetlink;

/** uapi structs of {@code <linux/dcbnl.h>} written byte by byte at the offsets gcc gives (docs/reference/qos-dcb.md
 * §1.5). */
final class DcbReplies {
    private DcbReplies() {
    }

    static byte[] dcbmsg(int cmd) {
        return u8(0, cmd, 0, 0);
    }

    /** {@code struct ieee_ets}, 59 bytes. */
    static byte[] ets(int willing, int etsCap, int cbs, int[] txBw, int[] rxBw, int[] tsa, int[] prioTc,
                      int[] recoBw, int[] recoTsa, int[] recoPrioTc) {
        return concat(u8(willing, etsCap, cbs), u8(txBw), u8(rxBw), u8(tsa), u8(prioTc), u8(recoBw), u8(recoTsa),
                u8(recoPrioTc));
    }

    /** {@code struct ieee_pfc}, 136 bytes: pad at 3 and 6..7. */
    static byte[] pfc(int cap, int en, int mbc, int delay, long[] requests, long[] indications) {
        return concat(u8(cap, en, mbc, 0), le16(delay), u8(0, 0), u64s(requests), u64s(indications));
    }

    /** {@code struct dcb_app}, 4 bytes. */
    static byte[] app(int selector, int priority, int protocol) {
        return concat(u8(selector, priority), le16(protocol));
    }

    /** {@code struct dcbnl_buffer}, 44 bytes. */
    static byte[] buffer(int[] prio2buffer, long[] sizes, long total) {
        byte[] bytes = concat(u8(prio2buffer));
        for (long size : sizes) {
            bytes = concat(bytes, le32(size));
        }
        return concat(bytes, le32(total));
    }

    static byte[] u64s(long... values) {
        byte[] bytes = new byte[0];
        for (long value : values) {
            bytes = concat(bytes, le64(value));
        }
        return bytes;
    }

    static byte[] strz(String text) {
        return (text + "\0").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    static byte[] attr(int rawType, byte[]... payload) {
        return RawNetlink.attr(rawType, payload);
    }
}
