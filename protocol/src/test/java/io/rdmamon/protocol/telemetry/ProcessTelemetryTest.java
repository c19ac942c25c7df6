package io.rdmamon.protocol.telemetry;

import io.rdmamon.protocol.exposition.ExpositionFormat;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

class ProcessTelemetryTest {
    @Test
    void dump() throws Exception {
        Vertx first = ProcessTelemetry.process().vertx(new VertxOptions());
        first.close().await();
        Vertx vertx = ProcessTelemetry.process().vertx(new VertxOptions());
        var server = vertx.createHttpServer().requestHandler(r -> r.response().end("x")).listen(0).await();
        vertx.createHttpClient().request(HttpMethod.GET, server.actualPort(), "localhost", "/a")
                .compose(r -> r.send()).compose(r -> r.body()).await();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProcessTelemetry.process().write(out, ExpositionFormat.PROMETHEUS_TEXT, n -> true);
        System.out.println(out.toString(StandardCharsets.UTF_8));
        vertx.close().await();
    }
}
