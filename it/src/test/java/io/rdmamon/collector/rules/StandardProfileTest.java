package io.rdmamon.collector.rules;

import io.rdmamon.protocol.exposition.MetricSelection;
import io.rdmamon.protocol.exposition.MetricSelection.Profile;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code standard} profile of {@code --metrics} (docs/architecture.md "The rdmamon command") holds every family a
 * shipped file of grafana/
 * queries (dashboards, recording rules, alert rules), and, beyond {@code minimal}, nothing else. The names are taken
 * from the files' text: every {@code rdma_*} / {@code rdmamon_*} word outside YAML comments, and each
 * {@code __name__=~"..."} regex spelled out into the names it matches (the eRDMA dashboard and recording rules
 * match both spellings of the erdma driver's counters). Recording rules' own names ({@code rdma:...}) are not
 * families and do not match. Diagnosis evidence needs no family: the diagnosis engine judges the samples in the
 * collector, never the exposition.
 */
class StandardProfileTest {
    private static final MetricSelection STANDARD = MetricSelection.parse("standard");
    private static final Pattern FAMILY =
            Pattern.compile("\\b(rdma_[a-z0-9_]+|rdmamon_[a-z0-9_]+|jvm_[a-z0-9_]+|process_[a-z0-9_]+|vertx_[a-z0-9_]+)\\b");
    /** {@code __name__=~"regex"}, the quotes escaped or not (JSON dashboards escape them). */
    private static final Pattern NAME_REGEX = Pattern.compile("__name__\\s*=~\\s*\\\\?\"([^\"\\\\]*)\\\\?\"");

    @Test
    void standardHoldsEveryFamilyAShippedQueryNames() throws IOException {
        Set<String> referenced = referenced();
        MetricSelection standard = MetricSelection.parse("standard");
        Set<String> missing = new TreeSet<>();
        for (String family : referenced) {
            if (!standard.includes(family)) {
                missing.add(family);
            }
        }
        assertTrue(referenced.size() > 40, "too few names found: " + referenced);
        assertEquals(Set.of(), missing, "families grafana/ queries that the standard profile leaves out "
                + "(add them to MetricSelection.STANDARD)");
    }

    @Test
    void standardIsMinimalAndWhatTheShippedQueriesNameNothingElse() throws IOException {
        Set<String> extra = new TreeSet<>(MetricSelection.families(Profile.STANDARD));
        extra.removeAll(MetricSelection.families(Profile.MINIMAL));
        extra.removeAll(referenced());
        assertEquals(Set.of(), extra, "standard families no shipped file of grafana/ names");
    }

    @Test
    void everyCollectorSelfFamilyIsDocumented() throws IOException {
        String doc = Files.readString(GrafanaFiles.ROOT.resolve("docs/metrics.md"));
        for (String family : MetricSelection.COLLECTOR_SELF) {
            assertTrue(doc.contains("`" + family + "`"), family + " not in docs/metrics.md");
        }
    }

    @Test
    void nameRegexesExpand() {
        assertEquals(Set.of("rdma_hw_tx_bytes_cnt_total", "rdma_hw_hw_tx_bytes_cnt_total"),
                expand("rdma_hw_(hw_)?tx_bytes_cnt_total"));
        assertEquals(Set.of("rdma_hw_tx_x_total", "rdma_hw_hw_x_total"), expand("rdma_hw_(tx_|hw_)x_total"));
    }

    /** A histogram's {@code _bucket}/{@code _sum}/{@code _count} series name its family (as MetricSelection does). */
    private static String histogramFamily(String name) {
        String family = name.replaceFirst("_(bucket|sum|count)$", "");
        return !STANDARD.includes(name) && STANDARD.includes(family) ? family : name;
    }

    /** Every family name the shipped dashboards and rule files reference. */
    static Set<String> referenced() throws IOException {
        List<Path> files = new ArrayList<>(GrafanaFiles.list(GrafanaFiles.DASHBOARDS, ".json"));
        files.addAll(GrafanaFiles.list(GrafanaFiles.RULES, ".yml"));
        Set<String> names = new TreeSet<>();
        for (Path file : files) {
            String text = Files.readString(file);
            if (file.toString().endsWith(".yml")) {
                text = text.replaceAll("(?m)^\\s*#.*$", ""); // comments are prose, not queries
            }
            Matcher regexes = NAME_REGEX.matcher(text);
            while (regexes.find()) {
                names.addAll(expand(regexes.group(1)));
            }
            Matcher m = FAMILY.matcher(NAME_REGEX.matcher(text).replaceAll(""));
            while (m.find()) {
                names.add(histogramFamily(m.group(1)));
            }
        }
        return names;
    }

    /** The names a regex of literals, {@code (a|b)} groups and {@code ?} after a group matches. */
    static Set<String> expand(String regex) {
        Set<String> result = new TreeSet<>();
        result.add("");
        int i = 0;
        while (i < regex.length()) {
            char c = regex.charAt(i);
            Set<String> options = new TreeSet<>();
            if (c == '(') {
                int depth = 0;
                int end = i;
                for (; end < regex.length(); end++) {
                    depth += regex.charAt(end) == '(' ? 1 : regex.charAt(end) == ')' ? -1 : 0;
                    if (depth == 0) {
                        break;
                    }
                }
                for (String alternative : topLevelAlternatives(regex.substring(i + 1, end))) {
                    options.addAll(expand(alternative));
                }
                i = end + 1;
                if (i < regex.length() && regex.charAt(i) == '?') {
                    options.add("");
                    i++;
                }
            } else if (Character.isLetterOrDigit(c) || c == '_') {
                options.add(String.valueOf(c));
                i++;
            } else {
                throw new AssertionError("cannot spell out the name regex " + regex + " (at '" + c + "')");
            }
            Set<String> next = new TreeSet<>();
            for (String prefix : result) {
                for (String option : options) {
                    next.add(prefix + option);
                }
            }
            result = next;
        }
        return result;
    }

    private static List<String> topLevelAlternatives(String group) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int from = 0;
        for (int i = 0; i < group.length(); i++) {
            char c = group.charAt(i);
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (c == '|' && depth == 0) {
                parts.add(group.substring(from, i));
                from = i + 1;
            }
        }
        parts.add(group.substring(from));
        return parts;
    }
}
