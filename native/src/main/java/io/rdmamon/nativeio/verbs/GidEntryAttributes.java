package io.rdmamon.nativeio.verbs;

/**
 * {@code struct ibv_gid_entry}.
 *
 * @param gid         the 16 raw bytes
 * @param type        {@code ibv_gid_type}: 0 IB, 1 RoCE v1, 2 RoCE v2
 * @param netdevIndex ifindex of the netdev, 0 when none
 */
public record GidEntryAttributes(byte[] gid, int index, int port, int type, int netdevIndex) {
}
