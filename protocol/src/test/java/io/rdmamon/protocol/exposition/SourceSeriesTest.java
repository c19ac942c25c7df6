package io.rdmamon.protocol.exposition;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rdmamon.protocol.model.HostSample;
import io.rdmamon.protocol.model.SourceStatus;

/**
 * {@code rdma_source_success{source}} and {@code rdma_source_supported{source}}: a subject that lacks the capability
 * (unsupported) keeps its source's success at 1 and sets supported to 0; a failure sets success to 0 only.
 */
class SourceSeriesTest {

    @Test
    void anUnsupportedSourceSucceedsAndIsNotSupportedAFailedOneFails() throws IOException {
        String text = render(SourceStatus.ok("sysfs", "rxe0"), SourceStatus.ok("ethtool", "eth1"),
                SourceStatus.unsupported("qos", "eth1", "no DCB support on eth1 (EOPNOTSUPP)"),
                SourceStatus.ok("verbs", "rxe0"), SourceStatus.ok("verbs", "rxe1"),
                SourceStatus.failed("verbs", "rxe1", "ibv_query_port(rxe1, 1): EIO"));
        assertEquals(List.of(
                "rdma_source_success{node=\"h1\",source=\"ethtool\"} 1.0",
                "rdma_source_success{node=\"h1\",source=\"qos\"} 1.0",
                "rdma_source_success{node=\"h1\",source=\"sysfs\"} 1.0",
                "rdma_source_success{node=\"h1\",source=\"verbs\"} 0.0",
                "rdma_source_supported{node=\"h1\",source=\"ethtool\"} 1.0",
                "rdma_source_supported{node=\"h1\",source=\"qos\"} 0.0",
                "rdma_source_supported{node=\"h1\",source=\"sysfs\"} 1.0",
                "rdma_source_supported{node=\"h1\",source=\"verbs\"} 1.0"),
                text.lines().filter(l -> l.startsWith("rdma_source_")).toList());
    }

    @Test
    void oneUnsupportedSubjectMakesItsSourceUnsupported() throws IOException {
        String text = render(SourceStatus.ok("qos", "eth1"), SourceStatus.unsupported("qos", "eth2",
                "no DCB support on eth2 (EOPNOTSUPP)"), SourceStatus.ok("qos", "etc/nccl.conf"));
        assertEquals(List.of("rdma_source_success{node=\"h1\",source=\"qos\"} 1.0",
                        "rdma_source_supported{node=\"h1\",source=\"qos\"} 0.0"),
                text.lines().filter(l -> l.startsWith("rdma_source_")).toList());
    }

    private static String render(SourceStatus... sources) throws IOException {
        ExpositionAssembler assembler = new ExpositionAssembler();
        assembler.add(new NodeRenderer().render("h1", new HostSample("h1", 1000, List.of(), List.of(sources))));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assembler.write(out, ExpositionFormat.PROMETHEUS_TEXT);
        return out.toString(StandardCharsets.UTF_8);
    }
}
