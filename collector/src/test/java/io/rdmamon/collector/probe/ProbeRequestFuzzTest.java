package io.rdmamon.collector.probe;

import com.code_intelligence.jazzer.junit.FuzzTest;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Fuzzes the body of {@code POST /api/probes} as {@link ProbeApi} reads it: the request's bytes through
 * {@link ProbeRequest#parse} with the default limits (JSON parsing included). The only refusal allowed is a
 * {@link ProbeRefused} with status 400; an accepted request must give valid perftest options for both sides, as the
 * orchestrator asks for them without a guard.
 */
class ProbeRequestFuzzTest {
    private static final int MAX_DURATION_SECONDS = ProbeConfig.defaults().maxDurationSeconds();

    @FuzzTest
    void bodyIsAcceptedOrRefusedWith400(byte[] body) {
        ProbeRequest request;
        try {
            request = ProbeRequest.parse(body, MAX_DURATION_SECONDS);
        } catch (ProbeRefused refused) {
            assertEquals(400, refused.status(), refused::getMessage);
            return;
        }
        request.spec(request.source());
        request.spec(request.destination());
    }
}
