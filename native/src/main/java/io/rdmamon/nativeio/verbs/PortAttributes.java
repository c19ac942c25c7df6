package io.rdmamon.nativeio.verbs;

/**
 * {@code struct _compat_ibv_port_attr} (the first 48 bytes of {@code struct ibv_port_attr}),
 * field for field. Enum values as in rdma-core {@code verbs.h}.
 */
public record PortAttributes(
        int state,
        int maxMtu,
        int activeMtu,
        int gidTableLength,
        long portCapFlags,
        long maxMessageSize,
        long badPkeyCounter,
        long qkeyViolationCounter,
        int pkeyTableLength,
        int lid,
        int smLid,
        int lmc,
        int maxVlNum,
        int smSl,
        int subnetTimeout,
        int initTypeReply,
        int activeWidth,
        int activeSpeed,
        int physState,
        int linkLayer,
        int flags) {
}
