package io.rdmamon.agent.module;

import java.io.IOException;

/**
 * The module EEPROM of a netdev's cage: the bytes {@code ethtool -m IF raw on} writes. Implementations: the
 * SIOCETHTOOL ioctl ({@link IoctlModuleEepromSource}) on a live host, {@code <root>/ethtool/<if>/module} captures
 * ({@link CapturedModuleEepromSource}) under any other host root.
 */
@FunctionalInterface
public interface ModuleEepromSource {
    /**
     * The image.
     *
     * @throws NoModuleException when there is nothing to read, which is not a failure: a driver without cages
     *                           (veth, virtio), an empty cage, no capture
     * @throws IOException       naming the interface and the call or file when the read failed
     */
    byte[] read(String ifname) throws IOException;

    /** There is no module to read on the interface; the message says why. */
    final class NoModuleException extends IOException {
        public NoModuleException(String message) {
            super(message);
        }
    }
}
