package io.rdmamon.collector.probe;

import io.rdmamon.collector.config.ConfigException;
import io.rdmamon.protocol.json.StrictJson;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * The {@code "probes"} section of the collector config: the safety limits of active probes.
 *
 * @param maxConcurrent      probes running at once over the whole collector (429 beyond)
 * @param maxDurationSeconds longest {@code durationSeconds} a request may ask for (400 beyond)
 * @param cooldown           time after a probe of a pair finished before the pair may be probed again (409)
 * @param passRatio          a probe passes when its average bandwidth is at least this share of the link rate
 * @param historySize        probes kept for {@code GET /api/probes} (finished ones are dropped oldest first)
 * @param serverReadyTimeout time the destination agent has to report its perftest server listening
 * @param timeoutMargin      added to the probe's duration for its hard timeout (connection setup, teardown)
 * @param auditLog           file the audit lines are appended to; null = logger only
 */
public record ProbeConfig(int maxConcurrent, int maxDurationSeconds, Duration cooldown, double passRatio,
                          int historySize, Duration serverReadyTimeout, Duration timeoutMargin, Path auditLog) {
    private static final Set<String> FILE_KEYS = Set.of("maxConcurrent", "maxDurationSeconds", "cooldownSeconds",
            "passRatio", "historySize", "serverReadyTimeoutSeconds", "timeoutMarginSeconds", "auditLog");

    public ProbeConfig {
        ConfigException.requirePositive("probes.maxConcurrent", maxConcurrent);
        ConfigException.requirePositive("probes.maxDurationSeconds", maxDurationSeconds);
        ConfigException.requirePositive("probes.historySize", historySize);
        if (cooldown.isNegative()) {
            throw new ConfigException("probes.cooldownSeconds must not be negative: " + cooldown.toMillis() / 1000.0);
        }
        if (!(passRatio > 0 && passRatio <= 1)) {
            throw new ConfigException("probes.passRatio must be in (0, 1]: " + passRatio);
        }
        if (serverReadyTimeout.isNegative() || serverReadyTimeout.isZero()) {
            throw new ConfigException("probes.serverReadyTimeoutSeconds must be positive");
        }
        if (timeoutMargin.isNegative() || timeoutMargin.isZero()) {
            throw new ConfigException("probes.timeoutMarginSeconds must be positive");
        }
    }

    /** 2 at once, at most 60 s, 30 s cooldown, pass at 90% of the link rate, 200 kept, 15 s to listen, 30 s margin. */
    public static ProbeConfig defaults() {
        return new ProbeConfig(2, 60, Duration.ofSeconds(30), 0.9, 200, Duration.ofSeconds(15),
                Duration.ofSeconds(30), null);
    }

    /** {@code seconds} (fractions allowed, so that tests can use short timeouts) as a duration; {@code key} names it in errors. */
    public static Duration seconds(double seconds, String key) {
        if (!Double.isFinite(seconds) || seconds < 0 || seconds > 86_400) {
            throw new ConfigException(key + " must be a number of seconds in 0..86400: " + seconds);
        }
        return Duration.ofMillis(Math.round(seconds * 1000));
    }

    public ProbeConfig withMaxConcurrent(int value) {
        return new ProbeConfig(value, maxDurationSeconds, cooldown, passRatio, historySize, serverReadyTimeout,
                timeoutMargin, auditLog);
    }

    public ProbeConfig withMaxDurationSeconds(int value) {
        return new ProbeConfig(maxConcurrent, value, cooldown, passRatio, historySize, serverReadyTimeout,
                timeoutMargin, auditLog);
    }

    public ProbeConfig withCooldown(Duration value) {
        return new ProbeConfig(maxConcurrent, maxDurationSeconds, value, passRatio, historySize, serverReadyTimeout,
                timeoutMargin, auditLog);
    }

    public ProbeConfig withPassRatio(double value) {
        return new ProbeConfig(maxConcurrent, maxDurationSeconds, cooldown, value, historySize, serverReadyTimeout,
                timeoutMargin, auditLog);
    }

    public ProbeConfig withHistorySize(int value) {
        return new ProbeConfig(maxConcurrent, maxDurationSeconds, cooldown, passRatio, value, serverReadyTimeout,
                timeoutMargin, auditLog);
    }

    public ProbeConfig withTimeouts(Duration serverReady, Duration margin) {
        return new ProbeConfig(maxConcurrent, maxDurationSeconds, cooldown, passRatio, historySize, serverReady,
                margin, auditLog);
    }

    public ProbeConfig withAuditLog(Path value) {
        return new ProbeConfig(maxConcurrent, maxDurationSeconds, cooldown, passRatio, historySize, serverReadyTimeout,
                timeoutMargin, value);
    }

    /** This config overlaid by a config file's {@code "probes"} object; a relative {@code auditLog} is resolved against {@code baseDir}. */
    public ProbeConfig overlay(StrictJson section, Path baseDir) {
        section.requireKnownKeys(FILE_KEYS);
        ProbeConfig c = this;
        c = c.withMaxConcurrent(section.integer("maxConcurrent", c.maxConcurrent));
        c = c.withMaxDurationSeconds(section.integer("maxDurationSeconds", c.maxDurationSeconds));
        if (section.has("cooldownSeconds")) {
            c = c.withCooldown(seconds(section.number("cooldownSeconds"), section.path("cooldownSeconds")));
        }
        c = c.withPassRatio(section.number("passRatio", c.passRatio));
        c = c.withHistorySize(section.integer("historySize", c.historySize));
        Duration ready = section.has("serverReadyTimeoutSeconds") ? seconds(section.number("serverReadyTimeoutSeconds"),
                section.path("serverReadyTimeoutSeconds")) : c.serverReadyTimeout;
        Duration margin = section.has("timeoutMarginSeconds") ? seconds(section.number("timeoutMarginSeconds"),
                section.path("timeoutMarginSeconds")) : c.timeoutMargin;
        c = c.withTimeouts(ready, margin);
        if (section.has("auditLog")) {
            c = c.withAuditLog(ConfigException.resolvePath(baseDir, section.string("auditLog"), section.path("auditLog")));
        }
        return c;
    }

    /** This config overlaid by {@code RDMAMON_PROBES_*} variables. */
    public ProbeConfig overlayEnv(Map<String, String> env) {
        ProbeConfig c = this;
        if (env.containsKey("RDMAMON_PROBES_MAX_CONCURRENT")) {
            c = c.withMaxConcurrent((int) envNumber(env, "RDMAMON_PROBES_MAX_CONCURRENT", true));
        }
        if (env.containsKey("RDMAMON_PROBES_MAX_DURATION_SECONDS")) {
            c = c.withMaxDurationSeconds((int) envNumber(env, "RDMAMON_PROBES_MAX_DURATION_SECONDS", true));
        }
        if (env.containsKey("RDMAMON_PROBES_COOLDOWN_SECONDS")) {
            c = c.withCooldown(seconds(envNumber(env, "RDMAMON_PROBES_COOLDOWN_SECONDS", false),
                    "RDMAMON_PROBES_COOLDOWN_SECONDS"));
        }
        if (env.containsKey("RDMAMON_PROBES_PASS_RATIO")) {
            c = c.withPassRatio(envNumber(env, "RDMAMON_PROBES_PASS_RATIO", false));
        }
        if (env.containsKey("RDMAMON_PROBES_HISTORY_SIZE")) {
            c = c.withHistorySize((int) envNumber(env, "RDMAMON_PROBES_HISTORY_SIZE", true));
        }
        Duration ready = env.containsKey("RDMAMON_PROBES_SERVER_READY_TIMEOUT_SECONDS")
                ? seconds(envNumber(env, "RDMAMON_PROBES_SERVER_READY_TIMEOUT_SECONDS", false),
                "RDMAMON_PROBES_SERVER_READY_TIMEOUT_SECONDS") : c.serverReadyTimeout;
        Duration margin = env.containsKey("RDMAMON_PROBES_TIMEOUT_MARGIN_SECONDS")
                ? seconds(envNumber(env, "RDMAMON_PROBES_TIMEOUT_MARGIN_SECONDS", false),
                "RDMAMON_PROBES_TIMEOUT_MARGIN_SECONDS") : c.timeoutMargin;
        c = c.withTimeouts(ready, margin);
        String audit = env.get("RDMAMON_PROBES_AUDIT_LOG");
        if (audit != null) {
            c = c.withAuditLog(audit.isBlank() ? null : Path.of(audit));
        }
        return c;
    }

    private static double envNumber(Map<String, String> env, String variable, boolean integer) {
        String value = env.get(variable).trim();
        try {
            return integer ? Integer.parseInt(value) : Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new ConfigException(variable + " must be " + (integer ? "an integer" : "a number") + ", got '"
                    + value + "'");
        }
    }
}
