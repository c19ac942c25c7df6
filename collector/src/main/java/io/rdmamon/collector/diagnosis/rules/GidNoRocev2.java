package io.rdmamon.collector.diagnosis.rules;

import io.rdmamon.collector.diagnosis.DiagnosisConfig;
import io.rdmamon.collector.diagnosis.Finding;
import io.rdmamon.collector.diagnosis.PortInput;
import io.rdmamon.collector.diagnosis.PortRule;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.protocol.model.GidAdvice;
import io.rdmamon.protocol.model.GidEntry;
import io.rdmamon.protocol.model.IbPort;

import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * gid_no_rocev2: an active RoCE port has no routable RoCE v2 GID ({@link GidAdvice}), or the configured
 * {@code expectedGidIndex} is not RoCE v2.
 */
public final class GidNoRocev2 implements PortRule {
    private static final int GIDS_IN_EVIDENCE = 4;

    @Override
    public Rule id() {
        return Rule.GID_NO_ROCEV2;
    }

    @Override
    public Optional<Finding> evaluate(PortInput in, DiagnosisConfig config) {
        IbPort port = in.current();
        if (!port.isActive() || !PortDeltas.isRoce(in)) {
            return Optional.empty();
        }
        Integer index = config.expectedGidIndex();
        if (index != null) {
            GidEntry entry = port.gids().stream().filter(g -> g.index() == index).findFirst().orElse(null);
            if (entry == null || !entry.isRoceV2()) {
                return Optional.of(new Finding(Rule.GID_NO_ROCEV2, "the configured GID index " + index + " is "
                        + (entry == null ? "empty" : entry.type() + " (" + entry.gid() + "), not RoCE v2"),
                        Map.of("expectedGidIndex", (double) index)));
            }
        }
        if (GidAdvice.hasRoutableRoceV2(port)) {
            return Optional.empty();
        }
        StringJoiner listed = new StringJoiner(", ");
        port.gids().stream().limit(GIDS_IN_EVIDENCE).forEach(g -> listed.add(g.index() + " " + g.type() + " " + g.gid()));
        return Optional.of(new Finding(Rule.GID_NO_ROCEV2, "no RoCE v2 GID with an IP address among "
                + port.gids().size() + " GID(s)" + (port.gids().isEmpty() ? "" : ": " + listed
                + (port.gids().size() > GIDS_IN_EVIDENCE ? ", …" : ""))
                + (port.netdev() == null ? "" : "; is an IPv4 address configured on " + port.netdev() + "?"),
                Map.of("gidCount", (double) port.gids().size())));
    }
}
