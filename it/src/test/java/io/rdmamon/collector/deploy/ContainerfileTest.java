package io.rdmamon.collector.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * deploy/container/Containerfile, read instruction by instruction (no container engine runs on the build
 * machines): a pinned multi-stage build, a JRE 17 runtime with the RDMA tools, a non-root numeric user.
 */
class ContainerfileTest {
    private static final List<String> RDMA_PACKAGES = List.of("ethtool", "perftest", "libibverbs1", "ibverbs-providers");
    private static List<Instruction> instructions;

    record Instruction(String keyword, String arguments) {
    }

    @BeforeAll
    static void parse() throws IOException {
        instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : Files.readAllLines(DeployTree.CONTAINERFILE)) {
            String trimmed = line.strip();
            if (trimmed.startsWith("#") || (trimmed.isEmpty() && current.length() == 0)) {
                continue;   // comments (parser directives included) and blank lines between instructions
            }
            if (trimmed.endsWith("\\")) {
                current.append(trimmed, 0, trimmed.length() - 1).append(' ');
                continue;
            }
            current.append(trimmed);
            String text = current.toString().strip();
            current.setLength(0);
            int space = text.indexOf(' ');
            instructions.add(new Instruction(text.substring(0, space).toUpperCase(), text.substring(space + 1).strip()));
        }
        assertEquals(0, current.length(), "the Containerfile ends inside a continued line");
    }

    @Test
    void every_instruction_is_known() {
        List<String> known = List.of("FROM", "WORKDIR", "COPY", "RUN", "USER", "EXPOSE", "ENTRYPOINT", "CMD", "ENV", "ARG", "LABEL");
        instructions.forEach(i -> assertTrue(known.contains(i.keyword()), "unknown instruction " + i));
    }

    @Test
    void a_maven_build_stage_feeds_a_jre_17_runtime_with_pinned_tags() {
        List<String> stages = arguments("FROM");
        assertEquals(2, stages.size(), stages.toString());
        assertTrue(stages.get(0).matches("maven:3\\.\\d+\\.\\d+-eclipse-temurin-17 AS build"), stages.get(0));
        assertTrue(stages.get(1).matches("eclipse-temurin:17\\.\\d+\\.\\d+_\\d+-jre-\\w+"), stages.get(1));
        for (String stage : stages) {
            String image = stage.split(" ")[0];
            assertFalse(image.contains(":latest"), image);
            assertTrue(image.length() > Kustomize.imageName(image).length(), image + " has no tag");
        }
        assertTrue(arguments("RUN").get(0).contains("mvn -B") && arguments("RUN").get(0).contains(" package"),
                "the build stage runs the Maven package build");
        assertTrue(arguments("COPY").contains("--from=build /rdmamon.jar /opt/rdmamon/rdmamon.jar"), arguments("COPY").toString());
    }

    @Test
    void the_runtime_installs_the_rdma_tools_without_recommends_and_cleans_the_lists() {
        String install = arguments("RUN").stream().filter(r -> r.contains("apt-get install")).findFirst().orElseThrow();
        List<String> words = List.of(install.split("\\s+"));
        RDMA_PACKAGES.forEach(p -> assertTrue(words.contains(p), "not installed: " + p));
        assertTrue(words.contains("--no-install-recommends"));
        assertTrue(install.contains("rm -rf /var/lib/apt/lists/*"));
    }

    @Test
    void the_image_runs_as_the_numeric_non_root_user_the_manifests_expect() {
        List<String> users = arguments("USER");
        String user = users.get(users.size() - 1);
        assertTrue(user.matches("[1-9]\\d*:[1-9]\\d*"), "USER must be a numeric non-root uid:gid, got " + user);
        String uid = user.substring(0, user.indexOf(':'));
        for (String manifest : List.of("collector-deployment.yaml", "agent-daemonset.yaml")) {
            assertEquals(uid, DeployTree.readDocument(DeployTree.BASE.resolve(manifest))
                    .at("/spec/template/spec/securityContext/runAsUser").asText(), manifest);
        }
        int lastUser = instructions.lastIndexOf(instructions.stream().filter(i -> i.keyword().equals("USER")).reduce((a, b) -> b).orElseThrow());
        assertTrue(instructions.subList(lastUser, instructions.size()).stream().noneMatch(i -> i.keyword().equals("RUN")),
                "nothing runs as root after USER");
    }

    @Test
    void the_entrypoint_runs_the_jar_and_the_command_picks_the_role() throws IOException {
        JsonNode entrypoint = new ObjectMapper().readTree(arguments("ENTRYPOINT").get(0));
        assertTrue(entrypoint.isArray(), "exec form, so that signals reach the JVM");
        List<String> words = new ArrayList<>();
        entrypoint.forEach(w -> words.add(w.asText()));
        assertEquals("java", words.get(0));
        assertEquals(List.of("-jar", "/opt/rdmamon/rdmamon.jar"), words.subList(words.size() - 2, words.size()));

        for (String manifest : List.of("collector-deployment.yaml", "agent-daemonset.yaml")) {
            JsonNode container = DeployTree.readDocument(DeployTree.BASE.resolve(manifest)).at("/spec/template/spec/containers/0");
            assertFalse(container.has("command"), manifest + " must keep the image's entrypoint");
            assertTrue(List.of("agent", "collector").contains(container.at("/args/0").asText()), manifest);
        }
    }

    private static List<String> arguments(String keyword) {
        return instructions.stream().filter(i -> i.keyword().equals(keyword)).map(Instruction::arguments).toList();
    }
}
