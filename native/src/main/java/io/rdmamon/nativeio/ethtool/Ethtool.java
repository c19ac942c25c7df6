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
}
