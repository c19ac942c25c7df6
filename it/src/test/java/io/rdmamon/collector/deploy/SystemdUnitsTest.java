package io.rdmamon.collector.deploy;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The systemd units of deploy/systemd: accepted by systemd itself, hardened, and wired to their settings files. */
class SystemdUnitsTest {
    private static final Pattern BRACED_VARIABLE = Pattern.compile("\\$\\{([A-Z_]+)}");

    @ParameterizedTest
    @ValueSource(strings = {"rdmamon-agent.service", "rdmamon-collector.service"})
    void systemd_analyze_verify_accepts_the_unit_without_a_warning(String unit) throws Exception {
        assumeTrue(KustomizeTest.onPath("systemd-analyze"), "systemd-analyze is not installed");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/java")), "verify checks ExecStart's /usr/bin/java, absent here");
        Process process = new ProcessBuilder("systemd-analyze", "verify", DeployTree.SYSTEMD.resolve(unit).toString())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "systemd-analyze timed out");

        assertEquals(0, process.exitValue(), output);
        // An unknown or misspelt directive is only a warning ("Unknown key ... ignoring") with exit 0.
        assertEquals("", output.strip(), "systemd-analyze verify " + unit);
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent", "collector"})
    void the_unit_runs_the_jar_unprivileged_and_hardened(String role) throws IOException {
        Map<String, List<String>> service = serviceSection("rdmamon-" + role + ".service");

        assertEquals(List.of("rdmamon"), service.get("User"));
        assertEquals(List.of("-/etc/default/rdmamon-" + role), service.get("EnvironmentFile"));
        String execStart = single(service, "ExecStart");
        assertTrue(execStart.startsWith("/usr/bin/java $JAVA_OPTS -jar /opt/rdmamon/rdmamon.jar " + role + " "), execStart);
        assertFalse(execStart.contains("--host-root"), "the host root stays / (ethtool ioctl, docs/architecture.md#host-root)");
        Map<String, String> hardening = Map.ofEntries(
                Map.entry("NoNewPrivileges", "yes"), Map.entry("ProtectSystem", "strict"), Map.entry("ProtectHome", "yes"),
                Map.entry("PrivateTmp", "yes"), Map.entry("CapabilityBoundingSet", ""), Map.entry("AmbientCapabilities", ""),
                Map.entry("ProtectKernelTunables", "yes"), Map.entry("ProtectKernelModules", "yes"),
                Map.entry("ProtectControlGroups", "yes"), Map.entry("RestrictSUIDSGID", "yes"),
                Map.entry("RestrictNamespaces", "yes"), Map.entry("SystemCallArchitectures", "native"),
                Map.entry("SystemCallFilter", "@system-service"), Map.entry("UMask", "0077"));
        hardening.forEach((key, value) -> assertEquals(value, single(service, key), role + ": " + key));
        assertFalse(service.containsKey("MemoryDenyWriteExecute"), "the JVM's JIT needs W+X memory");
    }

    @ParameterizedTest
    @ValueSource(strings = {"agent", "collector"})
    void every_variable_the_command_line_needs_has_a_default(String role) throws IOException {
        Map<String, List<String>> service = serviceSection("rdmamon-" + role + ".service");
        List<String> defaults = new ArrayList<>();
        service.getOrDefault("Environment", List.of()).forEach(e -> defaults.add(e.replaceFirst("^\"", "").replaceFirst("=.*", "")));
        Matcher braced = BRACED_VARIABLE.matcher(single(service, "ExecStart"));
        // ${VAR} always becomes one argument, an empty one when unset: an empty settings file must still start.
        while (braced.find()) {
            assertTrue(defaults.contains(braced.group(1)), role + ": ${" + braced.group(1) + "} has no Environment= default");
        }
    }

    @Test
    void the_agent_may_pin_memory_and_open_only_the_verbs_devices() throws IOException {
        Map<String, List<String>> agent = serviceSection("rdmamon-agent.service");

        assertEquals("infinity", single(agent, "LimitMEMLOCK"), "ib_write_bw pins its buffers");
        assertEquals("closed", single(agent, "DevicePolicy"));
        assertEquals("char-infiniband_verbs rw", single(agent, "DeviceAllow"));
        assertEquals("yes", single(serviceSection("rdmamon-collector.service"), "PrivateDevices"));
    }

    @Test
    void the_settings_files_are_plain_assignments_of_rdmamon_and_java_variables() throws IOException {
        for (String file : List.of("rdmamon-agent.default", "rdmamon-collector.default")) {
            for (String line : Files.readAllLines(DeployTree.SYSTEMD.resolve(file))) {
                String assignment = line.startsWith("#") ? line.substring(1) : line;
                if (line.isBlank() || (line.startsWith("#") && !assignment.matches("[A-Z_]+=.*"))) {
                    continue;
                }
                assertTrue(assignment.matches("(RDMAMON_[A-Z_]+|JAVA_OPTS)=[^\"'$`]*"), file + ": " + line);
            }
        }
    }

    @Test
    void the_bare_metal_collector_config_is_the_kubernetes_one() throws IOException {
        ObjectMapper json = new ObjectMapper();
        String configMap = DeployTree.readDocument(DeployTree.BASE.resolve("collector-configmap.yaml"))
                .at("/data/collector.json").asText();

        assertEquals(json.readTree(configMap), json.readTree(DeployTree.SYSTEMD.resolve("collector.json").toFile()));
    }

    /** The [Service] section, each key with its values in order (keys may repeat). */
    private static Map<String, List<String>> serviceSection(String unit) throws IOException {
        Map<String, List<String>> section = new LinkedHashMap<>();
        boolean inService = false;
        for (String line : Files.readAllLines(DeployTree.SYSTEMD.resolve(unit))) {
            String trimmed = line.strip();
            if (trimmed.startsWith("[")) {
                inService = trimmed.equals("[Service]");
            } else if (inService && !trimmed.isEmpty() && !trimmed.startsWith("#")) {
                int equals = trimmed.indexOf('=');
                section.computeIfAbsent(trimmed.substring(0, equals), k -> new ArrayList<>()).add(trimmed.substring(equals + 1));
            }
        }
        return section;
    }

    private static String single(Map<String, List<String>> section, String key) {
        List<String> values = section.getOrDefault(key, List.of());
        assertEquals(1, values.size(), key + " set " + values.size() + " times");
        return values.get(0);
    }
}
