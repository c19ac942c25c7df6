package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.fabric.FabricInput;
import io.rdmamon.collector.fabric.LinkEnds;
import io.rdmamon.protocol.fabric.FabricLink;
import io.rdmamon.protocol.fabric.FabricPort;

/** What the four fabric rules' evidence shares: a port by its node and number, a link by both ends and its hosts. */
final class FabricEvidence {
    private FabricEvidence() {
    }

    /** {@code leaf1 (0x…)[2]}. */
    static String end(FabricLink.End end) {
        return end.node().description() + " (" + end.node().guid() + ")[" + end.port().number() + "]";
    }

    /** {@code link leaf1 (0x…)[2] <-> h2 mlx5_0 (0x…)[1] in fabric F; hosts behind it: …}. */
    static String link(FabricInput in, LinkEnds link) {
        return "link " + link + " in fabric " + in.subnet() + in.hostsBehind(link);
    }

    /** {@code 4X SDR}, or {@code down} for a port without an active width. */
    static String rate(FabricPort port) {
        return port.width() == null || port.speed() == null ? port.state() + "/" + port.physState()
                : port.width() + "X " + port.speed().name();
    }
}
