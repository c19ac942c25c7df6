package io.rdmamon.protocol.model;

/**
 * One QP of a device as RDMA netlink lists it ({@code RDMA_NLDEV_CMD_RES_QP_GET}, what {@code rdma resource show qp}
 * prints), kept for workload attribution: the pid names the process that owns it.
 *
 * @param lqpn     local QP number
 * @param rqpn     remote QP number; null where the kernel sends none (it does for RC and UC only)
 * @param port     the port it is bound to; null for a QP not bound to a port yet
 * @param type     {@code RC}, {@code UC}, {@code UD}, {@code GSI}, {@code SMI}, {@code RAW_PACKET}, {@code XRC_INI},
 *                 {@code XRC_TGT}, {@code DRIVER}, ... as {@code rdma} prints it
 * @param state    {@code RESET}, {@code INIT}, {@code RTR}, {@code RTS}, {@code SQD}, {@code SQE}, {@code ERR}
 * @param pid      the owning process in the agent's pid namespace; null for a kernel QP
 * @param kernName the owning kernel module of a kernel QP (e.g. {@code ib_core}); null for a user QP
 */
public record QueuePair(long lqpn, Long rqpn, Integer port, String type, String state, Long pid, String kernName) {
}
