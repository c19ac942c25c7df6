package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.fabric.FabricFinding;
import io.rdmamon.collector.fabric.FabricInput;
import io.rdmamon.collector.fabric.FabricRule;
import io.rdmamon.collector.fabric.LinkEnds;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.fabric.FabricNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * fabric_link_down: a link a topology sweep saw up (both ports Active/LinkUp) is no longer up in the last topology:
 * its ports went down, or a node at one end left the fabric. A node missing from a sweep that failed is not judged
 * (it may only not have answered; the sweep's problems name it). Clears when the link is up again.
 */
public final class FabricLinkDown implements FabricRule {
    @Override
    public Rule id() {
        return Rule.FABRIC_LINK_DOWN;
    }

    @Override
    public List<FabricFinding> evaluate(FabricInput in) {
        List<FabricFinding> findings = new ArrayList<>();
        for (LinkEnds link : in.lost()) {
            String now = state(in, link.a()) + "; " + state(in, link.b());
            findings.add(new FabricFinding(id(), link, "link " + link + " in fabric " + in.subnet()
                    + " was up and is gone (" + now + ")" + in.hostsBehind(link), Map.of()));
        }
        return findings;
    }

    /** What the last sweep says of one end: its port's state, or that its node is gone. */
    private static String state(FabricInput in, LinkEnds.End end) {
        FabricNode node = in.current().node(end.guid()).orElse(null);
        if (node == null) {
            return end + ": node not in the fabric";
        }
        return node.port(end.port()).map(p -> end + ": " + p.state() + "/" + p.physState()
                + (p.linked() ? ", cabled to " + p.remoteGuid() + "[" + p.remotePort() + "]" : ""))
                .orElse(end + ": port not read");
    }
}
