package io.rdmamon.collector.web;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PercentEscapesTest {
    @ParameterizedTest(name = "{0} ? {1}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "/api/nodes            | null                 | null",
            "/api/nodes/gpu%2D01   | a=%41%e9&b=+%20      | null",
            "/api/nodes/%ZZ/x      | null                 | malformed percent-escape in path segment '%ZZ'",
            "/api/nodes/a%2        | null                 | malformed percent-escape in path segment 'a%2'",
            "/api/nodes/%          | null                 | malformed percent-escape in path segment '%'",
            "/api/nodes/%٣٣        | null                 | malformed percent-escape in path segment '%٣٣'",
            "/api/pingmesh         | group=%ZZ            | malformed percent-escape in query parameter 'group'",
            "/api/pingmesh/pair    | srcNode=a&srcDevice=%G1 | malformed percent-escape in query parameter 'srcDevice'",
            "/api/probes           | include              | null",
            "/api/probes           | in%ZZclude=all       | malformed percent-escape in query parameter 'in%ZZclude'",
            "/api/diagnoses        | node=x%              | malformed percent-escape in query parameter 'node'",
    })
    void findsTheFirstMalformedEscape(String path, String query, String expected) {
        assertEquals(Optional.ofNullable(expected), PercentEscapes.malformed(path, query));
    }
}
