package io.rdmamon.agent.module;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.agent.ethtool.InterfaceNames;
import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.ethtool.Ethtool;
import io.rdmamon.nativeio.ethtool.EthtoolException;
import io.rdmamon.nativeio.ethtool.JnrEthtool;
import io.rdmamon.nativeio.ethtool.NetlinkModuleEeprom;

import java.io.IOException;

/**
 * The module EEPROM through {@code ETHTOOL_GMODULEINFO}/{@code ETHTOOL_GMODULEEEPROM} (docs/reference/physical-layer.md
 * §2), and page by
 * page through the ethtool netlink {@code MODULE_EEPROM_GET} ({@link PagedModuleImage}) where the ioctl cannot reach
 * the module: EINVAL is mlx5 refusing a CMIS module (QSFP-DD, OSFP) on the ioctl, EOPNOTSUPP a driver that only has
 * the page operation (or none). What the errno of the last call means: EOPNOTSUPP a driver without module cages (veth,
 * virtio-net); EIO, ENODEV, ENXIO an empty cage (ethtool prints "SFP module not in cage?") — both are "no module", not
 * failures; EPERM is a missing CAP_NET_ADMIN, which fails with a message that says so. On a kernel without ethtool
 * netlink (the family lookup answers ENOENT) the ioctl's answer stands: EOPNOTSUPP no cage, EINVAL a module this host
 * cannot read ({@link UnsupportedCapabilityException}).
 */
public final class IoctlModuleEepromSource implements ModuleEepromSource {
    /** One half page through netlink, for {@link PagedModuleImage}. */
    @FunctionalInterface
    public interface HalfPageSource {
        byte[] read(String ifname, int i2cAddress, int page, int bank, int offset) throws IOException;
    }

    private final Ethtool ethtool;
    private final HalfPageSource pages;

    public IoctlModuleEepromSource(Ethtool ethtool, HalfPageSource pages) {
        this.ethtool = ethtool;
        this.pages = pages;
    }

    /** The source over the jnr-ffi bindings; one that fails for every interface when a binding cannot load. */
    public static ModuleEepromSource loadNative() {
        try {
            NetlinkModuleEeprom netlink = new NetlinkModuleEeprom();
            return new IoctlModuleEepromSource(new JnrEthtool(), (ifname, i2cAddress, page, bank, offset) ->
                    netlink.read(ifname, new NetlinkModuleEeprom.PageRequest(i2cAddress, page, bank, offset,
                            PagedModuleImage.HALF_PAGE)));
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
        } catch (EthtoolException ioctl) {
            if (ioctl.errno() != Errno.EINVAL && ioctl.errno() != Errno.EOPNOTSUPP) {
                throw named(ifname, ioctl);
            }
            try {
                return PagedModuleImage.read((i2cAddress, page, bank, offset) ->
                        pages.read(ifname, i2cAddress, page, bank, offset));
            } catch (EthtoolException netlink) {
                if (netlink.errno() != Errno.ENOENT) {
                    throw named(ifname, netlink);
                }
                // a kernel without ethtool netlink (before 5.6, or built without it): the ioctl's answer stands
                if (ioctl.errno() == Errno.EOPNOTSUPP) {
                    throw named(ifname, ioctl);
                }
                throw new UnsupportedCapabilityException(ifname + ": the module refuses the ioctl ("
                        + ioctl.getMessage() + ") and " + netlink.getMessage());
            }
        }
    }

    private static IOException named(String ifname, EthtoolException e) {
        return switch (e.errno()) {
            case Errno.EOPNOTSUPP -> new NoModuleException(ifname + ": no module cage (" + e.getMessage() + ")");
            case Errno.EIO, Errno.ENODEV, Errno.ENXIO -> new NoModuleException(ifname + ": no module in the cage? ("
                    + e.getMessage() + ")");
            case Errno.EPERM -> new IOException(e.getMessage() + ": reading a module EEPROM needs CAP_NET_ADMIN", e);
            default -> e;
        };
    }
}
