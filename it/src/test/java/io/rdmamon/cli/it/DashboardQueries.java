package io.rdmamon.cli.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Every panel query of the Grafana dashboards in a directory, with Grafana's variables replaced by
 * values Prometheus can run:
 * <ul>
 *   <li>{@code $node}, {@code $device}, {@code $port} (and {@code ${node}} ...) by {@code .*}: the
 *       dashboards use them in {@code =~} matchers, so this is "All";</li>
 *   <li>{@code $__rate_interval} by {@code 30s}: Grafana makes it at least four scrape intervals
 *       (the IT scrapes every second), with margin for a busy machine;</li>
 *   <li>{@code $__interval} by {@code 15s}, {@code $__range} by {@code 5m} (longer than an IT run,
 *       so it covers everything Prometheus has seen).</li>
 * </ul>
 */
final class DashboardQueries {
    /** One target of one panel; {@code panel} is the title, prefixed by its row's title when nested. */
    record PanelQuery(String dashboard, String panel, String expr) {
        /** The metric names (and name prefixes of {@code __name__} regexes) the query reads. */
        Set<String> metricNames() {
            Set<String> names = new TreeSet<>();
            Matcher m = METRIC.matcher(expr);
            while (m.find()) {
                names.add(m.group(1));
            }
            return names;
        }

        @Override
        public String toString() {
            return dashboard + " / '" + panel + "': " + expr;
        }
    }

    static final Map<String, String> VARIABLES = Map.of("node", ".*", "device", ".*", "port", ".*", "replica", ".*",
            "agent_job", ".*", "__rate_interval", "30s", "__interval", "15s", "__range", "5m");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{(\\w+)(?::\\w+)?}|\\$(\\w+)");
    private static final Pattern METRIC = Pattern.compile("(?<![\\w:])(rdma[_:][A-Za-z0-9_:]*)");

    private DashboardQueries() {
    }

    /** The queries of every {@code *.json} dashboard in {@code dir}, panels nested in rows included. */
    static List<PanelQuery> read(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
        if (files.isEmpty()) {
            throw new IOException("no Grafana dashboards (*.json) in " + dir);
        }
        List<PanelQuery> queries = new ArrayList<>();
        for (Path file : files) {
            collect(file.getFileName().toString(), "", JSON.readTree(file.toFile()).path("panels"), queries);
        }
        return queries;
    }

    private static void collect(String dashboard, String row, JsonNode panels, List<PanelQuery> into) {
        for (JsonNode panel : panels) {
            String title = row + panel.path("title").asText();
            for (JsonNode target : panel.path("targets")) {
                if (target.hasNonNull("expr") && !target.path("expr").asText().isBlank()) {
                    into.add(new PanelQuery(dashboard, title, substitute(target.path("expr").asText())));
                }
            }
            collect(dashboard, title + " / ", panel.path("panels"), into);
        }
    }

    /**
     * The expression with every Grafana variable replaced.
     *
     * @throws IllegalArgumentException naming a variable this class has no value for
     */
    static String substitute(String expr) {
        Matcher m = VARIABLE.matcher(expr);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1) != null ? m.group(1) : m.group(2);
            String value = VARIABLES.get(name);
            if (value == null) {
                throw new IllegalArgumentException("no value for Grafana variable $" + name + " in " + expr);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }
}
