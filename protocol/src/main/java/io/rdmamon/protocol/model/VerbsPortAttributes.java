package io.rdmamon.protocol.model;

/**
 * Port attributes from libibverbs {@code ibv_query_port} (the 48-byte compat struct).
 * Enum values are as in rdma-core {@code verbs.h}.
 */
public record VerbsPortAttributes(
        int state,
        int maxMtu,
        int activeMtu,
        int gidTableLength,
        long portCapFlags,
        int lid,
        int smLid,
        int activeWidth,
        int activeSpeed,
        int physState,
        int linkLayer) {
}
