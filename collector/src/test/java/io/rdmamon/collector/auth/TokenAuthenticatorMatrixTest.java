package io.rdmamon.collector.auth;

import io.rdmamon.collector.Collector;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.LogCapture;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static io.rdmamon.protocol.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole role matrix of {@link TokenAuthenticator#check}: which roles have a token configured × which
 * endpoint (ingest = agent, reads = viewer or operator, actions = operator) × which token the request presents.
 */
@ExtendWith(VertxExtension.class)
class TokenAuthenticatorMatrixTest {
    private static final Set<Role> INGEST = EnumSet.of(Role.AGENT);
    private static final Set<Role> READ = EnumSet.of(Role.VIEWER, Role.OPERATOR);
    private static final Set<Role> ACT = EnumSet.of(Role.OPERATOR);

    /** A row: configured roles; presented token (a role's, "unknown", or null); expected status (200 = admitted) per endpoint. */
    static Stream<Arguments> matrix() {
        List<Arguments> rows = new ArrayList<>();
        // no token at all: the fully open loopback/--insecure mode admits everything, whatever is presented
        for (String presented : new String[]{null, "unknown"}) {
            rows.add(Arguments.of(EnumSet.noneOf(Role.class), presented, 200, 200, 200));
        }
        // one role configured: the other two roles' endpoints are refused (403) for everyone
        rows.add(Arguments.of(EnumSet.of(Role.AGENT), null, 401, 403, 403));
        rows.add(Arguments.of(EnumSet.of(Role.AGENT), "agent", 200, 403, 403));
        rows.add(Arguments.of(EnumSet.of(Role.AGENT), "unknown", 401, 403, 403));
        rows.add(Arguments.of(EnumSet.of(Role.VIEWER), null, 403, 401, 403));
        rows.add(Arguments.of(EnumSet.of(Role.VIEWER), "viewer", 403, 200, 403));
        rows.add(Arguments.of(EnumSet.of(Role.OPERATOR), null, 403, 401, 401));
        rows.add(Arguments.of(EnumSet.of(Role.OPERATOR), "operator", 403, 200, 200));
        // agent and viewer, no operator (the reported hole): nobody may act
        rows.add(Arguments.of(EnumSet.of(Role.AGENT, Role.VIEWER), null, 401, 401, 403));
        rows.add(Arguments.of(EnumSet.of(Role.AGENT, Role.VIEWER), "agent", 200, 403, 403));
        rows.add(Arguments.of(EnumSet.of(Role.AGENT, Role.VIEWER), "viewer", 403, 200, 403));
        rows.add(Arguments.of(EnumSet.of(Role.AGENT, Role.VIEWER), "unknown", 401, 401, 403));
        // agent and operator, no viewer: reads need the operator token (operator implies viewer)
        rows.add(Arguments.of(EnumSet.of(Role.AGENT, Role.OPERATOR), "agent", 200, 403, 403));
        rows.add(Arguments.of(EnumSet.of(Role.AGENT, Role.OPERATOR), "operator", 403, 200, 200));
        rows.add(Arguments.of(EnumSet.of(Role.AGENT, Role.OPERATOR), null, 401, 401, 401));
        // viewer and operator, no agent: ingest is closed
        rows.add(Arguments.of(EnumSet.of(Role.VIEWER, Role.OPERATOR), null, 403, 401, 401));
        rows.add(Arguments.of(EnumSet.of(Role.VIEWER, Role.OPERATOR), "operator", 403, 200, 200));
        // all three
        rows.add(Arguments.of(EnumSet.allOf(Role.class), null, 401, 401, 401));
        rows.add(Arguments.of(EnumSet.allOf(Role.class), "unknown", 401, 401, 401));
        rows.add(Arguments.of(EnumSet.allOf(Role.class), "agent", 200, 403, 403));
        rows.add(Arguments.of(EnumSet.allOf(Role.class), "viewer", 403, 200, 403));
        rows.add(Arguments.of(EnumSet.allOf(Role.class), "operator", 403, 200, 200));
        return rows.stream();
    }

    @ParameterizedTest(name = "configured {0}, presenting {1}: ingest {2}, read {3}, act {4}")
    @MethodSource("matrix")
    void decides(Set<Role> configured, String presented, int ingest, int read, int act) {
        TokenAuthenticator auth = new TokenAuthenticator(configured.stream()
                .map(role -> new TokenEntry(role, token(role), null)).toList());
        String header = presented == null ? null : "Bearer " + (presented.equals("unknown") ? "guessed" : token(Role.parse(presented)));
        assertEquals(ingest, status(auth, header, INGEST), "ingest");
        assertEquals(read, status(auth, header, READ), "read");
        assertEquals(act, status(auth, header, ACT), "act");
    }

    @Test
    void anUnconfiguredRoleIsRefusedWithAnErrorNamingIt() {
        TokenAuthenticator auth = new TokenAuthenticator(List.of(new TokenEntry(Role.AGENT, token(Role.AGENT), null),
                new TokenEntry(Role.VIEWER, token(Role.VIEWER), null)));
        TokenAuthenticator.Refusal refusal = auth.check("Bearer " + token(Role.VIEWER), ACT).orElseThrow();
        assertEquals(TokenAuthenticator.Refusal.ROLE_NOT_CONFIGURED, refusal.reason());
        assertTrue(refusal.error().startsWith("no operator token is configured on this collector"), refusal.error());
        assertEquals(List.of(Role.OPERATOR), auth.unconfiguredRoles());
        assertEquals(List.of(), new TokenAuthenticator(List.of()).unconfiguredRoles(), "fully open: nothing to say");
    }

    /** The reported case on a real collector: agent and viewer tokens, no operator token; a viewer starts a probe. */
    @Test
    void aViewerCannotStartProbesWhenNoOperatorTokenIsConfigured(Vertx vertx) throws Exception {
        try (LogCapture log = LogCapture.of(Collector.class.getName())) {
            Collector.Running collector = await(Collector.start(vertx, CollectorConfig.defaults().withListen("127.0.0.1:0")
                    .withTokens(List.of(new TokenEntry(Role.AGENT, token(Role.AGENT), null),
                            new TokenEntry(Role.VIEWER, token(Role.VIEWER), null)))));
            HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + collector.port() + "/api/probes"))
                            .header("Authorization", "Bearer " + token(Role.VIEWER)).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"source\": {\"node\": \"a\", \"device\": \"mlx5_0\","
                                    + " \"port\": 1}, \"destination\": {\"node\": \"b\", \"device\": \"mlx5_0\", \"port\": 1}}"))
                            .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(403, response.statusCode(), response.body());
            assertTrue(new JsonObject(response.body()).getString("error").startsWith("no operator token is configured"),
                    response.body());
            assertEquals(List.of("no operator token configured while other tokens are: operator requests are refused"
                    + " with 403"), log.containing(" token configured while"), "one line per unconfigured role");
        }
    }

    private static int status(TokenAuthenticator auth, String header, Set<Role> roles) {
        return auth.check(header, roles).map(TokenAuthenticator.Refusal::status).orElse(200);
    }

    private static String token(Role role) {
        return role.name().toLowerCase() + "-secret";
    }
}
