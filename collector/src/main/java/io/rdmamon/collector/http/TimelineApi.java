package io.rdmamon.collector.http;

import io.rdmamon.collector.changes.Change;
import io.rdmamon.collector.changes.ChangeKind;
import io.rdmamon.collector.changes.ChangeLog;
import io.rdmamon.collector.changes.ChangeSeverity;
import io.rdmamon.collector.web.ApiAnswer;
import io.rdmamon.collector.web.Routes;
import io.rdmamon.protocol.model.Names;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Predicate;

/**
 * {@code GET /api/events[?node=&kind=&severity=&since=&after=&limit=]}: the fleet's change log ({@link ChangeLog}),
 * newest first (docs/collector.md). {@code severity} is the least severity wanted, {@code since} a time in epoch
 * milliseconds, {@code after} an entry id (the live feed's resume point). A parameter that does not parse is a 400.
 */
public final class TimelineApi implements Routes {
    public static final int DEFAULT_LIMIT = 200;
    public static final int MAX_LIMIT = 2000;

    /** The filters of one request, parsed. */
    public record Query(String node, ChangeKind kind, ChangeSeverity severity, long sinceMillis, long afterId,
                        int limit) {
        boolean accepts(Change change) {
            return (kind == null || change.kind() == kind)
                    && (severity == null || change.severity().compareTo(severity) >= 0)
                    && change.timeMillis() >= sinceMillis;
        }

        /**
         * The query of these request parameters (each may be null: not given).
         *
         * @throws IllegalArgumentException naming the parameter that does not parse
         */
        public static Query parse(String node, String kind, String severity, String since, String after, String limit) {
            if (node != null && !Names.isNodeName(node)) {
                throw new IllegalArgumentException("invalid node (" + Names.nodeNameRule() + ")");
            }
            int max = (int) number("limit", limit, DEFAULT_LIMIT, 1, MAX_LIMIT);
            return new Query(node, kind == null ? null : ChangeKind.fromId(kind),
                    severity == null ? null : ChangeSeverity.fromId(severity),
                    number("since", since, 0, 0, Long.MAX_VALUE), number("after", after, 0, 0, Long.MAX_VALUE), max);
        }

        private static long number(String name, String text, long absent, long min, long max) {
            if (text == null) {
                return absent;
            }
            try {
                long value = Long.parseLong(text);
                if (value >= min && value <= max) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // the message below says what is wanted
            }
            throw new IllegalArgumentException(name + " must be an integer in " + min + ".." + max);
        }
    }

    private final ChangeLog log;

    public TimelineApi(ChangeLog log) {
        this.log = log;
    }

    @Override
    public void mount(Router router) {
        router.get("/api/events").handler(ctx -> {
            var p = ctx.request();
            list(p.getParam("node"), p.getParam("kind"), p.getParam("severity"), p.getParam("since"),
                    p.getParam("after"), p.getParam("limit")).send(ctx);
        });
    }

    /** The answer to these request parameters (null: not given). */
    public ApiAnswer list(String node, String kind, String severity, String since, String after, String limit) {
        Query query;
        try {
            query = Query.parse(node, kind, severity, since, after, limit);
        } catch (IllegalArgumentException e) {
            return ApiAnswer.error(400, e.getMessage());
        }
        return ApiAnswer.ok(new JsonObject().put("events", events(query)).encode());
    }

    /** The entries {@code query} selects, newest first, each as {@link #json(ChangeLog.Entry)}. */
    public JsonArray events(Query query) {
        Predicate<Change> filter = query::accepts;
        List<ChangeLog.Entry> entries = log.newest(query.node(), filter, query.afterId(), query.limit());
        JsonArray events = new JsonArray();
        entries.forEach(entry -> events.add(json(entry)));
        return events;
    }

    /** One entry as {@code /api/events} and the live feed's {@code change} event carry it. */
    public static JsonObject json(ChangeLog.Entry entry) {
        Change change = entry.change();
        return new JsonObject().put("id", entry.seq()).put("timeMillis", change.timeMillis()).put("node", change.node())
                .put("device", change.device()).put("port", change.port()).put("kind", change.kind().id())
                .put("severity", change.severity().id()).put("text", change.text()).put("link", link(change));
    }

    /** The dashboard's page of the change: the port's ({@code #/port/…}), else the overview filtered to the node. */
    static String link(Change change) {
        if (change.device() != null && change.port() > 0) {
            return "/#/port/" + encode(change.node()) + "/" + encode(change.device()) + "/" + change.port();
        }
        return "/#/?q=" + encode(change.node());
    }

    private static String encode(String text) {
        // as the dashboard's encodeURIComponent (links.js): a space is %20, not +
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
