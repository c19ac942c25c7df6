package io.rdmamon.collector.auth;

import io.rdmamon.collector.web.JsonReplies;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Checks {@code Authorization: Bearer <token>} against the configured tokens. With no token configured at all
 * everything is open (docs/architecture.md "The rdmamon command"; the collector then refuses non-loopback addresses
 * unless insecure is set).
 * Once any token is configured, a route is open to no one by default: a route whose roles have no token
 * configured is refused with 403 naming the missing role, so that configuring agent and viewer tokens never
 * leaves probes open to anyone. {@link #check} is the whole role matrix; TokenAuthenticatorMatrixTest walks it.
 */
public final class TokenAuthenticator {
    private static final String BEARER = "bearer ";
    private final List<TokenEntry> tokens;
    private final BiConsumer<RoutingContext, Refusal> onRefused;

    /**
     * Why a request was refused.
     *
     * @param status HTTP status: 401 (no or unknown token), 403 (a known token of another role, or no token of
     *               the route's roles configured)
     * @param reason a fixed key for metrics and log throttling: {@link #UNAUTHENTICATED}, {@link #WRONG_ROLE},
     *               {@link #ROLE_NOT_CONFIGURED}
     * @param error  the JSON error text for the client
     */
    public record Refusal(int status, String reason, String error) {
        public static final String UNAUTHENTICATED = "missing_or_unknown_token";
        public static final String WRONG_ROLE = "wrong_role";
        public static final String ROLE_NOT_CONFIGURED = "role_not_configured";
    }

    public TokenAuthenticator(List<TokenEntry> tokens) {
        this(tokens, (ctx, refusal) -> { });
    }

    /** {@code onRefused} hears of every refusal this authenticator answers (counted and logged by the collector). */
    public TokenAuthenticator(List<TokenEntry> tokens, BiConsumer<RoutingContext, Refusal> onRefused) {
        this.tokens = List.copyOf(tokens);
        this.onRefused = onRefused;
    }

    /** Whether {@code role} has a token configured. */
    public boolean configured(Role role) {
        return tokens.stream().anyMatch(t -> t.role() == role);
    }

    /** Whether no token at all is configured: the fully open (loopback or insecure) mode. */
    public boolean open() {
        return tokens.isEmpty();
    }

    /** The roles that have no token while others do: each is refused everywhere (logged once at startup). */
    public List<Role> unconfiguredRoles() {
        return open() ? List.of() : Arrays.stream(Role.values()).filter(r -> !configured(r)).toList();
    }

    /**
     * The decision for a request presenting {@code authorizationHeader} on a route that admits {@code roles}:
     * empty = admitted. Order: fully open admits; no token of the route's roles configured refuses (403) whatever
     * is presented; a matching token admits; a known token of another role is 403; anything else 401.
     */
    public Optional<Refusal> check(String authorizationHeader, Set<Role> roles) {
        if (open()) {
            return Optional.empty();
        }
        if (roles.stream().noneMatch(this::configured)) {
            String names = names(roles, " or ");
            return Optional.of(new Refusal(403, Refusal.ROLE_NOT_CONFIGURED, "no " + names + " token is configured on"
                    + " this collector: " + names + " requests are refused (configure one, docs/collector.md)"));
        }
        if (authenticate(authorizationHeader, roles).isPresent()) {
            return Optional.empty();
        }
        if (authenticate(authorizationHeader, EnumSet.allOf(Role.class)).isPresent()) {
            return Optional.of(new Refusal(403, Refusal.WRONG_ROLE, "this token's role may not do this (needs "
                    + roles.stream().map(TokenAuthenticator::name).sorted().toList() + ")"));
        }
        return Optional.of(new Refusal(401, Refusal.UNAUTHENTICATED, "missing or unknown bearer token"));
    }

    /**
     * The token entry of one of {@code roles} matching the Authorization header; empty when none matches.
     * All tokens are compared in constant time so that timing does not reveal a prefix.
     */
    public Optional<TokenEntry> authenticate(String authorizationHeader, Set<Role> roles) {
        if (authorizationHeader == null || authorizationHeader.length() <= BEARER.length()
                || !authorizationHeader.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Optional.empty();
        }
        byte[] presented = authorizationHeader.substring(BEARER.length()).trim().getBytes(StandardCharsets.UTF_8);
        TokenEntry match = null;
        for (TokenEntry entry : tokens) {
            boolean equal = MessageDigest.isEqual(presented, entry.token().getBytes(StandardCharsets.UTF_8));
            if (equal && roles.contains(entry.role()) && match == null) {
                match = entry;
            }
        }
        return Optional.ofNullable(match);
    }

    /** A route handler admitting viewers and operators (everyone in the fully open mode). */
    public Handler<RoutingContext> requireRead() {
        return require(EnumSet.of(Role.VIEWER, Role.OPERATOR));
    }

    /** A route handler admitting operators only (everyone in the fully open mode). */
    public Handler<RoutingContext> requireOperator() {
        return require(EnumSet.of(Role.OPERATOR));
    }

    /**
     * Like {@link #requireOperator()}, and tells {@code onForbidden} about a 403 before answering it (the probe
     * API audits such refusals).
     */
    public Handler<RoutingContext> requireOperator(BiConsumer<RoutingContext, Refusal> onForbidden) {
        return require(EnumSet.of(Role.OPERATOR), onForbidden);
    }

    /** Answers {@code refusal} (JSON error; 401 with {@code WWW-Authenticate}) after telling the listener. */
    public void refuse(RoutingContext ctx, Refusal refusal) {
        onRefused.accept(ctx, refusal);
        if (refusal.status() == 401) {
            ctx.response().putHeader("WWW-Authenticate", "Bearer");
        }
        JsonReplies.error(ctx, refusal.status(), refusal.error());
    }

    private Handler<RoutingContext> require(Set<Role> roles) {
        return require(roles, (ctx, refusal) -> { });
    }

    private Handler<RoutingContext> require(Set<Role> roles, BiConsumer<RoutingContext, Refusal> onForbidden) {
        return ctx -> check(ctx.request().getHeader(HttpHeaders.AUTHORIZATION), roles).ifPresentOrElse(refusal -> {
            if (refusal.status() == 403) {
                onForbidden.accept(ctx, refusal);
            }
            refuse(ctx, refusal);
        }, ctx::next);
    }

    private static String names(Set<Role> roles, String separator) {
        return String.join(separator, roles.stream().sorted().map(TokenAuthenticator::name).toList());
    }

    private static String name(Role role) {
        return role.name().toLowerCase(Locale.ROOT);
    }
}
