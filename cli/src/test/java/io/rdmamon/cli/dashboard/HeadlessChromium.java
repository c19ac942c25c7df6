package io.rdmamon.cli.dashboard;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.TimeoutError;
import com.microsoft.playwright.options.WaitForSelectorState;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The system's Chromium (RDMAMON_CHROMIUM, default /usr/bin/chromium) driven headless by Playwright;
 * Playwright never downloads a browser. Each page is a tab of its own, with its own sessionStorage
 * (so its own tokens).
 */
final class HeadlessChromium implements AutoCloseable {
    private final Playwright playwright;
    private final BrowserContext browser;

    HeadlessChromium(Path profile) {
        playwright = Playwright.create(new Playwright.CreateOptions()
                .setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        try {
            browser = playwright.chromium().launchPersistentContext(profile,
                    new BrowserType.LaunchPersistentContextOptions()
                            .setExecutablePath(Paths.get(System.getenv().getOrDefault("RDMAMON_CHROMIUM", "/usr/bin/chromium")))
                            .setHeadless(true)
                            .setArgs(List.of("--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                    "--disable-component-update", "--disable-sync", "--no-first-run"))
                            .setViewportSize(1500, 1000));
        } catch (RuntimeException e) {
            playwright.close();
            throw e;
        }
    }

    private static final double NAVIGATION_LIMIT_MILLIS = 120_000;

    /** A new tab whose console errors and uncaught page errors are added to {@code errors}. */
    Page newPage(List<String> errors) {
        Page page = browser.newPage();
        // Playwright's 30 s for a navigation and for a locator's wait is less than a loaded 2-core machine can take
        // to load the dashboard (seen: a navigation's load event missed it); every wait still ends on its event
        page.setDefaultNavigationTimeout(NAVIGATION_LIMIT_MILLIS);
        page.setDefaultTimeout(NAVIGATION_LIMIT_MILLIS);
        page.onConsoleMessage(message -> {
            if ("error".equals(message.type())) {
                errors.add(message.text());
            }
        });
        page.onPageError(error -> errors.add("page error: " + error));
        return page;
    }

    /**
     * Waits until {@code condition} (which reads the page) holds, failing after {@code limit} naming {@code what}
     * and the console errors seen, which usually say why the page never got there. Playwright's own wait, not
     * {@code Waits}: Playwright delivers a page's events (navigations, console messages) only while one of its calls
     * runs, so a sleeping poll would see a stale {@code page.url()}.
     */
    static void waitFor(Page page, BooleanSupplier condition, String what, Duration limit, List<String> consoleErrors) {
        try {
            page.waitForCondition(condition, new Page.WaitForConditionOptions().setTimeout(limit.toMillis()));
        } catch (TimeoutError e) {
            throw new AssertionError("timed out waiting for " + what + "; console errors: " + consoleErrors, e);
        }
    }

    /** Answers the page's token prompt (it asks when the collector first answers 401) with {@code token}. */
    static void giveToken(Page page, String token) {
        page.locator("#token-dialog").waitFor(new Locator.WaitForOptions().setState(WaitForSelectorState.VISIBLE));
        page.fill("#token-input", token);
        page.click("#token-form button[type=submit]");
    }

    @Override
    public void close() {
        try {
            browser.close();
        } finally {
            playwright.close();
        }
    }
}
