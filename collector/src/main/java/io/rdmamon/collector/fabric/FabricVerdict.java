package io.rdmamon.collector.fabric;

import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.model.Severity;

import java.util.Map;

/**
 * A raised fabric rule: the last finding of it on one link, and since when it holds.
 *
 * @param subnet      the fabric ({@link FabricState#subnet()})
 * @param sinceMillis collector time of the sweep that first found it
 * @param lastMillis  collector time of the last sweep that found it
 */
public record FabricVerdict(String subnet, FabricFinding finding, long sinceMillis, long lastMillis) {
    public Rule rule() {
        return finding.rule();
    }

    public Severity severity() {
        return finding.rule().severity();
    }

    public LinkEnds link() {
        return finding.link();
    }

    public String evidence() {
        return finding.evidence();
    }

    public Map<String, Double> values() {
        return finding.values();
    }
}
