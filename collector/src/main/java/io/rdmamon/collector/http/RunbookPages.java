package io.rdmamon.collector.http;

import io.rdmamon.collector.model.Rule;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET /runbooks/<rule>}: the runbook page of a diagnosis rule, docs/runbooks/&lt;rule&gt;.md, which the build
 * copies into the jar (collector/pom.xml). Every diagnosis links here ({@link Rule#runbookUrl()}), relative, so the
 * link works on whatever host the collector answers. Served as a minimal HTML page, or as the markdown itself to a
 * client that asks for {@code text/markdown}. Public like the dashboard's static files: the pages are the project's
 * documentation, and an alert's link must open without a token. An unknown rule is a 404 naming the valid ones.
 *
 * <p>Every page is read and rendered once, at construction on a worker before the verticle starts (a dozen small entries of the jar
 * the collector's classes are loaded from; a missing page is a packaging bug and fails the start), so serving one
 * never touches the disk.
 */
public final class RunbookPages {
    public static final String PATH = "/runbooks/:rule";
    private static final String RESOURCE_DIR = "runbooks/";
    private static final String MARKDOWN = "text/markdown; charset=utf-8";

    private record Page(String markdown, String html) {
    }

    private final Map<Rule, Page> pages = new EnumMap<>(Rule.class);

    public RunbookPages() {
        for (Rule rule : Rule.values()) {
            String markdown = read(RESOURCE_DIR + rule.id() + ".md");
            pages.put(rule, new Page(markdown, MarkdownPage.html(rule.id() + " · rdmamon runbook", markdown)));
        }
    }

    public void serve(RoutingContext ctx) {
        Rule rule;
        try {
            rule = Rule.fromId(ctx.pathParam("rule"));
        } catch (IllegalArgumentException e) {
            ctx.response().setStatusCode(404).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end(new JsonObject().put("error", "no runbook: " + e.getMessage()).encode());
            return;
        }
        Page page = pages.get(rule);
        boolean markdown = ctx.parsedHeaders().accept().stream().findFirst()
                .map(accept -> accept.value().equals("text/markdown")).orElse(false);
        ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, markdown ? MARKDOWN : "text/html; charset=utf-8")
                .putHeader(HttpHeaders.VARY, HttpHeaders.ACCEPT)
                .end(markdown ? page.markdown() : page.html());
    }

    private static String read(String resource) {
        try (InputStream in = RunbookPages.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("runbook page " + resource + " is not packaged in the collector jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + resource, e);
        }
    }

    /**
     * The subset of markdown the runbook pages use: headings, paragraphs, bullet lists (with wrapped lines),
     * fenced code, {@code `code`}, {@code **bold**}, {@code *emphasis*} and links. A link to a sibling page
     * ({@code link_down.md}) points at its runbook URL; other relative links (into docs/, which the collector does
     * not serve) keep only their text.
     */
    static final class MarkdownPage {
        private static final Pattern INLINE = Pattern.compile(
                "`([^`]+)`|\\*\\*(.+?)\\*\\*|\\*([^*\\s][^*]*)\\*|\\[([^\\]]+)]\\(([^)\\s]+)\\)");
        private static final Pattern SIBLING = Pattern.compile("([a-z0-9_]+)\\.md");

        private MarkdownPage() {
        }

        static String html(String title, String markdown) {
            StringBuilder out = new StringBuilder("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>")
                    .append(escape(title)).append("</title><style>body{font:15px/1.5 system-ui,sans-serif;"
                            + "max-width:50rem;margin:2rem auto;padding:0 1rem}code,pre{font-family:ui-monospace,monospace;"
                            + "background:#8881;border-radius:3px}pre{padding:.5rem;overflow-x:auto}</style></head><body>\n");
            StringBuilder paragraph = new StringBuilder();
            boolean inList = false;
            boolean inCode = false;
            for (String line : markdown.split("\n", -1)) {
                if (inCode) {
                    if (line.startsWith("```")) {
                        out.append("</pre>\n");
                        inCode = false;
                    } else {
                        out.append(escape(line)).append('\n');
                    }
                    continue;
                }
                String trimmed = line.strip();
                boolean item = trimmed.startsWith("- ") && !line.startsWith("  ");
                boolean heading = line.startsWith("#");
                boolean fence = line.startsWith("```");
                // a list runs on over indented (wrapped) lines and ends at anything else that is not an item
                boolean closesList = inList && !item && (trimmed.isEmpty() || heading || fence || !line.startsWith(" "));
                if (trimmed.isEmpty() || item || heading || fence || closesList) {
                    flush(out, paragraph, inList);
                }
                if (closesList) {
                    out.append("</ul>\n");
                    inList = false;
                }
                if (fence) {
                    out.append("<pre>");
                    inCode = true;
                } else if (heading) {
                    int level = Math.min(6, (int) line.chars().takeWhile(c -> c == '#').count());
                    out.append("<h").append(level).append('>').append(inline(line.substring(level).strip()))
                            .append("</h").append(level).append(">\n");
                } else if (item) {
                    if (!inList) {
                        out.append("<ul>\n");
                        inList = true;
                    }
                    paragraph.append(trimmed.substring(2));
                } else if (!trimmed.isEmpty()) {
                    paragraph.append(paragraph.isEmpty() ? "" : " ").append(trimmed);
                }
            }
            flush(out, paragraph, inList);
            if (inList) {
                out.append("</ul>\n");
            }
            if (inCode) {
                out.append("</pre>\n");
            }
            return out.append("</body></html>\n").toString();
        }

        private static void flush(StringBuilder out, StringBuilder paragraph, boolean inList) {
            if (!paragraph.isEmpty()) {
                String tag = inList ? "li" : "p";
                out.append('<').append(tag).append('>').append(inline(paragraph.toString())).append("</").append(tag)
                        .append(">\n");
                paragraph.setLength(0);
            }
        }

        private static String inline(String text) {
            StringBuilder out = new StringBuilder();
            Matcher m = INLINE.matcher(text);
            int at = 0;
            while (m.find()) {
                out.append(escape(text.substring(at, m.start())));
                if (m.group(1) != null) {
                    out.append("<code>").append(escape(m.group(1))).append("</code>");
                } else if (m.group(2) != null) {
                    out.append("<strong>").append(inline(m.group(2))).append("</strong>");
                } else if (m.group(3) != null) {
                    out.append("<em>").append(inline(m.group(3))).append("</em>");
                } else {
                    out.append(link(m.group(4), m.group(5)));
                }
                at = m.end();
            }
            return out.append(escape(text.substring(at))).toString();
        }

        private static String link(String label, String target) {
            Matcher sibling = SIBLING.matcher(target);
            String href = target.startsWith("https://") || target.startsWith("http://") ? target
                    : sibling.matches() ? sibling.group(1) : null;
            return href == null ? inline(label)
                    : "<a href=\"" + escape(href) + "\">" + inline(label) + "</a>";
        }

        private static String escape(String text) {
            return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
        }
    }
}
