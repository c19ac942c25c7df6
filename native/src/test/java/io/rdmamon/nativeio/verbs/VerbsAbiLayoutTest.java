package io.rdmamon.nativeio.verbs;

import static io.rdmamon.nativeio.LayoutProbe.assertLayout;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;

import org.junit.jupiter.api.Test;

import io.rdmamon.nativeio.LayoutProbe;
import jnr.ffi.Runtime;

/** The libibverbs structs as the jnr classes see them equal gcc's layout of the rdma-core definitions. */
class VerbsAbiLayoutTest {
    private final Runtime runtime = Runtime.getSystemRuntime();

    @Test
    void deviceAttrMatchesIncludingPhysPortCntAt227() throws Exception {
        VerbsAbi.IbvDeviceAttr attr = new VerbsAbi.IbvDeviceAttr(runtime);
        assertLayout(attr, "ibv_device_attr", Set.of());
        assertEquals(227, attr.phys_port_cnt.offset());
    }

    @Test
    void compatPortAttrIsThe48BytePrefixAndTheBufferCoversTheFullStruct() throws Exception {
        assertLayout(new VerbsAbi.CompatIbvPortAttr(runtime), "_compat_ibv_port_attr", Set.of());
        assertEquals(LayoutProbe.values().get("ibv_port_attr sizeof"), (long) VerbsAbi.IBV_PORT_ATTR_SIZE);
    }

    @Test
    void gidEntryMatchesAndIsTheEntrySizePassedToTheLibrary() throws Exception {
        assertLayout(new VerbsAbi.IbvGidEntry(runtime), "ibv_gid_entry", Set.of());
        assertEquals(LayoutProbe.values().get("ibv_gid_entry sizeof"), (long) VerbsAbi.IBV_GID_ENTRY_SIZE);
    }
}
