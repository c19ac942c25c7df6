package io.rdmamon.nativeio.verbs;

import jnr.ffi.NativeType;
import jnr.ffi.Runtime;
import jnr.ffi.Struct;

/**
 * rdma-core {@code libibverbs/verbs.h} structs, one jnr {@link Struct} per C struct with the
 * fields in C order and C names (matched to gcc's {@code offsetof} by the layout test).
 * C enums are 4-byte ints.
 */
final class VerbsAbi {
    /** {@code sizeof(struct ibv_port_attr)} in current rdma-core; the buffer handed to the compat call is at least this. */
    static final int IBV_PORT_ATTR_SIZE = 56;
    /** {@code sizeof(struct ibv_gid_entry)}, passed as {@code entry_size}. */
    static final int IBV_GID_ENTRY_SIZE = 32;
    static final int IBV_GID_RAW_LEN = 16;

    private VerbsAbi() {
    }

    /** {@code struct ibv_device_attr} (232 bytes). */
    static final class IbvDeviceAttr extends Struct {
        final UTF8String fw_ver = new UTF8String(64);
        /** __be64: read as bytes, see {@link JnrVerbs}. */
        final Unsigned64 node_guid = new Unsigned64();
        final Unsigned64 sys_image_guid = new Unsigned64();
        final Unsigned64 max_mr_size = new Unsigned64();
        final Unsigned64 page_size_cap = new Unsigned64();
        final Unsigned32 vendor_id = new Unsigned32();
        final Unsigned32 vendor_part_id = new Unsigned32();
        final Unsigned32 hw_ver = new Unsigned32();
        final Signed32 max_qp = new Signed32();
        final Signed32 max_qp_wr = new Signed32();
        final Unsigned32 device_cap_flags = new Unsigned32();
        final Signed32 max_sge = new Signed32();
        final Signed32 max_sge_rd = new Signed32();
        final Signed32 max_cq = new Signed32();
        final Signed32 max_cqe = new Signed32();
        final Signed32 max_mr = new Signed32();
        final Signed32 max_pd = new Signed32();
        final Signed32 max_qp_rd_atom = new Signed32();
        final Signed32 max_ee_rd_atom = new Signed32();
        final Signed32 max_res_rd_atom = new Signed32();
        final Signed32 max_qp_init_rd_atom = new Signed32();
        final Signed32 max_ee_init_rd_atom = new Signed32();
        final Signed32 atomic_cap = new Signed32();
        final Signed32 max_ee = new Signed32();
        final Signed32 max_rdd = new Signed32();
        final Signed32 max_mw = new Signed32();
        final Signed32 max_raw_ipv6_qp = new Signed32();
        final Signed32 max_raw_ethy_qp = new Signed32();
        final Signed32 max_mcast_grp = new Signed32();
        final Signed32 max_mcast_qp_attach = new Signed32();
        final Signed32 max_total_mcast_qp_attach = new Signed32();
        final Signed32 max_ah = new Signed32();
        final Signed32 max_fmr = new Signed32();
        final Signed32 max_map_per_fmr = new Signed32();
        final Signed32 max_srq = new Signed32();
        final Signed32 max_srq_wr = new Signed32();
        final Signed32 max_srq_sge = new Signed32();
        final Unsigned16 max_pkeys = new Unsigned16();
        final Unsigned8 local_ca_ack_delay = new Unsigned8();
        final Unsigned8 phys_port_cnt = new Unsigned8();
        /** C rounds sizeof up to the 8-byte alignment of the u64 fields (228 → 232); jnr does not. */
        final Padding tail_padding = new Padding(NativeType.UCHAR, 4);

        IbvDeviceAttr(Runtime runtime) {
            super(runtime);
        }
    }

    /**
     * {@code struct _compat_ibv_port_attr} (48 bytes): the prefix of {@code struct ibv_port_attr}
     * up to {@code flags}, which is all the exported {@code ibv_query_port} copies out.
     */
    static final class CompatIbvPortAttr extends Struct {
        final Signed32 state = new Signed32();
        final Signed32 max_mtu = new Signed32();
        final Signed32 active_mtu = new Signed32();
        final Signed32 gid_tbl_len = new Signed32();
        final Unsigned32 port_cap_flags = new Unsigned32();
        final Unsigned32 max_msg_sz = new Unsigned32();
        final Unsigned32 bad_pkey_cntr = new Unsigned32();
        final Unsigned32 qkey_viol_cntr = new Unsigned32();
        final Unsigned16 pkey_tbl_len = new Unsigned16();
        final Unsigned16 lid = new Unsigned16();
        final Unsigned16 sm_lid = new Unsigned16();
        final Unsigned8 lmc = new Unsigned8();
        final Unsigned8 max_vl_num = new Unsigned8();
        final Unsigned8 sm_sl = new Unsigned8();
        final Unsigned8 subnet_timeout = new Unsigned8();
        final Unsigned8 init_type_reply = new Unsigned8();
        final Unsigned8 active_width = new Unsigned8();
        final Unsigned8 active_speed = new Unsigned8();
        final Unsigned8 phys_state = new Unsigned8();
        final Unsigned8 link_layer = new Unsigned8();
        final Unsigned8 flags = new Unsigned8();

        CompatIbvPortAttr(Runtime runtime) {
            super(runtime);
        }
    }

    /** {@code struct ibv_gid_entry} (32 bytes). */
    static final class IbvGidEntry extends Struct {
        /** {@code union ibv_gid}: 16 raw bytes. */
        final Unsigned8[] gid = array(new Unsigned8[IBV_GID_RAW_LEN]);
        final Unsigned32 gid_index = new Unsigned32();
        final Unsigned32 port_num = new Unsigned32();
        final Unsigned32 gid_type = new Unsigned32();
        final Unsigned32 ndev_ifindex = new Unsigned32();

        IbvGidEntry(Runtime runtime) {
            super(runtime);
        }
    }
}
