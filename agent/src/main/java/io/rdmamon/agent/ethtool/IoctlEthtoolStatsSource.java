package io.rdmamon.agent.ethtool;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.ethtool.Ethtool;
import io.rdmamon.nativeio.ethtool.EthtoolException;
import io.rdmamon.nativeio.ethtool.FecParam;
import io.rdmamon.nativeio.ethtool.JnrEthtool;
import io.rdmamon.protocol.model.FecMode;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;

/** The kernel's answer through SIOCETHTOOL ({@code ETHTOOL_GSTRINGS} + {@code ETHTOOL_GSTATS}). */
public final class IoctlEthtoolStatsSource implements EthtoolStatsSource {
    private final Ethtool ethtool;

    public IoctlEthtoolStatsSource(Ethtool ethtool) {
        this.ethtool = ethtool;
    }

    /**
     * The source over the jnr-ffi ioctl binding; when the binding cannot load (no libc found by
     * jnr, unsupported platform), a source that says so for every interface instead of crashing.
     */
    public static EthtoolStatsSource loadNative() {
        try {
            return new IoctlEthtoolStatsSource(new JnrEthtool());
        } catch (RuntimeException | LinkageError e) {
            return EthtoolStatsSource.unavailable("ethtool ioctl unavailable: " + e.getMessage());
        }
    }

    /** A driver without statistics ({@code ETHTOOL_GSSET_INFO} EOPNOTSUPP: no get_sset_count) is unsupported. */
    @Override
    public LinkedHashMap<String, Long> statistics(String ifname) throws IOException {
        InterfaceNames.requireValid(ifname);
        try {
            return ethtool.stats(ifname);
        } catch (EthtoolException e) {
            if (Errno.notSupported(e.errno())) {
                throw new UnsupportedCapabilityException(e.getMessage() + ": the driver has no ethtool statistics");
            }
            throw e;
        }
    }

    /** {@code ETHTOOL_GFECPARAM}; EOPNOTSUPP (veth, virtio, mlx5 with no active FEC) is none, not a failure. */
    @Override
    public FecMode fec(String ifname) throws IOException {
        InterfaceNames.requireValid(ifname);
        FecParam param;
        try {
            param = ethtool.fecParam(ifname);
        } catch (EthtoolException e) {
            if (Errno.notSupported(e.errno())) {
                return null;
            }
            throw e;
        }
        List<String> active = FecParam.names(param.active());
        return new FecMode(active.isEmpty() || active.get(0).equals("None") ? null : active.get(0),
                FecParam.names(param.configured()));
    }
}
