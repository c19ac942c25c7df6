package io.rdmamon.nativeio.rdma;

import java.util.List;

/**
 * One QP of an {@code RDMA_NLDEV_CMD_RES_QP_GET} dump, what {@code rdma resource show qp} prints of it.
 *
 * @param port     the port the QP is bound to; null for a QP not bound to a port yet (RESET)
 * @param lqpn     local QP number
 * @param rqpn     remote QP number; null where the kernel sends none (only connected types RC/UC carry it)
 * @param type     {@code enum ib_qp_type}
 * @param state    {@code enum ib_qp_state}
 * @param pid      the owning process's pid in the agent's pid namespace; null for a kernel QP
 * @param kernName the kernel module that owns a kernel QP ({@code ib_core} for GSI/SMI); null for a user QP
 */
public record QueuePairEntry(long deviceIndex, String device, Integer port, long lqpn, Long rqpn, int type, int state,
                             Long pid, String kernName) {
    /** iproute2's names ({@code rdma/utils.c qp_types_to_str}), by {@code enum ib_qp_type}; 7 is unused. */
    private static final List<String> TYPE_NAMES = List.of("SMI", "GSI", "RC", "UC", "UD", "RAW_IPV6",
            "RAW_ETHERTYPE", "UNKNOWN", "RAW_PACKET", "XRC_INI", "XRC_TGT");
    /** {@code IB_QPT_DRIVER}: a vendor type (mlx5 DCI/DCT). */
    private static final int TYPE_DRIVER = 0xff;
    /** iproute2's names ({@code rdma/res-qp.c qp_states_to_str}), by {@code enum ib_qp_state}. */
    private static final List<String> STATE_NAMES = List.of("RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR");

    /** The type as {@code rdma resource show qp} prints it; {@code UNKNOWN} for a number it does not know. */
    public String typeName() {
        return type == TYPE_DRIVER ? "DRIVER" : type < TYPE_NAMES.size() ? TYPE_NAMES.get(type) : "UNKNOWN";
    }

    /** The state as {@code rdma resource show qp} prints it; {@code UNKNOWN} for a number it does not know. */
    public String stateName() {
        return state < STATE_NAMES.size() ? STATE_NAMES.get(state) : "UNKNOWN";
    }
}
