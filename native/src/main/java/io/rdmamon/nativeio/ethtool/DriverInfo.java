package io.rdmamon.nativeio.ethtool;

/** {@code struct ethtool_drvinfo}: the fields a monitor needs. */
public record DriverInfo(String driver, String version, String firmwareVersion, String busInfo, int statsCount) {
}
