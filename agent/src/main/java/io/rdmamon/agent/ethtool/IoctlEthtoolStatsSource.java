package io.rdmamon.agent.ethtool;

import io.rdmamon.nativeio.ethtool.Ethtool;
import io.rdmamon.nativeio.ethtool.JnrEthtool;

import java.io.IOException;
import java.util.LinkedHashMap;

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

    @Override
    public LinkedHashMap<String, Long> statistics(String ifname) throws IOException {
        InterfaceNames.requireValid(ifname);
        return ethtool.stats(ifname);
    }
}
