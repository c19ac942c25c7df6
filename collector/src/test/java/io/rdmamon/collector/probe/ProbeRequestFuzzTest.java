package io.rdmamon.collector.probe;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Fuzzes the body of {@code POST /api/probes} as {@link ProbeApi} reads it: decoded as Vert.x does
 * ({@code RoutingContext.body().asJsonObject()}; what is not a JSON object is answered 400 before parsing),
 * then {@link ProbeRequest#parse} with the default limits. The only refusal allowed is a {@link ProbeRefused}
 * with status 400; an accepted request must give valid perftest options for both sides, as the orchestrator
 * asks for them without a guard.
 */
class ProbeRequestFuzzTest {
    private static final int MAX_DURATION_SECONDS = ProbeConfig.defaults().maxDurationSeconds();

    @FuzzTest
    void bodyIsAcceptedOrRefusedWith400(byte[] body) {
        Object decoded;
        try {
            decoded = Json.decodeValue(Buffer.buffer(body));
        } catch (DecodeException notJson) {
            return;
        }
        if (!(decoded instanceof JsonObject json)) {
            return;
        }
        ProbeRequest request;
        try {
            request = ProbeRequest.parse(json, MAX_DURATION_SECONDS);
        } catch (ProbeRefused refused) {
            assertEquals(400, refused.status(), refused::getMessage);
            return;
        }
        request.spec(request.source());
        request.spec(request.destination());
    }
}
