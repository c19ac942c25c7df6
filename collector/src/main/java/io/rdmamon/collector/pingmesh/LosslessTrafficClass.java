package io.rdmamon.collector.pingmesh;

import io.rdmamon.collector.model.QosProfile;
import io.rdmamon.collector.model.RoceDscp;
import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.IbPort;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The traffic class the pingmesh's RoCE probes are sent with: the fleet's RoCE DSCP, shifted left by two, when that
 * DSCP is known to land on a lossless (PFC) priority, so that the probes measure the path RDMA traffic takes. From
 * the configured QoS profile ({@code diagnosis.qosProfile}) when it names the DSCP, else the DSCP most RoCE ports of
 * the round send with ({@link RoceDscp}) among those whose configuration maps it to a PFC priority; null otherwise
 * (the device's default class).
 */
final class LosslessTrafficClass {
    private LosslessTrafficClass() {
    }

    /** A RoCE port of the round, with its node's sample (for {@code /etc/nccl.conf}). */
    record RocePort(HostSample sample, IbPort port) {
    }

    static Integer of(QosProfile configured, List<RocePort> ports) {
        if (configured != null && configured.roceDscp() != null) {
            return configured.pfc() != null && configured.pfc().contains(configured.roceDscpPriority())
                    ? configured.roceDscp() << 2 : null;
        }
        Map<Integer, Integer> votes = new TreeMap<>();
        for (RocePort p : ports) {
            if (p.port().qos() == null || p.port().qos().pfc() == null) {
                continue;
            }
            RoceDscp dscp = RoceDscp.of(p.port(), p.sample().ncclConf());
            if (dscp == null) {
                continue;
            }
            Integer priority = QosProfile.priorityOf(p.port().qos(), dscp.dscp());
            if (priority != null && p.port().qos().pfcPriorities().contains(priority)) {
                votes.merge(dscp.dscp(), 1, Integer::sum);
            }
        }
        // the most common; on a tie the lowest DSCP, so that the answer does not depend on the ports' order
        return votes.entrySet().stream().max(Map.Entry.<Integer, Integer>comparingByValue()
                        .thenComparing(Map.Entry.comparingByKey(java.util.Comparator.reverseOrder())))
                .map(e -> e.getKey() << 2).orElse(null);
    }
}
