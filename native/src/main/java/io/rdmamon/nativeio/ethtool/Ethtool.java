package io.rdmamon.nativeio.ethtool;

import java.util.LinkedHashMap;

/**
 * The statistics a network driver exports through {@code SIOCETHTOOL} (what {@code ethtool -S}
 * prints). Implementations: {@link JnrEthtool} (the real ioctl).
 */
public interface Ethtool {

    /**
     * Every statistic of {@code ifname} as name → value, in the order the kernel returns them.
     * Values are the kernel's u64, stored in a long with unsigned semantics.
     *
     * @throws EthtoolException naming the interface and the errno when the kernel refuses
     */
    LinkedHashMap<String, Long> stats(String ifname) throws EthtoolException;

    /** {@code ETHTOOL_GDRVINFO} of {@code ifname}. */
    DriverInfo driverInfo(String ifname) throws EthtoolException;

    /**
     * The plugged module's EEPROM as {@code ethtool -m IF raw on} writes it: {@code ETHTOOL_GMODULEINFO} for the
     * type and length, then {@code ETHTOOL_GMODULEEEPROM} for the bytes (the flat buffer of
     * docs/reference/physical-layer.md §2.1:
     * 256 bytes SFF-8079, 512 SFF-8472 A0h+A2h, 640 SFF-8636 lower + pages 00h-03h). Needs CAP_NET_ADMIN.
     *
     * @throws EthtoolException with EOPNOTSUPP for a driver without modules (veth, virtio), EIO/ENODEV/ENXIO when
     *                          the cage is empty, EINVAL when the driver does not know the module (mlx5 + CMIS),
     *                          EPERM without CAP_NET_ADMIN, ENODEV for an unknown interface
     */
    ModuleEeprom moduleEeprom(String ifname) throws EthtoolException;

    /** {@code ETHTOOL_GFECPARAM}: the configured and active FEC modes; EOPNOTSUPP when the driver has none. */
    FecParam fecParam(String ifname) throws EthtoolException;
}
