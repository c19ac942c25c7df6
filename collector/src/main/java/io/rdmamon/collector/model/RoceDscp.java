package io.rdmamon.collector.model;

import io.rdmamon.protocol.model.IbPort;
import io.rdmamon.protocol.nccl.NcclAdvice;
import io.rdmamon.protocol.model.QosConfig;

import java.util.Map;

/**
 * The DSCP a port's RoCE traffic is sent with, and where that was read (docs/reference/qos-dcb.md §4): MLNX_OFED
 * {@code traffic_class}, rdma_cm {@code default_roce_tos}, {@code NCCL_IB_TC} of {@code /etc/nccl.conf}, each a ToS
 * whose DSCP is {@code tos >> 2}. The first that is set to a non-zero ToS wins; a ToS of 0 counts only when no
 * source sets another (then the traffic runs at DSCP 0, "ToS never set").
 *
 * @param dscp   0..63
 * @param origin e.g. {@code NCCL_IB_TC=106 in /etc/nccl.conf}
 */
public record RoceDscp(int dscp, String origin) {
    /** The port's own RoCE DSCP; null when no source is readable (then the fleet profile's applies). */
    public static RoceDscp of(IbPort port, Map<String, String> ncclConf) {
        QosConfig qos = port.qos();
        RoceDscp zero = null;
        Integer[] tos = {qos == null ? null : qos.trafficClass(), qos == null ? null : qos.defaultRoceTos(),
                ncclConf == null ? null : NcclAdvice.parse(ncclConf.get("NCCL_IB_TC"))};
        for (int i = 0; i < tos.length; i++) {
            if (tos[i] == null || tos[i] < 0 || tos[i] > 255) {
                continue;
            }
            // concatenated, not String.formatted: a Formatter per call was most of the QoS rules' cost at ingest
            String origin = switch (i) {
                case 0 -> "OFED traffic_class " + tos[i];
                case 1 -> "rdma_cm default_roce_tos " + tos[i];
                default -> "NCCL_IB_TC=" + tos[i] + " in /etc/nccl.conf";
            };
            RoceDscp found = new RoceDscp(tos[i] >> 2, origin);
            if (tos[i] != 0) {
                return found;
            }
            if (zero == null) {
                zero = found;
            }
        }
        return zero;
    }
}
