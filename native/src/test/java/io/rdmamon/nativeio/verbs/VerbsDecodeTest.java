package io.rdmamon.nativeio.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.Struct;

/**
 * Decoding of what libibverbs writes, from bytes placed at the C offsets of docs/reference/ethtool-and-verbs.md §4 (as
 * the
 * library would place them on a little-endian LP64 host), independently of the jnr field offsets.
 */
class VerbsDecodeTest {
    private final Runtime runtime = Runtime.getSystemRuntime();

    @Test
    void deviceAttributesWithBigEndianGuids() {
        VerbsAbi.IbvDeviceAttr attr = new VerbsAbi.IbvDeviceAttr(runtime);
        Pointer memory = bind(attr, 232);
        memory.put(0, "16.35.2000".getBytes(StandardCharsets.US_ASCII), 0, 10);
        memory.put(64, new byte[]{0x0a, 0x7f, (byte) 0xbc, 0x12, 0x45, (byte) 0xef, (byte) 0xd2, 0x3b}, 0, 8);
        memory.put(72, new byte[]{0x0a, 0x7f, (byte) 0xbc, 0x12, 0x45, (byte) 0xef, (byte) 0xd2, 0x3c}, 0, 8);
        memory.putInt(96, 0x02c9);
        memory.putInt(100, 4129);
        memory.putInt(104, 0);
        memory.putByte(227, (byte) 2);

        assertEquals(new DeviceAttributes("16.35.2000", 0x0a7fbc1245efd23bL, 0x0a7fbc1245efd23cL, 0x02c9, 4129, 0, 2),
                JnrVerbs.deviceAttributes(attr));
    }

    @Test
    void portAttributesFieldForField() {
        VerbsAbi.CompatIbvPortAttr attr = new VerbsAbi.CompatIbvPortAttr(runtime);
        Pointer memory = bind(attr, 56);
        memory.putInt(0, 4);          // state ACTIVE
        memory.putInt(4, 5);          // max_mtu 4096
        memory.putInt(8, 3);          // active_mtu 1024
        memory.putInt(12, 255);       // gid_tbl_len
        memory.putInt(16, 0x04010000); // port_cap_flags
        memory.putInt(20, 0x40000000); // max_msg_sz
        memory.putInt(24, 7);         // bad_pkey_cntr
        memory.putInt(28, 8);         // qkey_viol_cntr
        memory.putShort(32, (short) 128); // pkey_tbl_len
        memory.putShort(34, (short) 0x1234); // lid
        memory.putShort(36, (short) 0x0001); // sm_lid
        byte[] bytes = {1, 4, 2, 18, 0, 2, 32, 5, 2, 0}; // lmc .. flags, offsets 38..47
        memory.put(38, bytes, 0, bytes.length);

        assertEquals(new PortAttributes(4, 5, 3, 255, 0x04010000L, 0x40000000L, 7, 8, 128, 0x1234, 1,
                        1, 4, 2, 18, 0, 2, 32, 5, 2, 0),
                JnrVerbs.portAttributes(attr));
    }

    @Test
    void gidEntryOfARoceV2Ipv4Address() {
        VerbsAbi.IbvGidEntry entry = new VerbsAbi.IbvGidEntry(runtime);
        Pointer memory = bind(entry, 32);
        byte[] gid = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, (byte) 192, (byte) 168, 1, 2};
        memory.put(0, gid, 0, 16);
        memory.putInt(16, 3);  // gid_index
        memory.putInt(20, 1);  // port_num
        memory.putInt(24, 2);  // gid_type RoCE v2
        memory.putInt(28, 5);  // ndev_ifindex

        GidEntryAttributes decoded = JnrVerbs.gidEntry(entry);
        assertArrayEquals(gid, decoded.gid());
        assertEquals(3, decoded.index());
        assertEquals(1, decoded.port());
        assertEquals(2, decoded.type());
        assertEquals(5, decoded.netdevIndex());
    }

    private Pointer bind(Struct struct, int bytes) {
        Pointer memory = Memory.allocateDirect(runtime, bytes, true);
        struct.useMemory(memory);
        return memory;
    }
}
