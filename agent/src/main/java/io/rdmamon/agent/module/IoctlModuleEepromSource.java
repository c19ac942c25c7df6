package io.rdmamon.agent.module;

import io.rdmamon.agent.ethtool.InterfaceNames;
import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.ethtool.Ethtool;
import io.rdmamon.nativeio.ethtool.EthtoolException;
import io.rdmamon.nativeio.ethtool.JnrEthtool;

import java.io.IOException;

/**
 * The module EEPROM through {@code ETHTOOL_GMODULEINFO}/{@code ETHTOOL_GMODULEEEPROM} (phys-facts.md §2). What the
 * errno means: EOPNOTSUPP a driver without module cages (veth, virtio-net); EIO, ENODEV, ENXIO an empty cage (ethtool
 * prints "SFP module not in cage?") — both are "no module", not failures. EINVAL is mlx5 refusing a CMIS module
 * (QSFP-DD, OSFP) over the ioctl: those need the ethtool netlink page read, which is a follow-up; EPERM is a missing
 * CAP_NET_ADMIN. Both fail with a message that says so.
 */
public final class IoctlModuleEepromSource implements ModuleEepromSource {
    private final Ethtool ethtool;

    public IoctlModuleEepromSource(Ethtool ethtool) {
        this.ethtool = ethtool;
    }

    /** The source over the jnr-ffi binding; one that fails for every interface when the binding cannot load. */
    public static ModuleEepromSource loadNative() {
        try {
            return new IoctlModuleEepromSource(new JnrEthtool());
        } catch (RuntimeException | LinkageError e) {
            String reason = "ethtool ioctl unavailable: " + e.getMessage();
            return ifname -> {
                throw new IOException(ifname + ": " + reason);
            };
        }
    }

    @Override
    public byte[] read(String ifname) throws IOException {
        InterfaceNames.requireValid(ifname);
        try {
            return ethtool.moduleEeprom(ifname).bytes();
        } catch (EthtoolException e) {
            switch (e.errno()) {
                case Errno.EOPNOTSUPP -> throw new NoModuleException(ifname + ": no module cage (" + e.getMessage() + ")");
                case Errno.EIO, Errno.ENODEV, Errno.ENXIO -> throw new NoModuleException(ifname
                        + ": no module in the cage? (" + e.getMessage() + ")");
                case Errno.EINVAL -> throw new IOException(e.getMessage() + ": the driver does not know the module "
                        + "(a CMIS module on mlx5 needs the ethtool netlink page read, not done yet)", e);
                case Errno.EPERM -> throw new IOException(e.getMessage() + ": reading a module EEPROM needs "
                        + "CAP_NET_ADMIN", e);
                default -> throw e;
            }
        }
    }
}
