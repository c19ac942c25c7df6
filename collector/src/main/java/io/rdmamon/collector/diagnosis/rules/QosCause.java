package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.model.QosProfile;
import io.rdmamon.collector.model.RoceDscp;
import io.rdmamon.protocol.model.QosConfig;

import java.util.Set;

/** What in a port's QoS configuration sends its RoCE traffic off the lossless priorities. */
final class QosCause {
    private QosCause() {
    }

    /**
     * The DSCP RoCE uses on the port: its own ({@link RoceDscp}), else the fleet profile's; null when neither is
     * known.
     */
    static RoceDscp roceDscp(PortInput in) {
        RoceDscp own = in.portQos().roceDscp();
        if (own != null) {
            return own;
        }
        QosProfile.Fleet fleet = in.fleetQos();
        return fleet == null || fleet.profile().roceDscp() == null ? null
                : new RoceDscp(fleet.profile().roceDscp(), "the DSCP of " + fleet.origin());
    }

    /** The cause in the configuration, e.g. "trust pcp: untagged RoCE v2 lands on priority 0"; null when none. */
    static String explain(PortInput in, Set<Integer> lossless) {
        QosConfig qos = in.current().qos();
        if (qos == null || qos.pfc() == null && qos.ets() == null && qos.app().isEmpty()) {
            return null;
        }
        if ("pcp".equals(qos.trust()) && !lossless.contains(0)) {
            return "trust pcp on " + in.current().netdev() + ": untagged RoCE v2 lands on priority 0";
        }
        RoceDscp dscp = roceDscp(in);
        if (dscp == null) {
            return null;
        }
        Integer priority = qos.priorityOfDscp(dscp.dscp());
        if (priority == null || !lossless.contains(priority)) {
            return "RoCE DSCP " + dscp.dscp() + " (" + dscp.origin() + ") maps to "
                    + (priority == null ? "no priority (0)" : "priority " + priority);
        }
        return null;
    }
}
