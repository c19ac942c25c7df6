package io.rdmamon.collector.probe;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProbeRequestTest {
    private static final String SOURCE = "\"source\": {\"node\": \"gpu-01\", \"device\": \"mlx5_0\", \"port\": 1}";
    private static final String DESTINATION = "\"destination\": {\"node\": \"gpu-02\", \"device\": \"mlx5_0\", \"port\": 1}";

    private static ProbeRequest parse(String body) {
        return ProbeRequest.parse(body.getBytes(StandardCharsets.UTF_8), 10);
    }

    @Test
    void defaultsFillWhatTheBodyLeavesOut() {
        ProbeRequest request = parse("{" + SOURCE + ", " + DESTINATION + ", \"gidIndex\": null}");
        assertEquals(new Endpoint("gpu-01", "mlx5_0", 1), request.source());
        assertEquals(ProbeRequest.DEFAULT_SIZE_BYTES, request.sizeBytes());
        assertEquals(ProbeRequest.DEFAULT_DURATION_SECONDS, request.durationSeconds());
        assertEquals(ProbeRequest.DEFAULT_QPS, request.qps());
        assertNull(request.gidIndex());
        assertEquals(false, request.bidirectional());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "empty body           | ''                                                   | body: a JSON object is required",
            "null body            | null                                                 | body: a JSON object is required",
            "array body           | []                                                   | body: not a JSON object: got array",
            "truncated body       | '{\"source\": '                                      | body: not a JSON object: Unexpected end-of-input",
            "repeated key         | '{\"qps\": 1, \"qps\": 2}'                           | body: not a JSON object: Duplicate field 'qps'",
            "trailing document    | '{} {}'                                              | body: not a JSON object",
            "unknown key          | '{\"colour\": 1}'                                    | unknown key 'colour' (known: [bidirectional, destination, durationSeconds, gidIndex, qps, sizeBytes, source])",
            "no source            | '{}'                                                 | source: missing",
            "source a string      | '{\"source\": \"gpu-01\"}'                           | source: expected an object, got string",
            "unknown endpoint key | '{\"source\": {\"nodes\": \"a\"}}'                   | unknown key 'source.nodes' (known: [device, node, port])",
            "node a number        | '{\"source\": {\"node\": 1}}'                        | source.node: expected a string, got number",
            "blank node           | '{\"source\": {\"node\": \" \"}}'                    | source.node: must be a node name",
            "device with a path   | '{\"source\": {\"node\": \"a\", \"device\": \"../x\"}}' | source.device: must be an RDMA device name",
            "no port              | '{\"source\": {\"node\": \"a\", \"device\": \"mlx5_0\"}}' | source.port: missing",
            "port out of range    | '{\"source\": {\"node\": \"a\", \"device\": \"mlx5_0\", \"port\": 256}}' | source.port: 256 is outside 1..255",
            "port a fraction      | '{\"source\": {\"node\": \"a\", \"device\": \"mlx5_0\", \"port\": 1.5}}' | source.port: expected a 64-bit integer, got number"})
    void badBodiesAreRefusedNamingTheField(String name, String body, String message) {
        ProbeRefused e = assertThrows(ProbeRefused.class, () -> parse(body));
        assertEquals(400, e.status());
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "same port          | , \"destination\": {\"node\": \"gpu-01\", \"device\": \"mlx5_0\", \"port\": 1} | destination: is the same port as the source",
            "size a string      | , \"sizeBytes\": \"64k\"                 | sizeBytes: expected a 64-bit integer, got string",
            "size too small     | , \"sizeBytes\": 1                            | sizeBytes: 1 is outside 2..",
            "duration over max  | , \"durationSeconds\": 11                     | durationSeconds: 11 is over the maximum of 10 s",
            "duration beyond 32 bits | , \"durationSeconds\": 4294967296        | durationSeconds: 4294967296 is outside 1..2147483647",
            "qps zero           | , \"qps\": 0                                  | qps: 0 is outside 1..64",
            "gid negative       | , \"gidIndex\": -1                            | gidIndex: -1 is outside 0..",
            "bidirectional text | , \"bidirectional\": \"yes\"                  | bidirectional: expected true or false, got string"})
    void badParametersAreRefusedNamingTheField(String name, String extra, String message) {
        String destination = extra.contains("\"destination\"") ? "" : ", " + DESTINATION;
        ProbeRefused e = assertThrows(ProbeRefused.class, () -> parse("{" + SOURCE + destination + extra + "}"));
        assertEquals(400, e.status());
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }
}
