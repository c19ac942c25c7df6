package io.rdmamon.nativeio.rdma;

/**
 * An RDMA device as the kernel numbers it ({@code RDMA_NLDEV_CMD_GET}): the index the STAT_GET and RES_QP_GET requests
 * take, and the name {@code /sys/class/infiniband} lists. The index is the kernel's and changes when a device is
 * registered again, so it is looked up, never kept across samples.
 */
public record RdmaDeviceIndex(long index, String name) {
}
