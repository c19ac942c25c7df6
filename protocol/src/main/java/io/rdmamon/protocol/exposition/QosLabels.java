package io.rdmamon.protocol.exposition;

import java.util.ArrayList;
import java.util.List;

/** Label text of the {@code rdma_qos_*} families. */
final class QosLabels {
    /** The TSA of {@code ieee_ets} whose {@code tc_tx_bw} is a bandwidth share. */
    static final String TSA_ETS = "ets";
    /** {@code DCB_CAP_DCBX_*} bits 0x01..0x10, named as {@code dcb -j dcbx show} names them. */
    private static final List<String> DCBX_BITS = List.of("host", "lld_managed", "cee", "ieee", "static");

    private QosLabels() {
    }

    /** {@code host,cee,ieee} for 0x0d; unknown bits as {@code 0xNN}; empty for 0. */
    static String dcbx(int bits) {
        List<String> names = new ArrayList<>();
        for (int bit = 0; bit < DCBX_BITS.size(); bit++) {
            if ((bits >> bit & 1) == 1) {
                names.add(DCBX_BITS.get(bit));
            }
        }
        int unknown = bits & ~((1 << DCBX_BITS.size()) - 1);
        if (unknown != 0) {
            names.add("0x%02x".formatted(unknown));
        }
        return String.join(",", names);
    }
}
