package io.rdmamon.nativeio.ethtool;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code struct ethtool_fecparam}: FEC modes as {@code ETHTOOL_FEC_*} bits (uapi ethtool.h).
 *
 * @param active     the mode in use (one bit; {@link #NONE} or {@link #OFF} when no FEC runs)
 * @param configured the modes configured (may include {@link #AUTO})
 */
public record FecParam(int active, int configured) {
    public static final int NONE = 0x1;
    public static final int AUTO = 0x2;
    public static final int OFF = 0x4;
    public static final int RS = 0x8;
    public static final int BASER = 0x10;
    public static final int LLRS = 0x20;

    /** The names {@code ethtool --show-fec} prints for the bits of {@code modes}: None, Auto, Off, RS, BaseR, LLRS. */
    public static List<String> names(int modes) {
        String[] names = {"None", "Auto", "Off", "RS", "BaseR", "LLRS"};
        List<String> set = new ArrayList<>();
        for (int bit = 0; bit < names.length; bit++) {
            if ((modes & (1 << bit)) != 0) {
                set.add(names[bit]);
            }
        }
        return set;
    }
}
