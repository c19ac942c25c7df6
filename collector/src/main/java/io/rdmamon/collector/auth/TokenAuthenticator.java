package io.rdmamon.collector.auth;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Checks {@code Authorization: Bearer <token>} against the configured tokens. A role for which no
 * token is configured is open (DESIGN.md §3: no tokens, everything open; the collector then refuses
 * non-loopback addresses unless insecure is set).
 */
public final class TokenAuthenticator {
    private static final String BEARER = "bearer ";
    private final List<TokenEntry> tokens;

    public TokenAuthenticator(List<TokenEntry> tokens) {
        this.tokens = List.copyOf(tokens);
    }

    /** Whether {@code role} needs a token. */
    public boolean required(Role role) {
        return tokens.stream().anyMatch(t -> t.role() == role);
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

    /** A route handler admitting viewers and operators (or everyone when no such token is configured). */
    public Handler<RoutingContext> requireRead() {
        return require(EnumSet.of(Role.VIEWER, Role.OPERATOR));
    }

    /** A route handler admitting operators only (or everyone when no operator token is configured). */
    public Handler<RoutingContext> requireOperator() {
        return require(EnumSet.of(Role.OPERATOR));
    }

    /**
     * Like {@link #requireOperator()}, and tells {@code onForbidden} about a known token of another role
     * before answering 403 (the probe API audits such refusals).
     */
    public Handler<RoutingContext> requireOperator(Consumer<RoutingContext> onForbidden) {
        return require(EnumSet.of(Role.OPERATOR), onForbidden);
    }

    private Handler<RoutingContext> require(Set<Role> roles) {
        return require(roles, ctx -> { });
    }

    /** 401 without a known token; 403 with a known token of a role the route does not admit. */
    private Handler<RoutingContext> require(Set<Role> roles, Consumer<RoutingContext> onForbidden) {
        return ctx -> {
            boolean open = roles.stream().noneMatch(this::required);
            String header = ctx.request().getHeader(HttpHeaders.AUTHORIZATION);
            if (open || authenticate(header, roles).isPresent()) {
                ctx.next();
            } else if (authenticate(header, EnumSet.allOf(Role.class)).isPresent()) {
                onForbidden.accept(ctx);
                ctx.response().setStatusCode(403).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                        .end(new JsonObject().put("error", "this token's role may not do this (needs "
                                + roles.stream().map(r -> r.name().toLowerCase(Locale.ROOT)).sorted().toList()
                                + ")").encode());
            } else {
                ctx.response().setStatusCode(401).putHeader("WWW-Authenticate", "Bearer")
                        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                        .end(new JsonObject().put("error", "missing or unknown bearer token").encode());
            }
        };
    }
}
