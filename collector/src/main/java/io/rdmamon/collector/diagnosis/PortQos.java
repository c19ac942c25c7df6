package io.rdmamon.collector.diagnosis;

import io.rdmamon.collector.model.QosProfile;
import io.rdmamon.collector.model.RoceDscp;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.IbDevice;
import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.model.PortTransport;
import io.rdmamon.protocol.model.QosConfig;
import io.rdmamon.protocol.nccl.NcclAdvice;

import java.util.List;
import java.util.Map;

/**
 * What the QoS rules derive from one port's configuration: its transport (RoCE or not), the DSCP its RoCE traffic
 * uses ({@link RoceDscp}), its {@link QosProfile}, and the {@code /etc/nccl.conf} settings that contradict it. The configuration changes on the
 * agent's slow cadence (30 s) while the rules run on every sample of every port, and deriving it again each time
 * was most of the collector's ingest CPU at 2,000 nodes (docs/performance.md, "Collector ingest"). So the engine keeps a
 * port's view for as long as the inputs are equal ({@link #reuse}). Immutable.
 */
public final class PortQos {
    /**
     * Everything the derivations read: the device's name and node type, the port's number, state, link layer,
     * netdev, QoS configuration and GID table, and the node's nccl.conf. Compared with {@code equals}, which is
     * cheap for the usual case: the collector decodes the configuration and the GID table once per layout, so
     * consecutive samples share the same instances.
     */
    private record Inputs(String device, int nodeTypeId, int port, int stateId, String linkLayer, String netdev,
                          QosConfig qos, List<GidEntry> gids, Map<String, String> ncclConf) {
        static Inputs of(IbDevice device, IbPort port, Map<String, String> ncclConf) {
            return new Inputs(device.name(), device.nodeTypeId(), port.port(), port.stateId(), port.linkLayer(),
                    port.netdev(), port.qos(), port.gids(), ncclConf);
        }
    }

    private final Inputs inputs;
    private final PortTransport transport;
    private final RoceDscp roceDscp;
    private final QosProfile profile;
    private final List<String> ncclMismatches;

    /** Derives every part at once, so that the view keeps no sample (its counters, module, ...) alive. */
    private PortQos(IbDevice device, IbPort port, Map<String, String> ncclConf) {
        this.inputs = Inputs.of(device, port, ncclConf);
        this.transport = PortTransport.of(device, port);
        this.roceDscp = RoceDscp.of(port, ncclConf);
        QosConfig qos = port.qos();
        boolean configured = qos != null && (qos.pfc() != null || qos.ets() != null || !qos.app().isEmpty());
        this.profile = configured ? QosProfile.of(qos, roceDscp == null ? null : roceDscp.dscp()) : null;
        // asked of active RoCE ports only (nccl_conf_mismatch), as NcclAdvice expects
        boolean asked = ncclConf != null && transport == PortTransport.ROCE && port.isActive()
                && (ncclConf.containsKey(NcclAdvice.GID_INDEX) || ncclConf.containsKey(NcclAdvice.TC));
        this.ncclMismatches = asked ? NcclAdvice.portMismatches(device, port, ncclConf) : List.of();
    }

    /** The view of {@code port} of {@code device} on a node with {@code ncclConf} (null: none). */
    public static PortQos of(IbDevice device, IbPort port, Map<String, String> ncclConf) {
        return new PortQos(device, port, ncclConf);
    }

    /** {@code kept} when it was made from equal inputs, else a new view. */
    public static PortQos reuse(PortQos kept, IbDevice device, IbPort port, Map<String, String> ncclConf) {
        return kept != null && kept.inputs.equals(Inputs.of(device, port, ncclConf)) ? kept : of(device, port, ncclConf);
    }

    /**
     * {@link PortTransport#of(IbDevice, IbPort)}: whether the port is RoCE, which gates most rules; it looks through
     * the whole GID table (255 entries on mlx5), and every RoCE rule asks.
     */
    public PortTransport transport() {
        return transport;
    }

    /** {@link RoceDscp#of} of the port. */
    public RoceDscp roceDscp() {
        return roceDscp;
    }

    /**
     * The port's profile ({@link QosProfile#of(QosConfig, Integer)} at its own RoCE DSCP); null when the port has no
     * DCB configuration (not RoCE, not read, no DCB).
     */
    public QosProfile profile() {
        return profile;
    }

    /**
     * What {@code NCCL_IB_GID_INDEX} and {@code NCCL_IB_TC} of the node's nccl.conf contradict on this port alone
     * ({@link NcclAdvice#portMismatches}); empty without an nccl.conf that sets either, for a port that is not an
     * active RoCE port, and for one the file's own {@code NCCL_IB_HCA} keeps NCCL off. A port without a RoCE v2 IPv4
     * GID, which the advice leaves out, is still checked: NCCL uses it all the same.
     */
    public List<String> ncclMismatches() {
        return ncclMismatches;
    }
}
