package io.rdmamon.collector.http;

import io.rdmamon.collector.diagnosis.Diagnosis;
import io.rdmamon.collector.diagnosis.DiagnosisJson;
import io.rdmamon.collector.diagnosis.engine.DiagnosisEngine;
import io.rdmamon.collector.model.Rule;
import io.rdmamon.collector.model.Severity;
import io.rdmamon.collector.web.ApiAnswer;
import io.rdmamon.collector.web.Routes;
import io.vertx.ext.web.Router;

import java.util.List;
import java.util.function.Predicate;

/**
 * {@code GET /api/diagnoses[?node=&rule=&severity=]}: the active diagnoses, critical first, then the oldest.
 * An unknown rule or severity is a 400 naming the parameter and the valid values.
 */
public final class DiagnosesApi implements Routes {
    private final DiagnosisEngine engine;

    public DiagnosesApi(DiagnosisEngine engine) {
        this.engine = engine;
    }

    @Override
    public void mount(Router router) {
        router.get("/api/diagnoses").handler(ctx -> list(ctx.request().getParam("node"), ctx.request().getParam("rule"),
                ctx.request().getParam("severity")).send(ctx));
    }

    /** This collector's active diagnoses, filtered by the optional {@code node}, {@code rule} and {@code severity}. */
    public ApiAnswer list(String node, String ruleParam, String severityParam) {
        Rule rule;
        Severity severity;
        try {
            rule = ruleParam == null ? null : Rule.fromId(ruleParam);
            severity = severityParam == null ? null : Severity.fromId(severityParam);
        } catch (IllegalArgumentException e) {
            // both messages name the parameter's value and list the valid ones
            return ApiAnswer.error(400, e.getMessage());
        }
        Predicate<Diagnosis> wanted = d -> (node == null || d.node().equals(node)) && (rule == null || d.rule() == rule)
                && (severity == null || d.severity() == severity);
        List<Diagnosis> selected = engine.snapshot().diagnoses().stream().filter(wanted).toList();
        return ApiAnswer.ok(DiagnosisJson.list(selected, System.currentTimeMillis()));
    }
}
