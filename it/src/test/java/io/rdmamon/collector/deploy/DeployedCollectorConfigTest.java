package io.rdmamon.collector.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.rdmamon.collector.CollectorConfig;
import io.rdmamon.collector.auth.Role;
import io.rdmamon.collector.auth.TokenEntry;
import io.rdmamon.collector.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The collector configuration the manifests deploy, loaded by the collector's own {@link CollectorConfig}:
 * the ConfigMap's collector.json with the token files the Deployment points at, and the committed
 * placeholder Secret, which must stop the collector rather than let it start with a known token.
 */
class DeployedCollectorConfigTest {

    @Test
    void the_configmap_and_the_secrets_token_files_give_a_tokened_collector_on_all_interfaces(@TempDir Path dir) throws IOException {
        Path config = Files.writeString(dir.resolve("collector.json"), configMapValue("collector.json"));
        Map<String, String> env = new HashMap<>();
        for (String role : List.of("agent", "viewer", "operator")) {
            Path tokenFile = Files.writeString(dir.resolve(role), role + "-0123456789abcdef\n");
            String variable = "RDMAMON_" + role.toUpperCase() + "_TOKEN_FILE";
            requireDeploymentEnv(variable);
            env.put(variable, tokenFile.toString());
        }

        CollectorConfig loaded = CollectorConfig.load(config, env);

        assertEquals("0.0.0.0", loaded.listenHost());
        assertEquals(9470, loaded.listenPort());
        assertEquals(List.of(Role.AGENT, Role.VIEWER, Role.OPERATOR),
                loaded.tokens().stream().map(TokenEntry::role).sorted().toList());
        assertEquals(false, loaded.insecure(), "a non-loopback listen must rest on tokens, not --insecure");
    }

    @Test
    void the_committed_placeholder_tokens_stop_the_collector(@TempDir Path dir) throws IOException {
        JsonNode placeholders = DeployTree.readDocument(DeployTree.BASE.resolve("tokens-secret.yaml")).path("stringData");
        for (Role role : Role.values()) {
            Path tokenFile = Files.writeString(dir.resolve(role.name()), placeholders.path(role.name().toLowerCase()).asText());

            ConfigException e = assertThrows(ConfigException.class, () -> CollectorConfig.load(null,
                    Map.of("RDMAMON_" + role.name() + "_TOKEN_FILE", tokenFile.toString())));

            assertTrue(e.getMessage().contains("holds no token"), e.getMessage());
        }
    }

    @Test
    void the_bare_metal_collector_config_loads() {
        CollectorConfig loaded = CollectorConfig.load(DeployTree.SYSTEMD.resolve("collector.json"), Map.of());

        assertEquals(9470, loaded.listenPort());
    }

    private static String configMapValue(String key) {
        return DeployTree.readDocument(DeployTree.BASE.resolve("collector-configmap.yaml")).path("data").path(key).asText();
    }

    /** The test points the variable at a temporary file; the Deployment must set it (to the mounted Secret key). */
    private static void requireDeploymentEnv(String name) {
        for (JsonNode env : DeployTree.readDocument(DeployTree.BASE.resolve("collector-deployment.yaml"))
                .at("/spec/template/spec/containers/0/env")) {
            if (env.path("name").asText().equals(name)) {
                return;
            }
        }
        throw new AssertionError("the collector Deployment does not set " + name);
    }
}
