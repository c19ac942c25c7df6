package io.rdmamon.agent.qos;

import io.rdmamon.agent.capability.UnsupportedCapabilityException;
import io.rdmamon.nativeio.Errno;
import io.rdmamon.nativeio.dcb.Dcb;
import io.rdmamon.nativeio.dcb.DcbException;
import io.rdmamon.nativeio.dcb.IeeeDcbConfig;
import io.rdmamon.nativeio.dcb.NetlinkDcb;
import io.rdmamon.protocol.model.QosConfig;

import java.io.IOException;
/**
 * The live host's DCB configuration over netlink ({@code DCB_CMD_IEEE_GET}, docs/reference/qos-dcb.md §1), mapped to
 * {@link QosConfig} with source {@code netlink}. A netdev without DCB (veth, virtio-net, a VF) is unsupported
 * ({@link UnsupportedCapabilityException}, {@code no DCB support on X (EOPNOTSUPP)}); a vanished one fails with the
 * kernel's reason ({@code no such interface X (ENODEV)}); either costs only that interface. Blocking: call it on a
 * worker.
 */
public final class NetlinkDcbSource implements DcbSource {
    private final Dcb dcb;

    public NetlinkDcbSource(Dcb dcb) {
        this.dcb = dcb;
    }

    /**
     * The source over the jnr-ffi netlink binding; when the binding cannot load (unsupported platform, no libc found
     * by jnr), a source that says so for every interface instead of crashing.
     */
    public static DcbSource loadNative() {
        try {
            return new NetlinkDcbSource(new NetlinkDcb());
        } catch (RuntimeException | LinkageError e) {
            return DcbSource.unavailable("DCB netlink unavailable: " + e.getMessage());
        }
    }

    @Override
    public QosConfig read(String ifname) throws IOException {
        IeeeDcbConfig config;
        try {
            config = dcb.ieeeConfig(ifname);
        } catch (DcbException e) {
            if (Errno.notSupported(e.errno())) {
                throw new UnsupportedCapabilityException(e.getMessage());
            }
            throw e;
        } catch (LinkageError e) {
            // libc binding failed on first use: a reason for this interface, never a dead reader thread
            throw new IOException(ifname + ": DCB netlink unavailable: " + e, e);
        }
        return toQosConfig(config);
    }

    static QosConfig toQosConfig(IeeeDcbConfig config) {
        IeeeDcbConfig.IeeePfc pfc = config.pfc();
        IeeeDcbConfig.IeeeEts ets = config.ets();
        IeeeDcbConfig.DcbBuffer buffer = config.buffer();
        return new QosConfig(QosConfig.SOURCE_NETLINK, config.dcbx(),
                pfc == null ? null : new QosConfig.Pfc(pfc.pfcCap(), pfc.pfcEn(), pfc.delay()),
                ets == null ? null : new QosConfig.Ets(ets.willing() != 0, ets.etsCap(), ets.tcTxBw(),
                        ets.tcTsa().stream().map(NetlinkDcbSource::tsaName).toList(), ets.prioTc()),
                config.appTable().stream()
                        .map(app -> new QosConfig.AppEntry(app.selector(), app.priority(), app.protocol())).toList(),
                config.appTrust() == null ? null
                        : config.appTrust().stream().map(NetlinkDcbSource::selectorName).toList(),
                buffer == null ? null : new QosConfig.Buffer(buffer.prio2buffer(), buffer.bufferSize(),
                        buffer.totalSize()),
                config.tcMaxrate(), null, null, null);
    }

    /** {@code IEEE_8021QAZ_TSA_*} as iproute2's {@code dcb ets} prints it. */
    static String tsaName(int code) {
        return switch (code) {
            case 0 -> "strict";
            case 1 -> "cbs";
            case 2 -> "ets";
            case 255 -> "vendor";
            default -> "???";
        };
    }

    /** An apptrust selector as iproute2's {@code dcb apptrust} names it. */
    static String selectorName(int selector) {
        return switch (selector) {
            case 1 -> "ethtype";
            case 2 -> "stream-port";
            case 3 -> "dgram-port";
            case 4 -> "port";
            case 5 -> "dscp";
            case 255 -> "pcp";
            default -> "???";
        };
    }
}
