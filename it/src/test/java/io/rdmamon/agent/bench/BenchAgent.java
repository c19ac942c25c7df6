package io.rdmamon.agent.bench;

import io.rdmamon.agent.daemon.AgentDaemon;
import io.rdmamon.agent.daemon.AgentDaemonOptions;
import io.rdmamon.agent.host.HostReader;
import io.rdmamon.agent.stream.AgentStreamer;
import io.rdmamon.agent.stream.AgentStreamerOptions;
import io.vertx.core.Vertx;

import java.nio.file.Path;
import java.util.Map;

/**
 * An rdmamon agent process for {@link AgentVsNodeExporterBench}: the real {@link AgentDaemon} reading
 * {@link HostReader} at 1 Hz and its {@link AgentStreamer} streaming to a collector, as {@code rdmamon agent} does.
 * Arguments: host root, collector URL, node name. Commands on stdin: {@code stats}, {@code heap}, {@code gc}.
 */
public final class BenchAgent {
    private BenchAgent() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        String node = args[2];
        // as `rdmamon agent` reads (its --gid-refresh default)
        HostReader reader = HostReader.forRoot(root).withGidRefresh(java.time.Duration.ofSeconds(30));
        Vertx vertx = Vertx.vertx();
        AgentStreamerOptions streaming = AgentStreamerOptions.of(args[1], node);
        AgentDaemon daemon = new AgentDaemon(AgentDaemonOptions.of(node, streaming.interval(), () -> reader.read(node))
                .withStreamer(streaming));
        vertx.deployVerticle(daemon).toCompletionStage().toCompletableFuture().get();
        AgentStreamer streamer = daemon.streamer();
        BenchControl.answer("ready");
        BenchControl.serve(Map.of("stats", () -> {
            AgentStreamer.Stats s = streamer.stats();
            return "samples=" + s.samplesOffered() + " acked=" + s.acknowledgedSeq() + " connected=" + s.connected()
                    + " failures=" + daemon.stats().failed();
        }));
        vertx.close();
        System.exit(0);
    }
}
