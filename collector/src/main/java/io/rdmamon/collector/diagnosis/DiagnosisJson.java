package io.rdmamon.collector.diagnosis;

import com.fasterxml.jackson.core.JsonGenerator;
import io.rdmamon.collector.json.StreamingJson;
import io.rdmamon.collector.model.Rule;

import java.io.IOException;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JSON of diagnoses, for {@code GET /api/diagnoses} and the live feed's {@code diagnoses} event
 * (docs/diagnosis.md shows both). A node-level diagnosis has no {@code device} and {@code port} fields and
 * {@code "scope": "node"}; a port-level one has both and {@code "scope": "port"}.
 */
public final class DiagnosisJson {

    private DiagnosisJson() {
    }

    /** {@code {"diagnoses":[item…], "ts":…}}; every item with its runbook text, path and URL. */
    public static String list(List<Diagnosis> diagnoses, long nowMillis) {
        return StreamingJson.write(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("diagnoses");
            for (Diagnosis d : diagnoses) {
                item(g, d, true);
            }
            g.writeEndArray();
            g.writeNumberField("ts", nowMillis);
            g.writeEndObject();
        });
    }

    /**
     * The live event: {@code {"ts", "version", "total", "diagnoses":[item without runbook…], "runbooks":{rule:{…}}}},
     * at most {@code limit} items (the first by {@link Diagnosis#ORDER}); the runbooks of the rules listed are sent
     * once each rather than with every item.
     */
    public static String event(List<Diagnosis> diagnoses, long version, long nowMillis, int limit) {
        List<Diagnosis> sent = diagnoses.size() > limit ? diagnoses.subList(0, limit) : diagnoses;
        Set<Rule> rules = EnumSet.noneOf(Rule.class);
        return StreamingJson.write(g -> {
            g.writeStartObject();
            g.writeNumberField("ts", nowMillis);
            g.writeNumberField("version", version);
            g.writeNumberField("total", diagnoses.size());
            g.writeArrayFieldStart("diagnoses");
            for (Diagnosis d : sent) {
                item(g, d, false);
                rules.add(d.rule());
            }
            g.writeEndArray();
            g.writeObjectFieldStart("runbooks");
            for (Rule rule : rules) {
                g.writeObjectFieldStart(rule.id());
                runbook(g, rule);
                g.writeEndObject();
            }
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    private static void item(JsonGenerator g, Diagnosis d, boolean withRunbook) throws IOException {
        g.writeStartObject();
        g.writeStringField("rule", d.rule().id());
        g.writeStringField("severity", d.severity().id());
        g.writeStringField("scope", d.nodeLevel() ? "node" : "port");
        g.writeStringField("node", d.node());
        if (!d.nodeLevel()) {
            g.writeStringField("device", d.device());
            g.writeNumberField("port", d.port());
        }
        g.writeStringField("since", Instant.ofEpochMilli(d.sinceMillis()).toString());
        g.writeNumberField("sinceMillis", d.sinceMillis());
        g.writeStringField("evidence", d.evidence());
        g.writeObjectFieldStart("values");
        for (Map.Entry<String, Double> value : d.values().entrySet()) {
            if (Double.isFinite(value.getValue())) {
                g.writeNumberField(value.getKey(), value.getValue());
            }
        }
        g.writeEndObject();
        if (withRunbook) {
            runbook(g, d.rule());
        }
        g.writeEndObject();
    }

    private static void runbook(JsonGenerator g, Rule rule) throws IOException {
        g.writeStringField("runbook", rule.runbook());
        g.writeStringField("runbookPath", rule.runbookPath());
        g.writeStringField("runbookUrl", rule.runbookUrl());
    }
}
