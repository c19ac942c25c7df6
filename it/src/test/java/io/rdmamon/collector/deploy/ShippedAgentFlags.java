package io.rdmamon.collector.deploy;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/** The agent's JVM flags as the DaemonSet ships them: for tests that run an agent as it runs on a node. */
public final class ShippedAgentFlags {
    private ShippedAgentFlags() {
    }

    /** The words of the agent container's {@code JDK_JAVA_OPTIONS} in {@code deploy/kubernetes/base}. */
    public static List<String> daemonSet() {
        JsonNode env = DeployTree.readDocument(DeployTree.BASE.resolve("agent-daemonset.yaml"))
                .at("/spec/template/spec/containers/0/env");
        List<String> flags = new ArrayList<>();
        env.forEach(e -> {
            if (e.path("name").asText().equals("JDK_JAVA_OPTIONS")) {
                flags.addAll(List.of(e.path("value").asText().strip().split("\\s+")));
            }
        });
        return flags;
    }
}
