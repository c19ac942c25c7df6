package io.rdmamon.nativeio.ethtool;

/**
 * A module EEPROM read through {@code ETHTOOL_GMODULEEEPROM}.
 *
 * @param type  {@code ETH_MODULE_SFF_*} the driver reported (1 SFF-8079, 2 SFF-8472, 3 SFF-8636, 4 SFF-8436)
 * @param bytes the {@code eeprom_len} bytes, the flat buffer {@code ethtool -m IF raw on} writes
 */
public record ModuleEeprom(int type, byte[] bytes) {
    public static final int SFF_8079 = 1;
    public static final int SFF_8472 = 2;
    public static final int SFF_8636 = 3;
    public static final int SFF_8436 = 4;
}
