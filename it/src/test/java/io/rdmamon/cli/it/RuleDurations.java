package io.rdmamon.cli.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Shortens the durations of a Prometheus rule file so that an alert with {@code for: 10m} over
 * {@code [2m]} windows can be watched firing in an integration test of a few minutes.
 *
 * <p>Only durations change: every {@code for:} (and {@code keep_firing_for:}) value and every range
 * selector {@code [2m]} is divided by the factor and rounded up to whole seconds, never below
 * {@link #MINIMUM} (five 1 s scrape intervals, so a rate still has samples to work with) unless the
 * original was shorter. Expressions, thresholds, labels, annotations and rule names stay as they are
 * ({@code rdma:port_bytes:rate2m} keeps its name; only {@code [2m]} becomes {@code [12s]} for a factor of 10).
 */
final class RuleDurations {
    static final Duration MINIMUM = Duration.ofSeconds(5);

    private static final String DURATION = "(?:[0-9]+(?:ms|[smhdwy]))+";
    private static final Pattern FOR = Pattern.compile("(?m)^([ \\t]*(?:keep_firing_)?for:[ \\t]*)(.*?)[ \\t]*$");
    private static final Pattern RANGE = Pattern.compile("\\[(" + DURATION + ")]");
    private static final Pattern PART = Pattern.compile("([0-9]+)(ms|[smhdwy])");

    private RuleDurations() {
    }

    /** Copies of the {@code *.yml} rule files of {@code rulesDir} in {@code workDir}, every duration divided by {@code factor}. */
    static List<Path> scaledCopies(Path rulesDir, Path workDir, int factor) throws IOException {
        List<Path> originals;
        try (Stream<Path> list = Files.list(rulesDir)) {
            originals = list.filter(f -> f.toString().endsWith(".yml")).sorted().toList();
        }
        Path dir = Files.createDirectories(workDir.resolve("rules-scaled-" + factor));
        List<Path> scaled = new ArrayList<>();
        for (Path original : originals) {
            Path copy = dir.resolve(original.getFileName());
            Files.writeString(copy, scale(Files.readString(original), factor));
            scaled.add(copy);
        }
        return scaled;
    }

    /**
     * The rule file text with every duration divided by {@code factor}.
     *
     * @throws IllegalArgumentException for a factor below 1 or a {@code for:} value that is no
     *                                  Prometheus duration (the message quotes it)
     */
    static String scale(String rules, int factor) {
        if (factor < 1) {
            throw new IllegalArgumentException("duration scale factor must be at least 1, got " + factor);
        }
        String scaledFor = replace(FOR, rules, m -> m.group(1) + format(scaled(parse(m.group(2)), factor)));
        return replace(RANGE, scaledFor, m -> "[" + format(scaled(parse(m.group(1)), factor)) + "]");
    }

    /** {@code duration / factor}, rounded up to whole seconds, at least {@link #MINIMUM} unless it was shorter. */
    static Duration scaled(Duration duration, int factor) {
        long millis = duration.toMillis();
        long seconds = (millis + factor * 1000L - 1) / (factor * 1000L);
        Duration result = Duration.ofSeconds(seconds);
        Duration floor = duration.compareTo(MINIMUM) < 0 ? duration : MINIMUM;
        return result.compareTo(floor) < 0 ? floor : result;
    }

    /** A Prometheus duration such as {@code 10m}, {@code 1h30m} or {@code 500ms}. */
    static Duration parse(String text) {
        if (!text.matches(DURATION)) {
            throw new IllegalArgumentException("'" + text + "' is not a Prometheus duration (e.g. 30s, 5m, 1h30m)");
        }
        Duration total = Duration.ZERO;
        Matcher part = PART.matcher(text);
        while (part.find()) {
            long n = Long.parseLong(part.group(1));
            total = total.plus(switch (part.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                case "w" -> Duration.ofDays(7 * n);
                default -> Duration.ofDays(365 * n); // y: Prometheus counts a year as 365 days
            });
        }
        return total;
    }

    private static String format(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
    }

    private static String replace(Pattern pattern, String text, java.util.function.Function<Matcher, String> replacement) {
        Matcher matcher = pattern.matcher(text);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            matcher.appendReplacement(out, Matcher.quoteReplacement(replacement.apply(matcher)));
        }
        matcher.appendTail(out);
        return out.toString();
    }
}
