package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.fabric.FabricFinding;
import io.rdmamon.collector.fabric.FabricInput;
import io.rdmamon.collector.fabric.FabricRule;
import io.rdmamon.collector.fabric.LinkEnds;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.fabric.FabricLink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * fabric_cable_errors: SymbolErrorCounter, LinkErrorRecoveryCounter or LinkDownedCounter rose at either end of a link
 * between two sweeps. Held {@link #HOLD} after the last rise, so that a cable erring every few sweeps stays named; a
 * counter that went down (cleared with {@code perfquery -R}) is no rise.
 */
public final class FabricCableErrors implements FabricRule {
    /** The cable errors, in the order the evidence names them. */
    static final List<String> COUNTERS = List.of("SymbolErrorCounter", "LinkErrorRecoveryCounter",
            "LinkDownedCounter");
    static final Duration HOLD = Duration.ofMinutes(10);

    @Override
    public Rule id() {
        return Rule.FABRIC_CABLE_ERRORS;
    }

    @Override
    public long holdMillis() {
        return HOLD.toMillis();
    }

    @Override
    public List<FabricFinding> evaluate(FabricInput in) {
        List<FabricFinding> findings = new ArrayList<>();
        for (FabricLink link : in.links()) {
            List<String> rises = new ArrayList<>();
            Map<String, Double> values = new LinkedHashMap<>();
            for (FabricLink.End end : List.of(link.a(), link.b())) {
                String side = end == link.a() ? "a" : "b";
                for (String counter : COUNTERS) {
                    OptionalLong rise = in.rise(end, counter);
                    if (rise.isPresent() && rise.getAsLong() > 0) {
                        rises.add(counter + " +" + Long.toUnsignedString(rise.getAsLong()) + " at "
                                + FabricEvidence.end(end));
                        values.put(counter + "." + side, (double) rise.getAsLong());
                    }
                }
            }
            if (!rises.isEmpty()) {
                LinkEnds ends = LinkEnds.of(link);
                findings.add(new FabricFinding(id(), ends, String.join(", ", rises) + " in "
                        + in.elapsedMillis() / 1000 + " s since the previous sweep, on the "
                        + FabricEvidence.link(in, ends), values));
            }
        }
        return findings;
    }
}
