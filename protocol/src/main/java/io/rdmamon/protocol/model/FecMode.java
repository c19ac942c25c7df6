package io.rdmamon.protocol.model;

import java.util.List;

/**
 * A netdev's forward error correction, as {@code ethtool --show-fec} prints it (docs/reference/physical-layer.md §4.1,
 * {@code ETHTOOL_GFECPARAM}): the encoding in use and the ones configured. Names are ethtool's: {@code None},
 * {@code Auto}, {@code Off}, {@code RS}, {@code BaseR}, {@code LLRS}. Read on the slow cadence (it changes when the
 * link retrains); null on a port when the driver has none (veth, virtio, mlx5 with the link down).
 *
 * @param active     the encoding in use; null when the driver reports none
 * @param configured the encodings configured (may include {@code Auto})
 */
public record FecMode(String active, List<String> configured) {
    public FecMode {
        configured = configured == null ? List.of() : List.copyOf(configured);
    }

    /** An encoding corrects errors: RS, BaseR or LLRS are active (not Off, None, or unknown). */
    public boolean correcting() {
        return "RS".equals(active) || "BaseR".equals(active) || "LLRS".equals(active);
    }
}
